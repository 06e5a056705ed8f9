/**
 * The thread writer: a threaded run's checkpoints, written in order, each checked as JSON (only the
 * fields that changed) and against the thread's latest checkpoint (the version check).
 */
import type { RunSnapshot } from "../kernel/superstep.js";
import type { MaybePromise } from "../maybe-promise.js";
import type { Run } from "../run.js";
import type { State } from "../step.js";
import type { Checkpoint, CheckpointMetadata, JsonValue } from "../checkpointer.js";
import type { CheckpointSaves } from "./durability.js";
import { findNonJson, notSerializable } from "../json-check.js";
import { storedTasks } from "../send-command.js";
import type { ThreadPause } from "./types.js";

/** Writes a thread's checkpoints in order, each one checked against the thread's latest (the version check). */
export class ThreadWriter {
  readonly #saves: CheckpointSaves;
  readonly #threadId: string;
  readonly #user: Readonly<Record<string, JsonValue>> | undefined;
  #expectedLatestId: string | null;
  #current: Checkpoint | undefined;
  /** The last state checked: committed states are never mutated, so only fields whose value changed need checking. */
  #checked: State | undefined;
  /** A child thread's folded updates so far, stored with each of its checkpoints. */
  subgraphUpdate: State | undefined;
  /** Told of each checkpoint once it is stored (`stream`'s `checkpoints` mode). */
  onWritten: ((checkpoint: Checkpoint) => void) | undefined;
  /** Fields the next checkpoint's JSON check skips: already checked (see {@link ThreadWriter.trustNext}). */
  #trusted: ReadonlySet<string> | undefined;

  constructor(
    saves: CheckpointSaves,
    threadId: string,
    expectedLatestId: string | null,
    parent: Checkpoint | undefined,
    user: Readonly<Record<string, JsonValue>> | undefined,
  ) {
    this.#saves = saves;
    this.#threadId = threadId;
    this.#expectedLatestId = expectedLatestId;
    this.#current = parent;
    this.#user = user;
  }

  /** The checkpoint the run stands at: the last one written, or the one it resumed from. */
  get current(): Checkpoint | undefined {
    return this.#current;
  }

  /**
   * The next checkpoint's `fields` are JSON already (a new input, checked as it came in; a thread's state,
   * checked when it was stored): its write does not check them again. Only for that one write.
   */
  trustNext(fields: ReadonlySet<string>): void {
    this.#trusted = fields;
  }

  /** When the checkpoints are stored (the run's `durability`). */
  get durability(): CheckpointSaves["durability"] {
    return this.#saves.durability;
  }

  /** Resolves once every checkpoint written so far is stored (at once in sync mode). */
  flush(): Promise<void> {
    return this.#saves.flush();
  }

  /** {@link ThreadWriter.flush}, or `undefined` when there is nothing to wait for (every checkpoint is stored). */
  whenStored(): Promise<void> | undefined {
    return this.#saves.idle ? undefined : this.#saves.flush();
  }

  /** Writes the run's checkpoint; synchronously when the store saves synchronously, or queues it (async durability). */
  write(
    run: Run,
    source: CheckpointMetadata["source"],
    writes: readonly string[],
    superstep?: readonly Written[],
    pause?: ThreadPause,
  ): MaybePromise<Checkpoint> {
    const snapshot = run.snapshot();
    // A Send's Command input is stored in its plain form (send-command.ts), and checked as stored.
    const tasks = storedTasks(snapshot.tasks);
    this.#check(snapshot, tasks, superstep);
    const parent = this.#current;
    // Optional members are set after the literal, in the same order: a spread of a conditional literal
    // allocates an object a member, and a run writes a checkpoint per superstep.
    const metadata: Writable<CheckpointMetadata> = { source, writes };
    if (this.#user !== undefined) metadata.user = this.#user;
    const checkpoint: Writable<Checkpoint> = {
      id: globalThis.crypto.randomUUID(),
      parentId: parent?.id ?? null,
      threadId: this.#threadId,
      step: parent === undefined ? 0 : parent.step + 1,
      state: snapshot.state,
      next: snapshot.tasks.map((task) => task.node),
      tasks,
      trace: snapshot.trace,
      routes: snapshot.routes,
      supersteps: snapshot.supersteps,
      joins: snapshot.joins,
      createdAt: isoNow(),
      metadata,
      graph: run.stamp,
    };
    if (snapshot.deferred !== undefined) checkpoint.deferred = snapshot.deferred;
    if (pause !== undefined && pause.interrupts.length > 0) {
      checkpoint.interrupts = pause.interrupts;
      checkpoint.resumes = pause.resumes;
    }
    if (pause !== undefined && pause.writes.length > 0) checkpoint.pendingWrites = pause.writes;
    if (this.subgraphUpdate !== undefined) checkpoint.subgraphUpdate = this.subgraphUpdate as Readonly<Record<string, JsonValue>>;
    const saved = (): Checkpoint => {
      this.#expectedLatestId = checkpoint.id;
      this.#current = checkpoint;
      run.observeCheckpoint(checkpoint.id, checkpoint.step, source);
      this.onWritten?.(checkpoint);
      this.#checked = snapshot.state;
      return checkpoint;
    };
    const saving = this.#saves.save(checkpoint, this.#expectedLatestId);
    return saving === undefined ? saved() : saving.then(saved);
  }

  #check(snapshot: RunSnapshot, tasks: RunSnapshot["tasks"], superstep: readonly Written[] | undefined): void {
    const previous = this.#checked;
    const trusted = this.#trusted;
    this.#trusted = undefined;
    for (const field of Object.keys(snapshot.state)) {
      const value = snapshot.state[field];
      if (value === undefined || trusted?.has(field) === true || (previous !== undefined && previous[field] === value)) continue;
      const problem = findNonJson(value, "state", field);
      if (problem === undefined) continue;
      const writer = superstep?.find((step) => Object.hasOwn(step.update, field))?.node;
      throw notSerializable("invoke", problem, writer === undefined ? "" : ` (written by "${writer}")`);
    }
    tasks.forEach((task, index) => {
      const problem = task.sent && task.input !== undefined ? findNonJson(task.input, `tasks[${index}].input`) : undefined;
      if (problem !== undefined) throw notSerializable("invoke", problem, ` (the input of a Send to "${task.node}")`);
    });
  }
}

/** What a checkpoint's JSON check reads of its superstep: which node wrote which fields. */
interface Written {
  readonly node: string;
  readonly update: State;
}

/** `T` with its members assignable, for an object built a member at a time. */
type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** The last timestamp made, and the millisecond it is for. */
let lastIso = { at: Number.NaN, text: "" };

/**
 * `new Date().toISOString()`, made once per millisecond: a run writes several checkpoints within one,
 * and formatting the date costs more than the rest of a checkpoint's members together.
 */
function isoNow(): string {
  const at = Date.now();
  if (at !== lastIso.at) lastIso = { at, text: new Date(at).toISOString() };
  return lastIso.text;
}
