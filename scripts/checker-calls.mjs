#!/usr/bin/env node
// Checker work of the type-check benchmark's generated graphs, counted, not timed: a copy of TS 6 in a
// temp directory with a counter at the head of every named function of its checker, run on the same
// graph for an earlier commit and for the working tree. A count does not move with the machine's
// load, so it shows a change of a few percent that check times on a shared machine hide.
//
//   npx tsc -p bench/tsconfig.json && node scripts/checker-calls.mjs --ref=<commit> [--nodes=1,10,50]
//     [--form=builder|defineGraph] [--top=25]
//
// Prints the calls and instantiations of each tree, then the checker functions whose counts differ
// most (where the work went). The counter adds about 30% to a check's time; read only the counts.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const flag = (name) =>
  process.argv
    .slice(2)
    .find((arg) => arg.startsWith(`--${name}=`))
    ?.slice(name.length + 3);
const ref = flag("ref");
if (ref === undefined) throw new Error("checker-calls: name the commit to compare with, e.g. --ref=HEAD~1");
const nodes = (flag("nodes") ?? "1,10,50").split(",").map(Number);
const form = flag("form") ?? "builder";
const top = Number(flag("top") ?? "25");

const bench = join(root, "bench", "dist", "bench", "typecheck");
const { checkSource, compilersOf, createProject } = await import(join(bench, "check.js"));
const { graphSource } = await import(join(bench, "generate.js"));
const [, ts7] = compilersOf(root);

const work = mkdtempSync(join(tmpdir(), "tsg-checker-calls-"));
try {
  // The counting compiler: every `function name(…) {` of createTypeChecker counts its calls.
  const typescript = join(work, "typescript");
  cpSync(join(root, "node_modules", "typescript"), typescript, { recursive: true });
  const tscFile = join(typescript, "lib", "_tsc.js");
  const text = readFileSync(tscFile, "utf8");
  const start = text.indexOf("function createTypeChecker(host) {");
  const end = text.indexOf("\nfunction ", start + 1);
  if (start < 0 || end < 0) throw new Error("checker-calls: this TypeScript has no createTypeChecker to count");
  const counted = text
    .slice(start, end)
    .replace(/^(\s+)function (\w+)\(([^()]*)\) \{$/gm, (line, _indent, name) => `${line} __calls.${name} = (__calls.${name} || 0) + 1;`);
  const report = `var __calls = Object.create(null); process.on("exit", () => { if (process.env.TSG_CHECKER_CALLS) require("fs").writeFileSync(process.env.TSG_CHECKER_CALLS, JSON.stringify(__calls)); });`;
  writeFileSync(tscFile, `${report}\n${text.slice(0, start)}${counted}${text.slice(end)}`);
  const counter = { name: "TS 6 (counting)", tsc: join(typescript, "bin", "tsc") };

  const earlier = join(work, "earlier");
  execFileSync(
    "sh",
    ["-c", `mkdir -p ${JSON.stringify(earlier)} && git archive ${JSON.stringify(ref)} | tar -x -C ${JSON.stringify(earlier)}`],
    {
      cwd: root,
    },
  );
  symlinkSync(join(root, "node_modules"), join(earlier, "node_modules"), "dir");
  const trees = [
    { name: ref, project: createProject(earlier, ts7) },
    { name: "working tree", project: createProject(root, ts7) },
  ];
  try {
    for (const n of nodes) {
      const source = graphSource({ form, nodes: n, typeLevelTopology: true, orphan: false });
      const results = trees.map((tree, i) => {
        const out = join(work, `calls-${i}-${n}.json`);
        process.env.TSG_CHECKER_CALLS = out;
        const figures = checkSource(tree.project, counter, `calls${n}`, source);
        const calls = JSON.parse(readFileSync(out, "utf8"));
        const total = Object.values(calls).reduce((sum, count) => sum + count, 0);
        return { calls, total, figures };
      });
      console.log(`${form} N=${n}`);
      results.forEach(({ total, figures }, i) => {
        const errors = figures.errors.length > 0 ? `, ${figures.errors.length} error(s)` : "";
        console.log(
          `  ${trees[i].name}: ${total.toLocaleString("en")} checker calls, ${figures.instantiations.toLocaleString("en")} instantiations${errors}`,
        );
      });
      const [before, after] = results;
      const names = new Set([...Object.keys(before.calls), ...Object.keys(after.calls)]);
      const differences = [...names]
        .map((name) => ({ name, before: before.calls[name] ?? 0, after: after.calls[name] ?? 0 }))
        .sort((a, b) => Math.abs(b.after - b.before) - Math.abs(a.after - a.before))
        .slice(0, top);
      for (const { name, before: x, after: y } of differences)
        console.log(`    ${name.padEnd(44)} ${String(x).padStart(9)} → ${String(y).padStart(9)}`);
    }
  } finally {
    for (const tree of trees) tree.project.remove();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
