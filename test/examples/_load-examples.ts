/**
 * Run by entry.test.ts in a child process whose optional peers are hidden: imports the examples' entry,
 * runs the report example, asks AiSdkModel for one turn, and prints what happened as JSON.
 */
const examples = await import("../../src/examples/index.js");
const { state } = await examples.buildReportGraph().invoke(examples.initialReportState());
// The adapter fails before it reaches the model when `ai` cannot load, so any object stands in for it.
const aiSdk = await new examples.AiSdkModel({} as never).generate([{ role: "user", content: "Hi" }]).then(
  () => ({ name: "none", code: "none", message: "the request did not fail" }),
  (error: { name: string; code: string; message: string }) => ({ name: error.name, code: error.code, message: error.message }),
);
console.log(JSON.stringify({ names: Object.keys(examples), report: state.status, aiSdk }));
