#!/usr/bin/env node
// Checker work of the type-check benchmark's generated graphs, counted, not timed: a copy of TS 6 in a
// temp directory with a counter at the head of every named function of its checker, run on the same
// graph for an earlier commit and for the working tree. A count does not move with the machine's
// load, so it shows a change of a few percent that check times on a shared machine hide.
//
//   npx tsc -p bench/tsconfig.json && node scripts/checker-calls.mjs --ref=<commit> [--nodes=1,10,50]
//     [--form=builder|defineGraph] [--top=25] [--ablate=name,result,subgraph,edges,checks,topology]
//
// Prints the calls and instantiations of each tree, then the checker functions whose counts differ
// most (where the work went). The counter adds about 30% to a check's time; read only the counts.
//
// --ablate (builder form only) adds a row per ablation: the working tree's emitted declarations with
// one check taken out (see ABLATIONS), so a row's difference from the working tree is that check's
// cost. `topology` is also taken out of the earlier commit, which splits its calls into the chain of
// builder calls and compile()'s topology check.
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
const ablate = (flag("ablate") ?? "").split(",").filter((name) => name !== "");

// Each ablation: edits of the emitted builder/types.d.ts that take one check out of the builder's
// signatures. An edit that matches nothing fails: the declarations changed, and the row would
// measure nothing.
const ABLATIONS = {
  name: { what: "addNode's node-name check", edits: [[/name: Name & NoInfer<NodeNameCheck<Name, N>>/, "name: Name"]] },
  result: {
    what: "addNode's result check (NodeCheck)",
    edits: [[/NodeArgument<S, NoInfer<NodeCheck<F, Name, S>>, In/, "NodeArgument<S, unknown, In"]],
  },
  subgraph: { what: "the compiled-graph member of addNode's argument", edits: [[/\(Check & CompiledGraph<S>\) \| /, ""]] },
  edges: {
    what: "addEdge's source and target checks",
    edits: [
      [
        /from: From & NoInfer<SourceCheck<From, N, R, "addEdge">>, to: To & NoInfer<TargetCheck<To, N, EdgeTargetChecks<To, S, I, W>>>/,
        "from: From, to: To",
      ],
    ],
  },
  topology: {
    what: "compile()'s topology check (the reachability search)",
    edits: [[/compile\(this: CompileThis<StateGraph<[^>]*>, N, E, R(?:, S, I)?>, /, "compile("]],
  },
};
ABLATIONS.checks = {
  what: "all four per-call checks (name, result, subgraph, edges)",
  edits: ["name", "result", "subgraph", "edges"].flatMap((name) => ABLATIONS[name].edits),
};
for (const name of ablate)
  if (!(name in ABLATIONS)) throw new Error(`checker-calls: no ablation "${name}"; choose from ${Object.keys(ABLATIONS).join(", ")}`);
if (ablate.length > 0 && form !== "builder")
  throw new Error("checker-calls: --ablate edits the builder's declarations; use it with --form=builder");

/** A copy of `project` whose builder/types.d.ts has `edits` applied; throws when one matches nothing. */
function ablated(project, label, ablation) {
  const dir = mkdtempSync(join(tmpdir(), "tsg-checker-calls-ablated-"));
  cpSync(project.dir, dir, { recursive: true, verbatimSymlinks: true });
  const file = join(dir, "lib", "builder", "types.d.ts");
  let text = readFileSync(file, "utf8");
  for (const [pattern, replacement] of ablation.edits) {
    if (!pattern.test(text)) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(
        `checker-calls: ablation of ${ablation.what} matches nothing in ${label}'s builder/types.d.ts (${pattern}); the declarations changed, update ABLATIONS`,
      );
    }
    text = text.replace(pattern, replacement);
  }
  writeFileSync(file, text);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

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
  // `against`: the tree an ablated row is compared with (0, the earlier commit; 1, the working tree).
  const trees = [
    { name: ref, project: createProject(earlier, ts7) },
    { name: "working tree", project: createProject(root, ts7) },
  ];
  try {
    // Inside the try: an ablation that fails to apply still removes the projects made so far.
    for (const name of ablate) {
      const ablation = ABLATIONS[name];
      trees.push({
        name: `working tree without ${ablation.what}`,
        project: ablated(trees[1].project, "the working tree", ablation),
        against: 1,
      });
      if (name === "topology")
        trees.push({ name: `${ref} without ${ablation.what}`, project: ablated(trees[0].project, ref, ablation), against: 0 });
    }
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
        const { against } = trees[i];
        const delta = against === undefined ? "" : ` (${(total - results[against].total).toLocaleString("en", { signDisplay: "always" })})`;
        console.log(
          `  ${trees[i].name}: ${total.toLocaleString("en")} checker calls${delta}, ${figures.instantiations.toLocaleString("en")} instantiations${errors}`,
        );
      });
      // Where the work went: the earlier commit against the working tree.
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
