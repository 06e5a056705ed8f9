/**
 * Live runs: each run streams its steps into a buffer, and every server-sent-events subscriber gets
 * the buffer first, then what follows, so a page that subscribes after the run started misses nothing.
 */
import type { ServerResponse } from "node:http";
import { GraphError, type StreamChunk } from "../index.js";
import type { Checkpoint, Checkpointer, JsonValue } from "../persistence/index.js";
import { cutLines } from "./echo.js";
import type { RunnableGraph } from "./target.js";

/** One event of a live run, as the page receives it (`event:` is `type`). */
export type RunEvent =
  | { readonly type: "step"; readonly node: string; readonly update: unknown; readonly state: unknown; readonly route?: unknown }
  /** What a node wrote with `context.writer` (the `custom` stream mode), in the order written. */
  | { readonly type: "custom"; readonly node: string; readonly event: unknown }
  | {
      readonly type: "end";
      /** `done`: reached END; `paused`: waits at an interrupt (see `next`). */
      readonly status: "done" | "paused";
      readonly state: unknown;
      readonly next: readonly string[];
      readonly threadId?: string;
      readonly checkpointId?: string;
    }
  | { readonly type: "failed"; readonly message: string; readonly code?: string };

/** What a run is started with. */
export interface LiveRunSpec {
  readonly graph: RunnableGraph;
  /** `null` resumes the thread. */
  readonly input: object | null;
  readonly maxSteps?: number;
  /** The thread it runs on: saved as it goes, and it may pause. */
  readonly thread: {
    readonly threadId: string;
    readonly checkpointer: Checkpointer;
    readonly checkpointId?: string;
    readonly metadata?: Readonly<Record<string, JsonValue>>;
  };
}

class LiveRun {
  readonly events: RunEvent[] = [];
  readonly #subscribers = new Set<ServerResponse>();
  #ended = false;

  get ended(): boolean {
    return this.#ended;
  }

  push(event: RunEvent): void {
    this.events.push(event);
    for (const response of this.#subscribers) writeEvent(response, event);
    if (event.type === "end" || event.type === "failed") {
      this.#ended = true;
      for (const response of this.#subscribers) response.end();
      this.#subscribers.clear();
    }
  }

  subscribe(response: ServerResponse): void {
    response.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", connection: "keep-alive" });
    for (const event of this.events) writeEvent(response, event);
    if (this.#ended) {
      response.end();
      return;
    }
    this.#subscribers.add(response);
    response.on("close", () => this.#subscribers.delete(response));
  }

  closeAll(): void {
    for (const response of this.#subscribers) response.end();
    this.#subscribers.clear();
  }
}

function writeEvent(response: ServerResponse, event: RunEvent): void {
  response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
}

/**
 * How many finished runs the server keeps, so a page that subscribes late still gets the whole run.
 * Older ones are dropped (their events, and their threads when those live in the inspector's memory and
 * have finished): a server left open for days does not grow with every run started from the page. A run
 * that ended paused counts as finished too, but its thread is never dropped while it waits to continue.
 */
export const KEPT_FINISHED_RUNS = 50;

/** Options of {@link LiveRuns}. */
export interface LiveRunsOptions {
  /** Finished runs kept; default {@link KEPT_FINISHED_RUNS}. */
  readonly keepFinished?: number;
  /** Called with a dropped run's thread, once no kept run is on that thread; it decides whether the thread goes too. */
  readonly onDrop?: (thread: LiveRunSpec["thread"]) => Promise<void> | void;
}

/**
 * The server's live runs, by id (`run-1`, `run-2`, …): every run still running, and the last
 * `keepFinished` finished ones.
 *
 * @example
 * ```ts
 * const runs = new LiveRuns();
 * const id = runs.start({ graph, input: initialReportState() }, () => {});
 * runs.subscribe(id, response); // server-sent events: step…, then end or failed
 * ```
 */
export class LiveRuns {
  readonly #runs = new Map<string, { readonly run: LiveRun; readonly thread: LiveRunSpec["thread"] }>();
  /** Finished runs, oldest first. */
  readonly #finished: string[] = [];
  readonly #pending = new Set<Promise<void>>();
  readonly #keepFinished: number;
  readonly #onDrop: NonNullable<LiveRunsOptions["onDrop"]>;
  #count = 0;

  constructor(options: LiveRunsOptions = {}) {
    this.#keepFinished = options.keepFinished ?? KEPT_FINISHED_RUNS;
    this.#onDrop = options.onDrop ?? (() => {});
  }

  /** How many finished runs are kept. */
  get keepFinished(): number {
    return this.#keepFinished;
  }

  /** Starts a run; `onEnd` receives its last event. */
  start(spec: LiveRunSpec, onEnd: (event: RunEvent) => void): string {
    this.#count += 1;
    const id = `run-${this.#count}`;
    const run = new LiveRun();
    this.#runs.set(id, { run, thread: spec.thread });
    const done = drive(spec, run, onEnd)
      .then(() => this.#finish(id))
      .finally(() => this.#pending.delete(done));
    this.#pending.add(done);
    return id;
  }

  /** Whether `id` names a run this server still keeps. */
  has(id: string): boolean {
    return this.#runs.has(id);
  }

  subscribe(id: string, response: ServerResponse): void {
    this.#runs.get(id)?.run.subscribe(response);
  }

  /** Waits for every run to finish, then ends the open event streams. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#pending]);
    for (const { run } of this.#runs.values()) run.closeAll();
  }

  async #finish(id: string): Promise<void> {
    this.#finished.push(id);
    while (this.#finished.length > this.#keepFinished) {
      const oldest = this.#finished.shift() as string;
      const dropped = this.#runs.get(oldest);
      this.#runs.delete(oldest);
      if (dropped === undefined || this.#isOnThread(dropped.thread.threadId)) continue;
      try {
        await this.#onDrop(dropped.thread);
      } catch {
        // Dropping is housekeeping: a store that cannot delete keeps the thread, nothing else changes.
      }
    }
  }

  #isOnThread(threadId: string): boolean {
    for (const { thread } of this.#runs.values()) if (thread.threadId === threadId) return true;
    return false;
  }
}

/**
 * Whether a thread whose latest checkpoint is `latest` can still continue: it paused (at an interrupt, or
 * before a node it was told to pause at) or stopped before END. Such a thread is what the page exists to
 * approve or resume, so the inspector never drops it.
 *
 * @example
 * ```ts
 * waitsToContinue(await checkpointer.latest(threadId)); // true for a run paused before "publish"
 * ```
 */
export function waitsToContinue(latest: Pick<Checkpoint, "next" | "interrupts"> | undefined): boolean {
  return latest !== undefined && (latest.next.length > 0 || (latest.interrupts?.length ?? 0) > 0);
}

async function drive(spec: LiveRunSpec, run: LiveRun, onEnd: (event: RunEvent) => void): Promise<void> {
  let last: unknown = spec.input;
  const { thread } = spec;
  try {
    const chunks: AsyncIterable<StreamChunk<object>> = spec.graph.stream(spec.input, {
      streamMode: ["updates", "custom"],
      threadId: thread.threadId,
      checkpointer: thread.checkpointer,
      ...(thread.checkpointId === undefined ? {} : { checkpointId: thread.checkpointId }),
      ...(thread.metadata === undefined ? {} : { metadata: thread.metadata }),
      ...(spec.maxSteps === undefined ? {} : { maxSteps: spec.maxSteps }),
    });
    for await (const chunk of chunks) {
      if (chunk[0] === "custom") {
        run.push({ type: "custom", node: chunk[1].node, event: chunk[1].event });
        continue;
      }
      if (chunk[0] !== "updates") continue;
      const step = chunk[1];
      last = step.state;
      run.push({
        type: "step",
        node: step.node,
        update: step.update,
        state: step.state,
        ...(step.route === undefined ? {} : { route: step.route }),
      });
    }
    const latest = await thread.checkpointer.latest(thread.threadId);
    const next = latest?.next ?? [];
    const end: RunEvent = {
      type: "end",
      status: waitsToContinue(latest) ? "paused" : "done",
      state: latest?.state ?? last,
      next,
      threadId: thread.threadId,
      ...(latest === undefined ? {} : { checkpointId: latest.id }),
    };
    run.push(end);
    onEnd(end);
  } catch (error) {
    const failed: RunEvent = {
      type: "failed",
      message: cutLines(error instanceof Error ? error.message : String(error)),
      ...(error instanceof GraphError ? { code: error.code } : {}),
    };
    run.push(failed);
    onEnd(failed);
  }
}
