/**
 * The inspector's HTTP server (`node:http`, 127.0.0.1 only): the page, its JSON routes, and live runs as
 * server-sent events. Every request passes the Host check first; writes to a database pass the write
 * guard. A refusal is JSON `{ error, code }` with its status, and the console logs it too.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { MemoryCheckpointer, type Checkpoint, type Checkpointer } from "../persistence/index.js";
import { cut, cutLines, quote } from "./echo.js";
import { InspectError } from "./errors.js";
import { checkHost, checkOrigin } from "./host-check.js";
import { BODY_TIMEOUT_MS, decode, isAsset, readJsonBody, sendAsset, sendJson, setSecurityHeaders } from "./http.js";
import { noGraph, refusalOf, unknownThread } from "./refusals.js";
import { resumePlan, resumeRequestOf } from "./resume.js";
import { LiveRuns, waitsToContinue, type LiveRunSpec } from "./runs.js";
import { openStore, type InspectStore, type StoreOptions } from "./store.js";
import { graphSvg } from "./svg.js";
import type { InspectTarget } from "./target.js";
import { coverageOverlay, detailOf, summaryOf } from "./thread-view.js";

/** Options of {@link startInspector}. */
export interface InspectorOptions extends StoreOptions {
  readonly target: InspectTarget;
  /** The port; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Threads to list from the start (`tsg inspect --thread`). */
  readonly threads?: readonly string[];
  /** Where refusals and failures are logged, one line each. Default: nowhere. */
  readonly log?: (line: string) => void;
  /** How long a request's headers may take to arrive; default {@link HEADERS_TIMEOUT_MS}. */
  readonly headersTimeoutMs?: number;
  /** How long a request's body may take once its headers arrived; default {@link BODY_TIMEOUT_MS}. */
  readonly bodyTimeoutMs?: number;
  /** Finished live runs kept for late subscribers; default {@link KEPT_FINISHED_RUNS}. */
  readonly keepFinishedRuns?: number;
}

/** How long a request's headers may take to arrive (Node's default is a minute; its request timeout five). */
export const HEADERS_TIMEOUT_MS = 10_000;

export { BODY_TIMEOUT_MS };
export { KEPT_FINISHED_RUNS } from "./runs.js";

/** A running inspector. */
export interface Inspector {
  /** `http://127.0.0.1:PORT/` */
  readonly url: string;
  readonly port: number;
  readonly store: InspectStore;
  /** Stops accepting requests, waits for live runs, closes the database. */
  close(): Promise<void>;
}

/**
 * Starts the inspector on 127.0.0.1.
 *
 * @example
 * ```ts
 * const inspector = await startInspector({ target, db: "runs.sqlite", port: 4318 });
 * console.log(`inspect at ${inspector.url}`);
 * await inspector.close();
 * ```
 */
export async function startInspector(options: InspectorOptions): Promise<Inspector> {
  const store = openStore(options);
  const app = new InspectorApp(options, store);
  const headersTimeout = options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const bodyTimeout = options.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
  const server = createServer(
    {
      headersTimeout,
      // Node's own bound on a whole request, a backstop behind the body deadline (readJsonBody answers 408 first).
      requestTimeout: headersTimeout + bodyTimeout + 1_000,
      // Node checks both bounds on this interval (default 30 s), so it must be finer than either.
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, headersTimeout / 4)),
    },
    (request, response) => void app.handle(request, response),
  );
  try {
    await listen(server, options.port ?? 0);
  } catch (error) {
    store.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  app.port = port;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    store,
    async close() {
      // Stop accepting first; then let live runs finish and end their event streams; then drop every
      // connection, idle or not (a browser keeps preconnected sockets that would hold close() open).
      const closed = new Promise<void>((done) => server.close(() => done()));
      await app.runs.close();
      server.closeAllConnections();
      await closed;
      store.close();
    },
  };
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((done, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", fail);
      done();
    });
  });
}

type Handler = (match: RegExpMatchArray, request: IncomingMessage, response: ServerResponse) => Promise<void> | void;

class InspectorApp {
  port = 0;
  readonly runs: LiveRuns;
  /** Threads the page lists, and the store each lives in (live runs on a read-only database go to memory). */
  readonly #threads = new Map<string, Checkpointer>();
  readonly #target: InspectTarget;
  readonly #store: InspectStore;
  readonly #log: (line: string) => void;
  readonly #svg: string | undefined;
  #liveCount = 0;
  readonly #routes: readonly (readonly [string, RegExp, Handler])[];
  readonly #bodyTimeoutMs: number;

  constructor(options: InspectorOptions, store: InspectStore) {
    this.runs = new LiveRuns({
      ...(options.keepFinishedRuns === undefined ? {} : { keepFinished: options.keepFinishedRuns }),
      onDrop: (thread) => this.#forget(thread),
    });
    this.#bodyTimeoutMs = options.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
    this.#target = options.target;
    this.#store = store;
    this.#log = options.log ?? (() => {});
    this.#svg = options.target.spec === undefined ? undefined : graphSvg(options.target.spec);
    if (store.checkpointer !== undefined) for (const id of options.threads ?? []) this.#threads.set(id, store.checkpointer);
    this.#routes = [
      ["GET", /^\/$/, (_m, _q, response) => sendAsset(response, "index.html")],
      ["GET", /^\/assets\/([a-z.]+)$/, (m, _q, response) => this.#asset(m[1] as string, response)],
      ["GET", /^\/api\/info$/, (_m, _q, response) => sendJson(response, 200, this.#info())],
      ["GET", /^\/api\/coverage$/, (_m, _q, response) => this.#coverage(response)],
      ["GET", /^\/api\/threads\/([^/]+)$/, (m, _q, response) => this.#history(decode(m[1]), response)],
      [
        "GET",
        /^\/api\/threads\/([^/]+)\/checkpoints\/([^/]+)$/,
        (m, _q, response) => this.#checkpoint(decode(m[1]), decode(m[2]), response),
      ],
      ["POST", /^\/api\/runs$/, (_m, request, response) => this.#startRun(request, response)],
      ["GET", /^\/api\/runs\/([^/]+)\/events$/, (m, _q, response) => this.#events(decode(m[1]), response)],
      ["POST", /^\/api\/threads\/([^/]+)\/resume$/, (m, request, response) => this.#resume(decode(m[1]), request, response)],
    ];
  }

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    setSecurityHeaders(response);
    try {
      checkHost(request.headers.host, this.port);
      const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
      const method = request.method ?? "GET";
      if (method !== "GET") checkOrigin(request.headers.origin, this.port);
      for (const [routeMethod, pattern, handler] of this.#routes) {
        const match = path.match(pattern);
        if (match !== null && routeMethod === method) return await handler(match, request, response);
      }
      throw new InspectError("NOT_FOUND", `inspect: no route ${cut(method)} ${cut(path)}.`);
    } catch (error) {
      this.#fail(error, response);
    }
  }

  #fail(error: unknown, response: ServerResponse): void {
    const refusal = refusalOf(error, this.#store.label);
    this.#log(refusal.message);
    if (response.headersSent) {
      response.end();
      return;
    }
    // A body that stalled or overflowed may still be arriving: answer, then close the connection.
    if (refusal.code === "REQUEST_TIMEOUT" || refusal.code === "TOO_LARGE") response.setHeader("connection", "close");
    sendJson(response, refusal.status, { error: refusal.message, code: refusal.code });
  }

  #asset(name: string, response: ServerResponse): Promise<void> {
    if (!isAsset(name)) throw new InspectError("NOT_FOUND", `inspect: no asset ${name}.`);
    return sendAsset(response, name);
  }

  #info() {
    const target = this.#target;
    return {
      graph:
        target.spec === undefined
          ? { label: target.label, problem: target.problem }
          : {
              label: target.label,
              spec: target.spec,
              svg: this.#svg,
              canRun: target.run !== undefined,
              interruptChoices: target.interruptChoices ?? [],
              defaultInput: target.defaultInput ?? null,
              inputSchema: target.inputSchema ?? null,
            },
      store: {
        label: this.#store.label,
        writable: this.#store.writable,
        ...(this.#store.problem === undefined ? {} : { problem: this.#store.problem }),
      },
      threads: [...this.#threads.keys()],
    };
  }

  /** The store a thread lives in; a thread the page has not seen is looked up in the database. */
  #storeOf(threadId: string): Checkpointer {
    const known = this.#threads.get(threadId);
    if (known !== undefined) return known;
    if (this.#store.checkpointer === undefined)
      throw new InspectError("STORE_FAILED", `inspect: ${this.#store.problem ?? `--db ${this.#store.label} could not be opened.`}`);
    return this.#store.checkpointer;
  }

  async #history(threadId: string, response: ServerResponse): Promise<void> {
    const checkpointer = this.#storeOf(threadId);
    const history = (await checkpointer.list(threadId)) as Checkpoint<object>[];
    if (history.length === 0) throw unknownThread(threadId, this.#store.label);
    this.#threads.set(threadId, checkpointer);
    const latest = history[0] as Checkpoint<object>;
    sendJson(response, 200, {
      threadId,
      checkpoints: history.map(summaryOf),
      latestId: latest.id,
      paused: this.#pausedAt(latest),
      writable: this.#writable(checkpointer),
    });
  }

  async #checkpoint(threadId: string, checkpointId: string, response: ServerResponse): Promise<void> {
    const checkpointer = this.#storeOf(threadId);
    const checkpoint = (await checkpointer.get(threadId, checkpointId)) as Checkpoint<object> | undefined;
    if (checkpoint === undefined) {
      if ((await checkpointer.latest(threadId)) === undefined) throw unknownThread(threadId, this.#store.label);
      throw new InspectError("NOT_FOUND", `inspect: thread ${quote(threadId)} has no checkpoint ${quote(checkpointId)}.`);
    }
    const parent =
      checkpoint.parentId === null
        ? undefined
        : ((await checkpointer.get(threadId, checkpoint.parentId)) as Checkpoint<object> | undefined);
    sendJson(response, 200, detailOf(checkpoint, parent, this.#pausedAt(checkpoint)));
  }

  #pausedAt(checkpoint: Checkpoint<object>): readonly string[] {
    const rules = this.#target.spec === undefined ? undefined : this.#target.threads;
    try {
      return rules?.pausedAt(checkpoint) ?? [];
    } catch {
      // A thread of another program: the page shows it, it just cannot continue it.
      return [];
    }
  }

  #writable(checkpointer: Checkpointer): boolean {
    return checkpointer !== this.#store.checkpointer || this.#store.writable;
  }

  async #coverage(response: ServerResponse): Promise<void> {
    const { spec } = this.#target;
    if (spec === undefined) throw noGraph(this.#target);
    const latest: Checkpoint<object>[] = [];
    for (const [threadId, checkpointer] of this.#threads) {
      const checkpoint = (await checkpointer.latest(threadId)) as Checkpoint<object> | undefined;
      if (checkpoint !== undefined) latest.push(checkpoint);
    }
    sendJson(response, 200, coverageOverlay(spec, latest));
  }

  async #startRun(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const target = this.#target;
    if (target.spec === undefined) throw noGraph(target);
    if (target.run === undefined)
      throw new InspectError(
        "NO_GRAPH",
        `inspect: ${target.label} is a spec, not a compiled graph: export builder.compile() to run it here.`,
      );
    const body = await readJsonBody(request, this.#bodyTimeoutMs);
    const interruptBefore = body["interruptBefore"];
    if (interruptBefore !== undefined && !(Array.isArray(interruptBefore) && interruptBefore.every((n) => typeof n === "string")))
      throw new InspectError("BAD_REQUEST", "inspect: interruptBefore must be a list of node names.");
    const plan = target.run({
      ...(body["input"] === undefined ? {} : { input: body["input"] }),
      ...(interruptBefore === undefined ? {} : { interruptBefore: interruptBefore as string[] }),
    });
    this.#liveCount += 1;
    const threadId = this.#freshThreadId();
    const checkpointer = this.#store.runs;
    this.#threads.set(threadId, checkpointer);
    const runId = this.runs.start(
      {
        graph: plan.graph,
        input: plan.input,
        ...(plan.maxSteps === undefined ? {} : { maxSteps: plan.maxSteps }),
        thread: { threadId, checkpointer, ...(plan.metadata === undefined ? {} : { metadata: plan.metadata }) },
      },
      (end) => this.#logEnd(threadId, end),
    );
    sendJson(response, 201, { runId, threadId, events: `/api/runs/${runId}/events` });
  }

  /** `live-N`, skipping ids a database already holds (a second session on the same file). */
  #freshThreadId(): string {
    let id = `live-${Date.now().toString(36)}-${this.#liveCount}`;
    while (this.#threads.has(id)) id = `${id}-x`;
    return id;
  }

  #logEnd(threadId: string, end: { type: string; message?: string }): void {
    if (end.type === "failed") this.#log(`inspect: the run on thread ${threadId} failed: ${cutLines(end.message ?? "")}`);
  }

  /**
   * A dropped run's thread, when it lives in the inspector's memory and finished: forgotten with it, so
   * memory stays bounded. A thread that waits to continue (paused) stays: it is what the page approves
   * or resumes, and the run that continues it is dropped in turn, once finished.
   */
  async #forget(thread: LiveRunSpec["thread"]): Promise<void> {
    if (!(thread.checkpointer instanceof MemoryCheckpointer)) return;
    if (waitsToContinue(await thread.checkpointer.latest(thread.threadId))) return;
    this.#threads.delete(thread.threadId);
    await thread.checkpointer.deleteThread(thread.threadId);
  }

  #events(runId: string, response: ServerResponse): void {
    if (!this.runs.has(runId))
      throw new InspectError(
        "NOT_FOUND",
        `inspect: no live run ${quote(runId)} (the inspector keeps the last ${this.runs.keepFinished} finished runs); start one with POST /api/runs.`,
      );
    this.runs.subscribe(runId, response);
  }

  async #resume(threadId: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const target = this.#target;
    if (target.spec === undefined) throw noGraph(target);
    const rules = target.threads;
    if (rules === undefined)
      throw new InspectError(
        "NO_GRAPH",
        `inspect: ${target.label} cannot continue threads here: export a compiled graph (builder.compile()).`,
      );
    const checkpointer = this.#storeOf(threadId);
    if (!this.#writable(checkpointer)) {
      throw new InspectError(
        "WRITES_DISABLED",
        `inspect: ${this.#store.label} is open read-only (tsg inspect did not create it): restart with --allow-writes to resume, fork or edit its threads.`,
      );
    }
    const resume = resumeRequestOf(await readJsonBody(request, this.#bodyTimeoutMs));
    const { checkpointId } = resume;
    const from = (await (checkpointId === undefined ? checkpointer.latest(threadId) : checkpointer.get(threadId, checkpointId))) as
      | Checkpoint<object>
      | undefined;
    if (from === undefined) {
      if (checkpointId === undefined || (await checkpointer.latest(threadId)) === undefined)
        throw unknownThread(threadId, this.#store.label);
      throw new InspectError("NOT_FOUND", `inspect: thread ${quote(threadId)} has no checkpoint ${quote(checkpointId)}.`);
    }
    const plan = await resumePlan(rules, threadId, checkpointer, from, resume);
    const runId = this.runs.start(plan, (end) => this.#logEnd(threadId, end));
    this.#threads.set(threadId, checkpointer);
    sendJson(response, 201, { runId, threadId, events: `/api/runs/${runId}/events` });
  }
}
