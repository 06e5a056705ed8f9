/**
 * The inspector's server over real HTTP on 127.0.0.1: the routes, live runs as server-sent events,
 * resume/fork/edit with tsg resume's rules, the write guard, the Host and Origin checks, and bad input
 * (an unknown thread, a corrupted database, a module without a graph) as a message, never a stack.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { inspectTarget } from "../../src/cli/inspect-targets.js";
import { runCli } from "../../src/cli/run-cli.js";
import { startInspector, type Inspector, type InspectorOptions } from "../../src/inspect/server.js";
import { SqliteCheckpointer, sqliteDriver } from "../../src/persistence/index.js";
import { call, runEvents } from "./_client.js";

let dir = "";
let open: Inspector[] = [];
let logged: string[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "tsg-inspect-"));
  logged = [];
});
afterEach(async () => {
  for (const inspector of open) await inspector.close();
  open = [];
  rmSync(dir, { recursive: true, force: true });
});

async function serve(graph = "report", options: Omit<InspectorOptions, "target"> = {}): Promise<Inspector> {
  const inspector = await startInspector({ target: await inspectTarget(graph), log: (line) => logged.push(line), ...options });
  open.push(inspector);
  return inspector;
}

const quiet = { stdout: { write: () => true }, stderr: { write: () => true } };

/** A database with thread brief-1 paused before publish by `tsg report`, as a person leaves it. */
async function pausedThreadDb(): Promise<string> {
  const db = join(dir, "runs.sqlite");
  expect(await runCli(["report", "--thread", "brief-1", "--db", db, "--interrupt-before", "publish"], quiet)).toBe(3);
  return db;
}

async function checkpointsIn(db: string, threadId: string): Promise<number> {
  const store = new SqliteCheckpointer(db, { readOnly: true });
  try {
    return (await store.list(threadId)).length;
  } finally {
    store.close();
  }
}

describe("the page and its assets", () => {
  it("serves the page and its script and style from the package, with a same-origin-only policy", async () => {
    const { port } = await serve();
    const page = await call(port, "GET", "/");
    expect([page.status, page.type]).toEqual([200, "text/html; charset=utf-8"]);
    expect(page.text).toContain('<script type="module" src="/assets/app.js"></script>');
    expect(page.text).not.toMatch(/https?:\/\//);
    for (const asset of ["app.js", "form.js", "style.css"]) expect((await call(port, "GET", `/assets/${asset}`)).status).toBe(200);
    expect((await call(port, "GET", "/assets/secret.txt")).json).toEqual({ error: "inspect: no asset secret.txt.", code: "NOT_FOUND" });
  });

  it("answers an unknown route with 404 and a message", async () => {
    const { port } = await serve();
    expect(await call(port, "GET", "/api/nope")).toMatchObject({
      status: 404,
      json: { error: "inspect: no route GET /api/nope.", code: "NOT_FOUND" },
    });
  });

  it("/api/info: the graph's spec and SVG, whether it runs, the database and the listed threads", async () => {
    const db = await pausedThreadDb();
    const { port } = await serve("report", { db, threads: ["brief-1"] });
    const { json } = await call(port, "GET", "/api/info");
    expect(json).toMatchObject({
      graph: {
        label: "report",
        canRun: true,
        interruptChoices: ["collect", "write_draft", "check_draft", "revise_draft", "publish", "hold"],
      },
      store: { label: db, writable: false },
      threads: ["brief-1"],
    });
    expect(String((json["graph"] as { svg: string }).svg)).toMatch(/^<svg /);
  });

  it("/api/info: the input's JSON Schema the page builds its form from (the report's request; a module's state schema; none without one)", async () => {
    const report = (await call((await serve()).port, "GET", "/api/info")).json["graph"] as { inputSchema: { properties: object } };
    expect(Object.keys(report.inputSchema.properties)).toEqual(["cities", "includeFahrenheit", "language"]);
    expect(report.inputSchema.properties).toMatchObject({
      language: { type: "string", enum: ["en", "zh-CN"] },
      includeFahrenheit: { type: "boolean" },
    });
    const schema = (await call((await serve("./test/cli/fixtures/schema-graph.ts#ticket")).port, "GET", "/api/info")).json["graph"];
    expect(schema).toMatchObject({
      inputSchema: { type: "object", properties: { amount: { type: "number" }, resolved: { type: "boolean" } } },
    });
    const plain = (await call((await serve("./test/cli/fixtures/graphs.mjs#triage")).port, "GET", "/api/info")).json["graph"];
    expect(plain).toMatchObject({ inputSchema: null });
  });
});

describe("closing", () => {
  it("close() returns while a browser holds a preconnected socket that never sent a request", async () => {
    const inspector = await startInspector({ target: await inspectTarget("report") });
    const socket = connect(inspector.port, "127.0.0.1");
    await new Promise<void>((done) => socket.once("connect", () => done()));
    const ended = new Promise<void>((done) => socket.once("close", () => done()));
    await inspector.close();
    await ended;
  });
});

describe("the Host and Origin checks", () => {
  it("refuses another Host with 403 before any route runs, and logs it", async () => {
    const { port } = await serve();
    const reply = await call(port, "GET", "/api/info", { host: `rebound.example:${port}` });
    expect([reply.status, reply.json["code"]]).toEqual([403, "FORBIDDEN_HOST"]);
    expect(logged).toEqual([
      `inspect: refused the Host "rebound.example:${port}": tsg inspect answers only http://127.0.0.1:${port} and http://localhost:${port}.`,
    ]);
    expect((await call(port, "GET", "/api/info", { host: `localhost:${port}` })).status).toBe(200);
  });

  it("refuses a write from another origin, and a body that is not JSON (what a cross-site form sends)", async () => {
    const { port } = await serve();
    expect((await call(port, "POST", "/api/runs", { body: {}, origin: "https://evil.example" })).json["code"]).toBe("FORBIDDEN_ORIGIN");
    expect((await call(port, "POST", "/api/runs", { body: "input=1", type: "application/x-www-form-urlencoded" })).status).toBe(415);
    expect((await call(port, "POST", "/api/runs", { body: "{not json" })).json).toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("live runs (server-sent events)", () => {
  it("streams each step with its update and the merged state, then pauses before publish on a thread", async () => {
    const { port } = await serve();
    const started = await call(port, "POST", "/api/runs", { body: { interruptBefore: ["publish"] } });
    expect(started.status).toBe(201);
    const events = await runEvents(port, started.json["events"]);
    expect(events.map((e) => e.node ?? e.type)).toEqual(["collect", "write_draft", "check_draft", "revise_draft", "check_draft", "end"]);
    expect(events[3]).toMatchObject({ type: "step", node: "revise_draft", state: { revisions: 1 } });
    const end = events.at(-1);
    expect(end).toMatchObject({ type: "end", status: "paused", next: ["publish"], threadId: started.json["threadId"] });
  });

  it("replays the whole run to a subscriber that comes late, and runs without a pause to END", async () => {
    const { port } = await serve();
    const started = await call(port, "POST", "/api/runs", { body: { interruptBefore: [] } });
    const first = await runEvents(port, started.json["events"]);
    const again = await runEvents(port, started.json["events"]);
    expect(again).toEqual(first);
    expect(first.at(-1)).toMatchObject({ status: "done", next: [], state: { status: "completed" } });
  });

  it("refuses a bad request with its message: an unknown node to pause at, a bad report request", async () => {
    const { port } = await serve();
    expect((await call(port, "POST", "/api/runs", { body: { interruptBefore: ["nap"] } })).json["error"]).toBe(
      "inspect: the report has no node nap; pause before one of collect, write_draft, check_draft, revise_draft, publish, hold.",
    );
    const bad = await call(port, "POST", "/api/runs", { body: { input: { cities: ["Atlantis"] } } });
    expect([bad.status, bad.json["error"]]).toEqual([400, expect.stringContaining("initialReportState")]);
    expect((await call(port, "GET", "/api/runs/run-99/events")).status).toBe(404);
  });

  it("runs a graph with supersteps (research: fan-out, join) to END", async () => {
    const { port } = await serve("research");
    const started = await call(port, "POST", "/api/runs", { body: { input: { topic: "graphs" } } });
    const events = await runEvents(port, started.json["events"]);
    expect(events.map((e) => e.node ?? e.status)).toEqual(["plan", "web", "papers", "internal", "synthesize", "done"]);
    const blank = await call(port, "POST", "/api/runs", { body: { input: { topic: " " } } });
    expect(blank.json["error"]).toBe("inspect: the research input is { topic: TEXT }.");
  });

  it("streams what a node writes with context.writer, and a node's failure as a failed event", async () => {
    const { port } = await serve("./test/inspect/fixtures/writer.mjs#progress");
    const ok = await call(port, "POST", "/api/runs", { body: { input: { items: 3 } } });
    expect((await runEvents(port, ok.json["events"])).map((e) => [e.type, e.node ?? e.status])).toEqual([
      ["custom", "fetch"],
      ["step", "fetch"],
      ["end", "done"],
    ]);
    const failing = await call(port, "POST", "/api/runs", { body: { input: { items: -1 } } });
    const events = await runEvents(port, failing.json["events"]);
    expect(events.at(-1)).toMatchObject({
      type: "failed",
      code: "NODE_FAILED",
      message: expect.stringContaining("items must not be negative"),
    });
    expect(logged.at(-1)).toMatch(/^inspect: the run on thread live-\S+ failed: /);
    expect((await call(port, "POST", "/api/runs", { body: { input: [1] } })).json["error"]).toBe(
      "inspect: the input must be a JSON object: the graph's initial state.",
    );
  });
});

describe("thread history", () => {
  it("lists a thread's checkpoints newest first, and a checkpoint with its diff against its parent", async () => {
    const db = await pausedThreadDb();
    const { port } = await serve("report", { db });
    const history = await call(port, "GET", "/api/threads/brief-1");
    expect(history.json).toMatchObject({ threadId: "brief-1", paused: ["publish"], writable: false });
    const checkpoints = history.json["checkpoints"] as { id: string; step: number; writes: string[] }[];
    expect(checkpoints.map((c) => c.step)).toEqual([5, 4, 3, 2, 1, 0]);
    const revised = checkpoints.find((c) => c.writes.includes("revise_draft"));
    const detail = await call(port, "GET", `/api/threads/brief-1/checkpoints/${revised?.id}`);
    expect(detail.json).toMatchObject({ step: 4, next: ["check_draft"], paused: [] });
    const diff = detail.json["diff"] as { path: string; kind: string }[];
    expect(diff).toContainEqual(expect.objectContaining({ path: "draft.notice", kind: "changed" }));
    expect(diff).toContainEqual(expect.objectContaining({ path: "revisions", kind: "changed", before: 0, after: 1 }));
  });

  it("an unknown thread or checkpoint is a 404 that says what to check", async () => {
    const db = await pausedThreadDb();
    const { port } = await serve("report", { db });
    const unknown = await call(port, "GET", "/api/threads/brief-9");
    expect([unknown.status, unknown.json["error"]]).toEqual([
      404,
      `inspect: thread "brief-9" has no checkpoint in ${db}; check the thread id (tsg history --thread T --db FILE lists one).`,
    ]);
    expect((await call(port, "GET", "/api/threads/brief-1/checkpoints/nope")).json["error"]).toBe(
      'inspect: thread "brief-1" has no checkpoint "nope".',
    );
    expect((await call(port, "GET", "/api/threads/brief-9/checkpoints/nope")).status).toBe(404);
  });
});

describe("resume, fork and edit: tsg resume's rules", () => {
  it("a paused thread needs approve: continue is refused, approve publishes", async () => {
    const db = await pausedThreadDb();
    const { port } = await serve("report", { db, allowWrites: true });
    const refused = await call(port, "POST", "/api/threads/brief-1/resume", { body: { action: "continue" } });
    expect([refused.status, refused.json["error"]]).toEqual([
      400,
      'inspect: thread "brief-1" is paused before publish: approve it, or edit it.',
    ]);
    const approved = await call(port, "POST", "/api/threads/brief-1/resume", { body: { action: "approve" } });
    const events = await runEvents(port, approved.json["events"]);
    expect(events.map((e) => e.node ?? e.status)).toEqual(["publish", "done"]);
    expect(await checkpointsIn(db, "brief-1")).toBe(7);
    // The thread reached END: nothing left to resume from its latest checkpoint.
    expect((await call(port, "POST", "/api/threads/brief-1/resume", { body: { action: "continue" } })).json["error"]).toMatch(
      /reached END: there is nothing to resume/,
    );
  });

  it("an edit replaces the notice and goes back through check_draft, as tsg resume --edit-notice does", async () => {
    const db = await pausedThreadDb();
    const { port } = await serve("report", { db, allowWrites: true });
    // A wrong notice, and the one revision already spent: check_draft holds the brief.
    const edited = await call(port, "POST", "/api/threads/brief-1/resume", { body: { action: "edit", edit: { notice: "Made up." } } });
    const events = await runEvents(port, edited.json["events"]);
    expect(events.map((e) => e.node ?? e.status)).toEqual(["check_draft", "hold", "done"]);
    expect(events.at(-1)?.state).toMatchObject({ status: "needs_attention", draft: { notice: "Made up." } });
    const bad = await call(port, "POST", "/api/threads/brief-1/resume", { body: { action: "edit", edit: { notes: "x" } } });
    expect(bad.json["error"]).toBe("inspect: an edit of a report thread is { notice: TEXT }: the draft's new notice.");
  });

  it("resuming from an older checkpoint forks the thread (time travel); tsg history sees the branch", async () => {
    const db = await pausedThreadDb();
    const { port } = await serve("report", { db, allowWrites: true });
    const history = (await call(port, "GET", "/api/threads/brief-1")).json["checkpoints"] as { id: string; step: number }[];
    const step2 = history.find((c) => c.step === 2);
    const forked = await call(port, "POST", "/api/threads/brief-1/resume", { body: { action: "continue", checkpointId: step2?.id } });
    const events = await runEvents(port, forked.json["events"]);
    expect(events.map((e) => e.node ?? e.status)).toEqual(["check_draft", "revise_draft", "check_draft", "paused"]);
    const after = (await call(port, "GET", "/api/threads/brief-1")).json["checkpoints"] as { parentId: string | null; step: number }[];
    expect(after).toHaveLength(9);
    expect(after.filter((c) => c.parentId === step2?.id)).toHaveLength(2);
  });

  it("your own graph: an edit is an updateState { update, asNode } from the checkpoint picked, then the thread runs on", async () => {
    const { port } = await serve("./test/cli/fixtures/graphs.mjs#triage");
    const started = await call(port, "POST", "/api/runs", { body: { input: { urgent: true } } });
    await runEvents(port, started.json["events"]);
    const threadId = String(started.json["threadId"]);
    const history = (await call(port, "GET", `/api/threads/${threadId}`)).json["checkpoints"] as { id: string; writes: string[] }[];
    const classified = history.find((c) => c.writes.includes("classify"));
    const edited = await call(port, "POST", `/api/threads/${threadId}/resume`, {
      body: { action: "edit", checkpointId: classified?.id, edit: { update: { urgent: false }, asNode: "classify" } },
    });
    const events = await runEvents(port, edited.json["events"]);
    expect(events.map((e) => e.node ?? e.status)).toEqual(["reply", "done"]);
    expect(events.at(-1)?.state).toEqual({ urgent: false });
    const bad = await call(port, "POST", `/api/threads/${threadId}/resume`, { body: { action: "edit", edit: { update: 3 } } });
    expect(bad.json["error"]).toBe("inspect: an edit is { update: { field: value, … }, asNode?: NODE }: the fields to change.");
  });

  it("a thread tsg report did not start is refused with the reason; a bad action is named", async () => {
    const db = join(dir, "shared.sqlite");
    const triage = await serve("./test/cli/fixtures/graphs.mjs#triage", { db });
    const started = await call(triage.port, "POST", "/api/runs", { body: { input: { urgent: true } } });
    expect((await runEvents(triage.port, started.json["events"])).map((e) => e.node ?? e.status)).toEqual(["classify", "escalate", "done"]);
    const { port } = await serve("report", { db, allowWrites: true });
    const threadId = String(started.json["threadId"]);
    const refused = await call(port, "POST", `/api/threads/${threadId}/resume`, { body: { action: "edit", edit: { notice: "x" } } });
    expect([refused.status, refused.json["error"]]).toEqual([
      400,
      `inspect: thread "${threadId}" was not started by tsg report; continue it from the program that started it.`,
    ]);
    const bad = await call(port, "POST", `/api/threads/${threadId}/resume`, { body: { action: "walk" } });
    expect(bad.json["error"]).toBe('inspect: action must be "approve", "continue" or "edit"; got "walk".');
  });
});

describe("the write guard", () => {
  it("a database the inspector did not create is read-only: resume is refused and nothing is written", async () => {
    const db = await pausedThreadDb();
    const before = readFileSync(db);
    const { port } = await serve("report", { db });
    const reply = await call(port, "POST", "/api/threads/brief-1/resume", { body: { action: "approve" } });
    expect([reply.status, reply.json["code"], reply.json["error"]]).toEqual([
      403,
      "WRITES_DISABLED",
      `inspect: ${db} is open read-only (tsg inspect did not create it): restart with --allow-writes to resume, fork or edit its threads.`,
    ]);
    // A live run on a read-only database runs in memory: the page still works, the file is untouched.
    const started = await call(port, "POST", "/api/runs", { body: {} });
    expect((await runEvents(port, started.json["events"])).at(-1)).toMatchObject({ status: "paused" });
    expect((await call(port, "GET", `/api/threads/${started.json["threadId"]}`)).json).toMatchObject({ writable: true });
    expect(readFileSync(db).equals(before)).toBe(true);
    expect(await checkpointsIn(db, String(started.json["threadId"]))).toBe(0);
  });

  it("a database the inspector creates is its own: live runs are saved to it", async () => {
    const db = join(dir, "fresh.sqlite");
    const inspector = await serve("report", { db });
    expect(inspector.store.writable).toBe(true);
    const started = await call(inspector.port, "POST", "/api/runs", { body: {} });
    await runEvents(inspector.port, started.json["events"]);
    expect(existsSync(db)).toBe(true);
    expect(await checkpointsIn(db, String(started.json["threadId"]))).toBe(6);
  });
});

describe("bad input: a message in the page and on the console", () => {
  it("a file that is not a database: the page's info says so, and thread routes answer 422", async () => {
    const db = join(dir, "notes.sqlite");
    writeFileSync(db, "not a database\n".repeat(300));
    const { port } = await serve("report", { db });
    const info = (await call(port, "GET", "/api/info")).json;
    expect((info["store"] as { problem: string }).problem).toMatch(
      new RegExp(`^--db ${db.replaceAll("/", "\\/")}: .*not an SQLite database`),
    );
    const reply = await call(port, "GET", "/api/threads/brief-1");
    expect([reply.status, reply.json["code"]]).toEqual([422, "STORE_FAILED"]);
  });

  it("a corrupted checkpoint: 422 with the store's message naming the thread", async () => {
    const db = await pausedThreadDb();
    const raw = sqliteDriver("libsql").open(db, { mode: "readwrite", busyTimeoutMs: 1000 });
    raw.prepare<[], unknown>("UPDATE tsg_checkpoints SET body = substr(body, 1, 40) WHERE step = 5").run();
    raw.close();
    const { port } = await serve("report", { db });
    const reply = await call(port, "GET", "/api/threads/brief-1");
    expect(reply.status).toBe(422);
    expect(reply.json["error"]).toMatch(new RegExp(`^inspect: --db ${db.replaceAll("/", "\\/")}: .*thread "brief-1"`));
    expect(logged.at(-1)).toBe(reply.json["error"]);
  });

  it("a module that does not export a graph: the info carries the problem, runs and coverage answer 409", async () => {
    const { port } = await serve("./test/cli/fixtures/graphs.mjs#nothing");
    const info = (await call(port, "GET", "/api/info")).json;
    expect((info["graph"] as { problem: string }).problem).toMatch(
      /^the module \.\/test\/cli\/fixtures\/graphs\.mjs has no export "nothing"; it exports /,
    );
    expect((await call(port, "POST", "/api/runs", { body: {} })).status).toBe(409);
    expect((await call(port, "GET", "/api/coverage")).status).toBe(409);
    expect((await call(port, "GET", "/")).status).toBe(200);
  });
});

describe("coverage", () => {
  it("reports the transitions the listed threads took and never took, as the SVG's link indices", async () => {
    const { port } = await serve();
    expect((await call(port, "GET", "/api/coverage")).json).toMatchObject({ covered: 0, runs: 0 });
    const started = await call(port, "POST", "/api/runs", { body: { interruptBefore: [] } });
    await runEvents(port, started.json["events"]);
    const coverage = (await call(port, "GET", "/api/coverage")).json;
    expect(coverage).toMatchObject({ covered: 7, total: 9, runs: 1, missing: ["check_draft [hold] → hold", "hold → END"] });
    const svg = String(((await call(port, "GET", "/api/info")).json["graph"] as { svg: string }).svg);
    for (const index of coverage["missedLinks"] as number[])
      expect(svg).toMatch(new RegExp(`data-link="${index}" data-from="[^"]+" data-to="(hold|__end__)"`));
  });
});
