#!/usr/bin/env node
// Counts an entry point's exports with the TypeScript API: values (anything with a run-time value: classes,
// functions, constants), types (interfaces and type aliases only), and the @deprecated ones.
// Usage: node scripts/count-exports.mjs [file.d.ts ...]   (default: dist/index.d.ts; run `npm run build` first)
import ts from "typescript";

const files = process.argv.slice(2);
if (files.length === 0) files.push("dist/index.d.ts");
const program = ts.createProgram(files, {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  skipLibCheck: true,
});
const checker = program.getTypeChecker();
for (const file of files) {
  const source = program.getSourceFile(file);
  if (source === undefined) throw new Error(`count-exports: cannot read ${file}`);
  const module = checker.getSymbolAtLocation(source);
  const values = [];
  const types = [];
  const deprecated = [];
  for (const symbol of module === undefined ? [] : checker.getExportsOfModule(module)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    (target.flags & ts.SymbolFlags.Value ? values : types).push(symbol.name);
    const tags = [symbol, target].flatMap((s) => s.getJsDocTags(checker));
    if (tags.some((tag) => tag.name === "deprecated")) deprecated.push(symbol.name);
  }
  console.log(`${file}: ${values.length} values, ${types.length} types, ${deprecated.length} @deprecated`);
  if (process.env.LIST) console.log(`  values: ${values.sort().join(" ")}\n  types: ${types.sort().join(" ")}`);
}
