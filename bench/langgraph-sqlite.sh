#!/usr/bin/env bash
# The second peer on SQLite (issue 40): LangGraph.js on its own SQLite saver,
# @langchain/langgraph-checkpoint-sqlite. It needs better-sqlite3 ^12, which compiles from source where no
# prebuilt binary downloads (about 5 minutes on 2 cores, longer under load), so it is never a dependency of
# this package (npm ci keeps 0 native builds: bench/install.sh): this script installs it into a directory of
# its own, once, with the versions of @langchain/langgraph and @langchain/core that package.json pins, then
# runs the SQLite overhead bench with the peer's rows (TSG_LANGGRAPH_SQLITE points the bench at it).
# usage: bash bench/langgraph-sqlite.sh [--rounds=N] [--runs=N]
#        TSG_LANGGRAPH_SQLITE=DIR to install into (or reuse) DIR; default ${TMPDIR:-/tmp}/tsg-langgraph-sqlite
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
peer="${TSG_LANGGRAPH_SQLITE:-${TMPDIR:-/tmp}/tsg-langgraph-sqlite}"
version() { node -p "require('$root/package.json').devDependencies['$1']"; }
saver="@langchain/langgraph-checkpoint-sqlite@1.0.4"
if ! [ -f "$peer/node_modules/@langchain/langgraph-checkpoint-sqlite/package.json" ]; then
  mkdir -p "$peer"
  # allowScripts: better-sqlite3's install script is what compiles it.
  printf '{ "name": "tsg-langgraph-sqlite", "private": true, "type": "module", "allowScripts": { "better-sqlite3": true } }\n' >"$peer/package.json"
  echo "installing $saver into $peer (better-sqlite3 compiles: minutes)" >&2
  (cd "$peer" && npm install --no-audit --no-fund --loglevel=error \
    "@langchain/langgraph@$(version @langchain/langgraph)" "@langchain/core@$(version @langchain/core)" "$saver")
fi
cd "$root"
npx tsc -p bench/tsconfig.json
TSG_LANGGRAPH_SQLITE="$peer" node bench/dist/bench/sqlite-overhead.js "$@"
