#!/usr/bin/env node
// Lists the public symbols (the exports of every entry point) that lack TSDoc: every export needs a
// doc comment, and every exported function and class an `@example`. Exits 1 when one is missing;
// `--report` prints the list and exits 0.
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
/** Every entry point of `exports`, as its source: ./dist/x/index.js → src/x/index.ts. */
const ENTRY_POINTS = Object.values(pkg.exports)
  .filter((target) => typeof target === "object")
  .map((target) => target.default.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts"));

const config = ts.getParsedCommandLineOfConfigFile(
  join(root, "tsconfig.build.json"),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
);
if (config === undefined) throw new Error("check-tsdoc: cannot read tsconfig.build.json");
const program = ts.createProgram(
  ENTRY_POINTS.map((entry) => join(root, entry)),
  config.options,
);
const checker = program.getTypeChecker();

const problems = [];
const seen = new Set();
for (const entry of ENTRY_POINTS) {
  const source = program.getSourceFile(join(root, entry));
  const module = source && checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error(`check-tsdoc: cannot read ${entry}`);
  for (const exported of checker.getExportsOfModule(module)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declaration = symbol.declarations?.[0];
    if (declaration === undefined || seen.has(symbol)) continue;
    seen.add(symbol);
    const where = `${relative(root, declaration.getSourceFile().fileName)}`;
    const hasDoc = symbol.getDocumentationComment(checker).length > 0;
    const hasExample = symbol.getJsDocTags(checker).some((tag) => tag.name === "example");
    const needsExample = (symbol.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Class)) !== 0;
    if (!hasDoc) problems.push(`${entry}: ${exported.name} (${where}) has no doc comment`);
    else if (needsExample && !hasExample) problems.push(`${entry}: ${exported.name} (${where}) has no @example`);
  }
}

for (const problem of problems) console.log(problem);
console.log(`check-tsdoc: ${seen.size} public symbols, ${problems.length} missing TSDoc or @example`);
process.exitCode = problems.length > 0 && !process.argv.includes("--report") ? 1 : 0;
