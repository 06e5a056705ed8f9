#!/bin/sh
# Compiles another commit's src/ into bench/dist/baseline-<ref>/, the `--baseline=DIR` that
# bench/paired-chain.js and bench/profile-chain.js compare this build with (placed under bench/ so that
# its packages resolve from this checkout's node_modules). Type errors of the old tree are printed, not fatal.
#
#   sh bench/make-baseline.sh 07b24ae   # then: node bench/dist/bench/paired-chain.js --baseline=bench/dist/baseline-07b24ae
set -eu
ref=${1:?usage: sh bench/make-baseline.sh <commit>}
root=$(git rev-parse --show-toplevel)
out="$root/bench/dist/baseline-$ref"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$root" archive "$ref" src tsconfig.json package.json | tar -x -C "$tmp"
ln -s "$root/node_modules" "$tmp/node_modules"
rm -rf "$out"
(cd "$tmp" && "$root/node_modules/.bin/tsc" -p tsconfig.json --noEmit false --rootDir src --outDir "$out" --declaration false --sourceMap false) || true
test -f "$out/index.js"
echo "$out"
