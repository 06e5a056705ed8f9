#!/usr/bin/env bash
# The install figures of docs/benchmarks.md, each with an empty npm cache (nothing served from a
# previous download, no npx cache), as wall seconds and CPU seconds (user + sys, which a loaded machine
# stretches less than wall time):
#   clone:    in a fresh clone of HEAD, `npm ci`, then `npx tsg report` (the README's first command);
#   consumer: in a fresh project, `npm install <packed tarball> libsql`, then `npx tsg report --thread t`.
# It also counts the native modules `npm ci` compiled from source (build/Release/*.node): 0 is the target.
# usage: bash bench/install.sh [runs]   (default 3; needs the npm registry)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-3}"
work="$(mktemp -d "${TMPDIR:-/tmp}/tsg-install-XXXXXX")"
trap 'rm -rf "$work"' EXIT
quiet=(--no-audit --no-fund --loglevel=error)
# Runs a command, output discarded, and prints "wall cpu" in seconds.
timed() { /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }; awk '{ printf "%.1fs (cpu %.1fs)", $1, $2 + $3 }' "$work/time"; }

for run in $(seq "$runs"); do
  export npm_config_cache="$work/cache-$run"
  clone="$work/clone-$run"
  git clone -q --no-local "$root" "$clone"
  cd "$clone"
  ci="$(timed npm ci "${quiet[@]}")"
  report="$(timed npx --no-install tsg report)"
  native="$(find node_modules -path '*/build/Release/*.node' | wc -l)"
  tarball="$work/$(npm pack --silent --pack-destination "$work" 2>/dev/null | tail -1)"

  export npm_config_cache="$work/cache-consumer-$run"
  app="$work/app-$run"
  mkdir "$app"
  cd "$app"
  printf '{ "name": "tsg-consumer", "version": "1.0.0", "private": true, "type": "module" }\n' >package.json
  install="$(timed npm install "${quiet[@]}" "$tarball" libsql)"
  thread="$(timed npx --no-install tsg report --thread t)"
  test -f tsg.sqlite
  echo "run $run: clone: npm ci $ci, then npx tsg report $report; native modules compiled: $native | consumer: npm install $install, then npx tsg report --thread t $thread"
  cd "$work"
  rm -rf "$clone" "$app" "$work"/cache-* "$tarball"
done
