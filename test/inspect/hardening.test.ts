/**
 * The inspector under hostile or unlucky clients, over real HTTP on 127.0.0.1: no page may frame it
 * (checked on a real `tsg inspect`), a request whose headers or body never arrive is answered 408 and
 * closed, an oversized body is refused, a path cannot leave the assets, and the runs started from the
 * page are kept up to a bound.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { inspectTarget } from "../../src/cli/inspect-targets.js";
import { MAX_BODY_BYTES } from "../../src/inspect/http.js";
import { KEPT_FINISHED_RUNS, startInspector, type Inspector, type InspectorOptions } from "../../src/inspect/server.js";
import { assertBuilt, startTsgInspect, type RunningInspect } from "../cli/_child.js";
import { call, runEvents } from "./_client.js";

let open: Inspector[] = [];
let logged: string[] = [];
let dir = "";
beforeEach(() => {
  logged = [];
  dir = mkdtempSync(join(tmpdir(), "tsg-inspect-hardening-"));
});
afterEach(async () => {
  for (const inspector of open) await inspector.close();
  open = [];
  rmSync(dir, { recursive: true, force: true });
});

async function serve(options: Omit<InspectorOptions, "target"> = {}): Promise<Inspector> {
  const inspector = await startInspector({ target: await inspectTarget("report"), log: (line) => logged.push(line), ...options });
  open.push(inspector);
  return inspector;
}

/** Sends `raw` on a socket and resolves with everything the server sent before it closed the connection. */
function rawExchange(port: number, raw: string): Promise<{ reply: string; ms: number }> {
  return new Promise((done, fail) => {
    const started = Date.now();
    const socket = connect(port, "127.0.0.1", () => socket.write(raw));
    let reply = "";
    socket.setEncoding("utf8").on("data", (text: string) => (reply += text));
    socket.on("error", fail);
    socket.on("close", () => done({ reply, ms: Date.now() - started }));
  });
}

describe("framing: no other page may frame the inspector (clickjacking on Approve and resume)", () => {
  let inspect: RunningInspect | undefined;
  const port = (): number => {
    if (inspect === undefined) throw new Error("tsg inspect did not start");
    return inspect.port;
  };
  beforeAll(async () => {
    assertBuilt();
    inspect = await startTsgInspect(["report", "--allow-writes"]);
  });
  afterAll(async () => {
    if (inspect !== undefined) expect(await inspect.stop()).toBe(0);
  });

  it("tsg inspect sends X-Frame-Options: DENY and frame-ancestors 'none' with the page", async () => {
    const page = await call(port(), "GET", "/");
    expect(page.status).toBe(200);
    expect(page.headers["x-frame-options"]).toBe("DENY");
    expect(page.headers["content-security-policy"]).toBe(
      "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
    );
  });

  it.each([
    ["GET", "/assets/app.js", 200],
    ["GET", "/api/info", 200],
    ["GET", "/api/nope", 404],
    ["GET", "/assets/..%2f..%2fpackage.json", 404],
    ["POST", "/api/runs", 201],
  ])("and with every other response: %s %s (%i)", async (method, path, status) => {
    const reply = await call(port(), method, path, method === "POST" ? { body: { interruptBefore: [] } } : {});
    expect(reply.status).toBe(status);
    expect(reply.headers["x-frame-options"]).toBe("DENY");
    expect(reply.headers["x-content-type-options"]).toBe("nosniff");
    expect(String(reply.headers["content-security-policy"])).toContain("frame-ancestors 'none'");
  });

  it("and with a refused Host, and the event stream", async () => {
    const refused = await call(port(), "GET", "/", { host: `rebound.example:${port()}` });
    expect([refused.status, refused.headers["x-frame-options"]]).toEqual([403, "DENY"]);
    const started = await call(port(), "POST", "/api/runs", { body: { interruptBefore: [] } });
    const events = await call(port(), "GET", String(started.json["events"]));
    expect([events.type, events.headers["x-frame-options"]]).toEqual(["text/event-stream; charset=utf-8", "DENY"]);
  });
});

describe("slow and oversized requests", () => {
  it("a body that never arrives is answered 408 with the reason, and the connection is closed", async () => {
    const { port } = await serve({ bodyTimeoutMs: 300 });
    const head = `POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    const { reply, ms } = await rawExchange(port, `${head}{"input":`);
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(reply).toMatch(/\r\nconnection: close\r\n/i);
    expect(reply).toContain(
      '{"error":"inspect: the request body did not arrive within 0.3 s (it stalled after 9 bytes); send the whole body at once.","code":"REQUEST_TIMEOUT"}',
    );
    expect(ms).toBeLessThan(5_000);
    expect(logged).toEqual([
      "inspect: the request body did not arrive within 0.3 s (it stalled after 9 bytes); send the whole body at once.",
    ]);
  });

  it("headers that never finish are answered 408 and the connection is closed", async () => {
    const { port } = await serve({ headersTimeoutMs: 300 });
    const { reply, ms } = await rawExchange(port, `GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: `);
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeLessThan(5_000);
  });

  it("a body over the limit is refused with 413, and the server goes on answering", async () => {
    const { port } = await serve();
    const big = await call(port, "POST", "/api/runs", { body: JSON.stringify({ input: "x".repeat(MAX_BODY_BYTES) }) });
    expect([big.status, big.json["code"]]).toEqual([413, "TOO_LARGE"]);
    expect((await call(port, "GET", "/api/info")).status).toBe(200);
  });
});

describe("runs started from the page are kept up to a bound", () => {
  async function runToEnd(port: number): Promise<{ events: string; threadId: string }> {
    const started = await call(port, "POST", "/api/runs", { body: { interruptBefore: [] } });
    expect(started.status).toBe(201);
    expect((await runEvents(port, started.json["events"])).at(-1)).toMatchObject({ status: "done" });
    return { events: String(started.json["events"]), threadId: String(started.json["threadId"]) };
  }

  it(`keeps the last ${KEPT_FINISHED_RUNS} finished runs by default; older runs and their threads in memory are dropped`, async () => {
    expect(KEPT_FINISHED_RUNS).toBe(50);
    const { port } = await serve({ keepFinishedRuns: 2 });
    const runs = [await runToEnd(port), await runToEnd(port), await runToEnd(port), await runToEnd(port)];
    for (const dropped of runs.slice(0, 2)) {
      expect(await call(port, "GET", dropped.events)).toMatchObject({
        status: 404,
        json: { error: expect.stringContaining("(the inspector keeps the last 2 finished runs)") },
      });
      expect((await call(port, "GET", `/api/threads/${dropped.threadId}`)).status).toBe(404);
    }
    for (const kept of runs.slice(2)) {
      expect((await runEvents(port, kept.events)).at(-1)).toMatchObject({ status: "done" });
      expect((await call(port, "GET", `/api/threads/${kept.threadId}`)).status).toBe(200);
    }
    expect((await call(port, "GET", "/api/info")).json["threads"]).toEqual(runs.slice(2).map((run) => run.threadId));
  });

  it("a thread paused in memory is never dropped: still listed and resumable after more finished runs than the bound", async () => {
    const { port } = await serve({ keepFinishedRuns: 2 });
    const started = await call(port, "POST", "/api/runs", { body: { interruptBefore: ["publish"] } });
    expect((await runEvents(port, started.json["events"])).at(-1)).toMatchObject({ status: "paused", next: ["publish"] });
    const paused = String(started.json["threadId"]);
    const later = [await runToEnd(port), await runToEnd(port), await runToEnd(port)];
    expect((await call(port, "GET", String(started.json["events"]))).status).toBe(404);
    expect((await call(port, "GET", `/api/threads/${paused}`)).json).toMatchObject({ paused: ["publish"] });
    expect((await call(port, "GET", "/api/info")).json["threads"]).toEqual([paused, ...later.slice(1).map((run) => run.threadId)]);
    const approved = await call(port, "POST", `/api/threads/${paused}/resume`, { body: { action: "approve" } });
    expect(approved.status).toBe(201);
    expect((await runEvents(port, approved.json["events"])).map((e) => e.node ?? e.status)).toEqual(["publish", "done"]);
    // Finished now: once its last run is dropped in turn, the thread goes like any other.
    await runToEnd(port);
    await runToEnd(port);
    expect((await call(port, "GET", `/api/threads/${paused}`)).status).toBe(404);
  });

  it("a run on the database file drops its events only: its thread stays in the file and in the list", async () => {
    const { port } = await serve({ db: join(dir, "own.sqlite"), keepFinishedRuns: 1 });
    const first = await runToEnd(port);
    await runToEnd(port);
    expect((await call(port, "GET", first.events)).status).toBe(404);
    expect((await call(port, "GET", `/api/threads/${first.threadId}`)).status).toBe(200);
  });
});
