/**
 * Side-by-side type-check cost of the builder against an earlier commit:
 * `npx tsc -p bench/tsconfig.json && node bench/dist/bench/typecheck/compare.js --ref=<commit> [--nodes=10,50,100,200,500] [--rounds=3] [--form=builder]`.
 *
 * On a shared machine one check's time says little (it swings 2–3× with the load), so both trees are
 * checked in turns, the same generated graph each time, and the report gives the fastest and the
 * median of the rounds, with the instantiations, which the load does not change. `<commit>` is
 * written out with `git archive` into a temp directory next to the working tree's own project.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { type CheckFigures, checkSource, compilersOf, createProject } from "./check.js";
import { type GraphForm, graphSource } from "./generate.js";

const flag = (name: string): string | undefined =>
  process.argv
    .slice(2)
    .find((arg) => arg.startsWith(`--${name}=`))
    ?.slice(name.length + 3);
const ref = flag("ref");
if (ref === undefined) throw new Error("compare: name the commit to compare with, e.g. --ref=HEAD~1");
const nodes = (flag("nodes") ?? "10,50,100,200,500").split(",").map(Number);
const rounds = Number(flag("rounds") ?? "3");
const form = (flag("form") ?? "builder") as GraphForm;

const root = process.cwd();
const [ts6, ts7] = compilersOf(root);
if (ts6 === undefined || ts7 === undefined) throw new Error("compare: typescript and typescript7 must both be installed");

const earlier = mkdtempSync(join(tmpdir(), "tsg-compare-"));
execFileSync("sh", ["-c", `git archive ${JSON.stringify(ref)} | tar -x -C ${JSON.stringify(earlier)}`], { cwd: root });
symlinkSync(join(root, "node_modules"), join(earlier, "node_modules"), "dir");
const trees = [
  { name: ref, project: createProject(earlier, ts7) },
  { name: "working tree", project: createProject(root, ts7) },
];

const sorted = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b);
const describe = (times: readonly number[], last: CheckFigures): string => {
  const s = sorted(times);
  const errors = last.errors.length > 0 ? `, ${last.errors.length} error(s)` : "";
  return `fastest ${s[0]?.toFixed(2)} s, median ${s[Math.floor(s.length / 2)]?.toFixed(2)} s, ${last.instantiations.toLocaleString("en")} instantiations${errors}`;
};

console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" / ")}; ${rounds} rounds, each tree in turn`,
);
try {
  for (const n of nodes) {
    const source = graphSource({ form, nodes: n, typeLevelTopology: true, orphan: false });
    for (const compiler of [ts6, ts7]) {
      const times = trees.map(() => [] as number[]);
      const last: CheckFigures[] = [];
      for (let round = 0; round < rounds; round++) {
        trees.forEach((tree, i) => {
          const figures = checkSource(tree.project, compiler, `compare${n}`, source);
          times[i]?.push(figures.checkTime);
          last[i] = figures;
        });
      }
      const rows = trees.map((tree, i) => `${tree.name}: ${describe(times[i] ?? [], last[i] as CheckFigures)}`);
      console.log(`${form} N=${n}, ${compiler.name}\n  ${rows.join("\n  ")}`);
    }
  }
  console.log(
    `load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" / ")}`,
  );
} finally {
  for (const tree of trees) tree.project.remove();
  rmSync(earlier, { recursive: true, force: true });
}
