#!/usr/bin/env bash
# Consumer smoke test: installs the packed tarball into a temporary project, as a user would.
#   1. the tarball alone (no optional peer dependency): npm installs it without an install-script warning;
#      import the core and the examples, run `npx tsg report` and `npx tsg diagram`; the docs are in the package;
#   2. with the peer dependencies (the versions this repository uses, so npm's cache serves them):
#      import every entry point, type-check a small graph (one deliberate @ts-expect-error), compile and run it.
# skipLibCheck is on in the consumer, as `tsc --init` sets it: xstate's and @langchain/core's own declarations
# do not pass exactOptionalPropertyTypes.
# Usage: scripts/consumer-smoke.sh [--no-build]   (--no-build: pack dist/ as it is, without the prepack build)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/tsg-consumer-XXXXXX")"
trap 'rm -rf "$work"' EXIT
step() { printf '> %s\n' "$*"; }
version_of() { node -p "require('$root/node_modules/$1/package.json').version"; }

cd "$root"
if [ "${1:-}" != "--no-build" ]; then
  step "npm pack (prepack: npm run build, then the install-time scripts stripped from the packed package.json)"
  tarball="$work/$(npm pack --silent --pack-destination "$work" | tail -n 1)"
else
  node scripts/pack-manifest.mjs strip
  tarball="$work/$(npm pack --ignore-scripts --silent --pack-destination "$work")" || { node scripts/pack-manifest.mjs restore; exit 1; }
  node scripts/pack-manifest.mjs restore
fi
step "packed $(basename "$tarball")"

app="$work/app"
mkdir "$app"
cd "$app"
cat > package.json <<'JSON'
{ "name": "tsg-consumer", "version": "1.0.0", "private": true, "type": "module" }
JSON
npm_install() { npm install --no-audit --no-fund --prefer-offline --loglevel=error "$@"; }

step "npm install the tarball alone"
npm_install --loglevel=warn "$tarball" 2> install.log || { cat install.log; exit 1; }
if grep -q "install-scripts" install.log; then
  cat install.log
  echo "the package ships an install-time script (npm warns about it above)" >&2
  exit 1
fi
test -f node_modules/typed-state-graph/docs/cli.md || { echo "the docs are not in the package" >&2; exit 1; }

step "the core loads without its optional peer dependencies"
node --input-type=module -e '
  const core = await import("typed-state-graph");
  for (const name of ["StateGraph", "START", "END", "append", "compileGraph", "validateTopology"]) {
    if (!(name in core)) throw new Error(`typed-state-graph does not export ${name}`);
  }
  console.log(`  typed-state-graph: ${Object.keys(core).length} exports`);
  // One entry for the examples; it loads without openai and ai (the live adapters load them on first use).
  const { buildReportGraph, initialReportState, buildResearchGraph, ScriptedModel, readLiveSettings } = await import(
    "typed-state-graph/examples"
  );
  const { state } = await buildReportGraph({ draftStyle: "complete" }).invoke(initialReportState());
  if (state.status !== "completed") throw new Error(`the report example ended ${state.status}`);
  const { toMermaid } = await import("typed-state-graph/render");
  const { coveragePlan } = await import("typed-state-graph/coverage");
  const plan = await coveragePlan(buildResearchGraph());
  if (typeof ScriptedModel !== "function" || typeof readLiveSettings !== "function") throw new Error("an example export is missing");
  console.log(`  the examples: report ${state.status}; research plan ${plan.covered}/${plan.total}; ${toMermaid(buildResearchGraph()).split("\n").length} diagram lines`);
'

step "npx tsg report"
report="$(npx --no-install tsg report)"
printf '%s\n' "$report" | sed 's/^/  /'
grep -q '^status: completed' <<<"$report"

step "npx tsg diagram report"
diagram="$(npx --no-install tsg diagram report)"
head -n 3 <<<"$diagram" | sed 's/^/  /'
grep -q '^flowchart TD' <<<"$diagram"

step "without xstate, --engine xstate and --via xstate exit 2 with the install command"
for args in "report --engine xstate" "paths report --via xstate"; do
  set +e
  refusal="$(npx --no-install tsg $args 2>&1 >/dev/null)"
  status=$?
  set -e
  printf '  tsg %s: exit %s: %s\n' "$args" "$status" "$(head -n 1 <<<"$refusal")"
  [ "$status" = 2 ] && grep -q "npm install xstate" <<<"$refusal"
done
printf '  tsg --version: %s\n' "$(npx --no-install tsg --version)"

step "npm install the peer dependencies, TypeScript and @types/node"
npm_install \
  "xstate@$(version_of xstate)" \
  "fast-check@$(version_of fast-check)" \
  "@langchain/langgraph@$(version_of @langchain/langgraph)" \
  "@langchain/core@$(version_of @langchain/core)" \
  "zod@$(version_of zod)" \
  "typescript@$(version_of typescript)" \
  "@types/node@$(version_of @types/node)"

step "import every entry point"
node --input-type=module -e '
  const entries = {
    "typed-state-graph": ["StateGraph", "compileGraph"],
    "typed-state-graph/xstate": ["toMachine", "toCoverageModel"],
    "typed-state-graph/testing": ["reducerLaws", "arbitraryGraphSpec"],
    "typed-state-graph/langgraph": ["toLangGraph", "runOnLangGraph"],
    "typed-state-graph/coverage": ["coveragePlan", "coverageReport"],
    "typed-state-graph/render": ["toMermaid", "toDot"],
  };
  for (const [entry, names] of Object.entries(entries)) {
    const module = await import(entry);
    for (const name of names) if (typeof module[name] !== "function") throw new Error(`${entry} does not export the function ${name}`);
    console.log(`  ${entry}: ${Object.keys(module).length} exports`);
  }
  const json = await import("typed-state-graph/package.json", { with: { type: "json" } });
  console.log(`  typed-state-graph/package.json: version ${json.default.version}`);
'

step "type-check, compile and run a 3-node graph"
cat > tsconfig.json <<'JSON'
{
  "compilerOptions": {
    "target": "es2022",
    "module": "nodenext",
    "moduleResolution": "nodenext",
    "strict": true,
    "exactOptionalPropertyTypes": true,
    "noUncheckedIndexedAccess": true,
    "verbatimModuleSyntax": true,
    "types": ["node"],
    "skipLibCheck": true,
    "outDir": "out"
  },
  "files": ["graph.ts"]
}
JSON
cat > graph.ts <<'TS'
import { append, END, START, stateGraph, type CompiledGraph } from "typed-state-graph";
import { toMermaid } from "typed-state-graph/render";
import { buildReportGraph, type ReportState } from "typed-state-graph/examples";
import type { GraphMachine } from "typed-state-graph/xstate";
import type { ReducerLawName } from "typed-state-graph/testing";
import type { LangGraphGraph } from "typed-state-graph/langgraph";

interface Review { draft: string; approved: boolean; log: string[] }

const builder = stateGraph<Review>()({ reducers: { log: append } })
  .addNode("write", () => ({ draft: "hello", log: ["wrote"] }))
  .addNode("check", (s) => ({ approved: s.draft.length > 3, log: ["checked"] }))
  .addNode("publish", () => ({ log: ["published"] }))
  .addEdge(START, "write")
  .addEdge("write", "check")
  .addConditionalEdges("check", (s) => (s.approved ? "accept" : "revise"), { accept: "publish", revise: "write" })
  .addEdge("publish", END);

// @ts-expect-error - "publsh" is not a declared node: the compiler catches the typo
builder.addEdge("publsh", END);

export const graph: CompiledGraph<Review> = builder.compile();
const { state, trace } = await graph.invoke({ draft: "", approved: false, log: [] });
if (trace.join(" ") !== "write check publish" || state.log.length !== 3) throw new Error(`unexpected run: ${trace.join(" ")}`);
console.log(`  trace: ${trace.join(" -> ")}`);
console.log(`  diagram: ${toMermaid(graph).split("\n").length} lines`);

const report: CompiledGraph<ReportState> = buildReportGraph();
console.log(`  the report example: ${report.spec.nodes.length} nodes`);

export type Types = [GraphMachine<Review>, ReducerLawName, LangGraphGraph<Review>];
TS
"$app/node_modules/.bin/tsc" -p .
node out/graph.js

step "tsg on the user's own graph: the compiled module, and the TypeScript source without tsx"
npx --no-install tsg check ./out/graph.js#graph | sed 's/^/  /'
npx --no-install tsg paths ./out/graph.js#graph --via xstate | sed 's/^/  /'
set +e
refusal="$(npx --no-install tsg check ./graph.ts#graph 2>&1)"
status=$?
set -e
printf '  tsg check ./graph.ts#graph: exit %s: %s\n' "$status" "$(head -n 1 <<<"$refusal")"
[ "$status" = 2 ] && grep -q "npm install --save-dev tsx" <<<"$refusal"

step "the consumer smoke test passed"
