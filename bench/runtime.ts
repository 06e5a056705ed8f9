/**
 * `npm run bench`: the runtime benchmark's command line. Prints the report and writes it into
 * docs/benchmarks.md (its generated section). Flags: `--rounds=N`, `--time=MS`, `--no-write`.
 */
import { resolve } from "node:path";
import { writeSection } from "./_markdown.js";
import { FULL_RUN, runRuntimeSuite } from "./runtime-suite.js";

const args = process.argv.slice(2);
const flag = (name: string): number | undefined => {
  const value = args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
  return value === undefined ? undefined : Number(value);
};

const result = await runRuntimeSuite({
  ...FULL_RUN,
  rounds: Math.max(5, flag("rounds") ?? FULL_RUN.rounds),
  time: flag("time") ?? FULL_RUN.time,
  log: (line) => console.error(`[bench] ${line}`),
});
console.log(result.markdown);
if (!args.includes("--no-write")) {
  const file = resolve(process.cwd(), "docs/benchmarks.md");
  writeSection(file, "runtime", result.markdown);
  console.error(`[bench] wrote the runtime section of ${file}`);
}
if (result.targets.some((t) => t.met === false)) console.error("[bench] some targets were missed: see the Targets table.");
