/**
 * Type-checks generated graphs with `tsc --extendedDiagnostics` and reads the figures back. Each graph
 * is checked in a temp project that imports the package's emitted declarations, so a check measures
 * the graph's own cost and not the package's sources.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A TypeScript compiler to measure. */
export interface Compiler {
  /** `TS 6.0.3`, `TS 7.0.2`. */
  readonly name: string;
  readonly tsc: string;
}

/** The two compilers of this repository: `typescript` (6) and `typescript7`. */
export function compilersOf(root: string): Compiler[] {
  return ["typescript", "typescript7"].map((dir) => {
    const { version } = JSON.parse(readFileSync(join(root, "node_modules", dir, "package.json"), "utf8")) as { version: string };
    return { name: `TS ${version}`, tsc: join(root, "node_modules", dir, "bin", "tsc") };
  });
}

/** A temp project that generated graphs are written into. */
export interface Project {
  readonly dir: string;
  readonly remove: () => void;
}

/**
 * Creates the temp project: the package's declarations emitted into `lib/` (with `emitter`, from
 * `root`'s tsconfig.build.json), `node_modules` linked to `root`'s so they resolve their imports.
 */
export function createProject(root: string, emitter: Compiler): Project {
  const dir = mkdtempSync(join(tmpdir(), "tsg-bench-types-"));
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  const emit = spawnSync(
    process.execPath,
    [
      emitter.tsc,
      "-p",
      join(root, "tsconfig.build.json"),
      "--outDir",
      join(dir, "lib"),
      "--emitDeclarationOnly",
      "--declarationMap",
      "false",
      "--sourceMap",
      "false",
    ],
    { encoding: "utf8", maxBuffer: 64 * 2 ** 20 },
  );
  if (!existsSync(join(dir, "lib", "index.d.ts"))) {
    remove();
    throw new Error(
      `createProject: ${emitter.name} emitted no declarations for the package (exit ${emit.status}):\n${emit.stdout}${emit.stderr}`,
    );
  }
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  return { dir, remove };
}

/** What one check reports. */
export interface CheckFigures {
  /** Seconds (tsc's own figure). */
  readonly checkTime: number;
  readonly totalTime: number;
  readonly instantiations: number;
  /** Kilobytes. */
  readonly memory: number;
  /** Each error, on one line with its elaboration, with its code. */
  readonly errors: readonly string[];
}

/** Writes `source` as `<name>.ts` with its own tsconfig and checks it with `compiler`. */
export function checkSource(project: Project, compiler: Compiler, name: string, source: string): CheckFigures {
  const file = `${name}.ts`;
  const config = `tsconfig.${name}.json`;
  writeFileSync(join(project.dir, file), source);
  writeFileSync(
    join(project.dir, config),
    JSON.stringify({
      compilerOptions: {
        target: "es2022",
        lib: ["es2023"],
        module: "nodenext",
        moduleResolution: "nodenext",
        types: ["node"],
        strict: true,
        skipLibCheck: true,
        noEmit: true,
      },
      files: [file],
    }),
  );
  const run = spawnSync(process.execPath, [compiler.tsc, "-p", config, "--extendedDiagnostics", "--pretty", "false"], {
    cwd: project.dir,
    encoding: "utf8",
    maxBuffer: 256 * 2 ** 20,
  });
  const output = `${run.stdout}${run.stderr}`;
  const figure = (label: string): number => {
    const match = new RegExp(`^${label}:\\s+([\\d.]+)`, "m").exec(output);
    if (match === null)
      throw new Error(`checkSource: ${compiler.name} printed no "${label}" for ${file} (exit ${run.status}):\n${output.slice(0, 2000)}`);
    return Number(match[1]);
  };
  return {
    checkTime: figure("Check time"),
    totalTime: figure("Total time"),
    instantiations: figure("Instantiations"),
    memory: figure("Memory used"),
    errors: errorsOf(output),
  };
}

/** Each error with its indented elaboration (where the builder's messages sit), on one line. */
function errorsOf(output: string): string[] {
  const errors: string[] = [];
  // Messages inside types print their quotes escaped: node \"orphan\".
  for (const line of output.replaceAll('\\"', '"').split("\n")) {
    if (/ error TS\d+:/.test(line)) errors.push(line.trim());
    else if (/^\s/.test(line) && errors.length > 0 && line.trim() !== "") errors[errors.length - 1] += ` ${line.trim()}`;
  }
  return errors;
}
