/**
 * `npm run bench:types`: the type-check benchmark's command line. Prints the report and writes it into
 * docs/benchmarks.md (its generated section). Flags: `--repeat=N`, `--keep` (keep the temp project), `--no-write`.
 */
import { resolve } from "node:path";
import { writeSection } from "./_markdown.js";
import { FULL_TYPES_RUN, runTypesSuite } from "./types-suite.js";

const args = process.argv.slice(2);
const repeat = args.find((arg) => arg.startsWith("--repeat="))?.split("=")[1];

const result = await runTypesSuite({
  ...FULL_TYPES_RUN,
  root: process.cwd(),
  repeat: repeat === undefined ? FULL_TYPES_RUN.repeat : Number(repeat),
  keep: args.includes("--keep"),
  log: (line) => console.error(`[bench:types] ${line}`),
});
console.log(result.markdown);
if (!args.includes("--no-write")) {
  const file = resolve(process.cwd(), "docs/benchmarks.md");
  writeSection(file, "types", result.markdown);
  console.error(`[bench:types] wrote the types section of ${file}`);
}
if (result.failures.length > 0) {
  console.error(`[bench:types] ${result.failures.length} check(s) ended unexpectedly: see "Unexpected outcomes".`);
  process.exitCode = 1;
}
