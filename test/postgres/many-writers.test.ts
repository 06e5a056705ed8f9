/**
 * Many writers on one thread, as separate processes: each round, four processes read the same latest
 * checkpoint and then save a child of it at the same moment. Exactly one commits; the others get
 * CheckpointConflictError naming the winner, and store nothing.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface, type Interface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresCheckpointer } from "../../src/postgres/index.js";
import { freshSchemaName, postgresUrl } from "../helpers/postgres.js";
import { checkpoint } from "../persistence/contract.js";

const WRITERS = 4;
const ROUNDS = 8;
const FIXTURE = join(import.meta.dirname, "fixtures/race-writer.ts");

interface Writer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: Interface;
  stderr: string;
}

/** The writer's next line on stdout. */
function nextLine(writer: Writer): Promise<string> {
  return new Promise((resolve, reject) => {
    const onLine = (line: string) => {
      writer.child.off("exit", onExit);
      resolve(line);
    };
    const onExit = (code: number | null) => {
      writer.lines.off("line", onLine);
      reject(new Error(`a writer exited with ${code}: ${writer.stderr}`));
    };
    writer.lines.once("line", onLine);
    writer.child.once("exit", onExit);
  });
}

const schema = freshSchemaName("writers");
let checkpointer: PostgresCheckpointer;
let writers: Writer[] = [];

beforeAll(async () => {
  checkpointer = await PostgresCheckpointer.connect(postgresUrl(), { schema });
  writers = Array.from({ length: WRITERS }, () => {
    const child = spawn(process.execPath, ["--import", "tsx", FIXTURE, postgresUrl(), schema, "t1"], { stdio: ["pipe", "pipe", "pipe"] });
    const writer: Writer = { child, lines: createInterface({ input: child.stdout }), stderr: "" };
    child.stderr.on("data", (chunk: Buffer) => (writer.stderr += chunk.toString()));
    return writer;
  });
}, 60_000);

afterAll(async () => {
  for (const writer of writers) writer.child.stdin.end();
  await Promise.all(writers.map((w) => (w.child.exitCode === null ? new Promise((resolve) => w.child.once("exit", resolve)) : undefined)));
  await checkpointer?.close();
});

describe("writers in separate processes racing on one thread", () => {
  it(`commit exactly one checkpoint per round (${WRITERS} processes, ${ROUNDS} rounds); the others conflict`, async () => {
    const first = checkpoint({ threadId: "t1" });
    await checkpointer.save(first, null);
    let latest = first.id;
    for (let round = 0; round < ROUNDS; round++) {
      const ready = writers.map(nextLine);
      for (const writer of writers) writer.child.stdin.write("read\n");
      expect(await Promise.all(ready)).toEqual(writers.map(() => `ready ${latest}`));
      const outcomes = writers.map(nextLine);
      for (const writer of writers) writer.child.stdin.write("go\n");
      const results = (await Promise.all(outcomes)).map((line) => line.split(" ") as [string, string]);
      const committed = results.filter(([outcome]) => outcome === "committed");
      expect(committed).toHaveLength(1);
      const winner = committed[0]?.[1] ?? "";
      expect(results.filter(([outcome]) => outcome === "conflict")).toEqual(
        Array.from({ length: WRITERS - 1 }, () => ["conflict", winner]),
      );
      expect((await checkpointer.latest("t1"))?.id).toBe(winner);
      latest = winner;
    }
    const history = await checkpointer.list("t1");
    expect(history).toHaveLength(ROUNDS + 1);
    // One chain, each checkpoint the child of the one before: no round has two children.
    expect(history.map((c) => c.parentId)).toEqual([...history.slice(1).map((c) => c.id), null]);
  }, 60_000);
});
