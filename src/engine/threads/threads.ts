/**
 * Threaded runs: a run that saves a checkpoint after every superstep, resumes from one, pauses at
 * interrupts, and lets a person read and change a paused thread. `CompiledGraph` delegates here;
 * without a `threadId` the engine never enters this file.
 */
import { GraphExecutionError, InvalidOptionError } from "../../errors.js";
import { START, type End } from "../../spec.js";
import { cloneState, isPlainObject } from "../clone.js";
import type { ExecutableGraph } from "../executable.js";
import { Run } from "../run.js";
import type { EventSink } from "../task-context.js";
import type { RunOptions, RunResult, Step } from "../run-types.js";
import { inputFailure, executionError } from "../run-checks.js";
import { commit, type RunSnapshot } from "../kernel/superstep.js";
import { pauseAfter, pauseBefore } from "../kernel/pauses.js";
import { isThenable, type State } from "../step.js";
import type { Checkpoint, Checkpointer, CheckpointMetadata, CheckpointWrite, JsonValue, PendingInterrupt } from "./checkpointer.js";
import { PersistenceError } from "./errors.js";
import { checkJson, findNonJson, notSerializable } from "./json-check.js";
import { checkMetadata } from "./store-options.js";
import { keptWrites, WriteKeeper } from "./pending-writes.js";
import { InterruptError, InterruptHost, SuperstepPaused, type SubgraphHome } from "../interrupt-scope.js";
import { andThen, settle, type MaybePromise } from "../maybe-promise.js";
import { detachedStep, type StepRecord } from "../step-record.js";
import { isCommand } from "../interrupt.js";
import { answersToKeep, commandStart } from "./resume.js";
import type { ReducerTable } from "../merge.js";
import { foldUpdates } from "../subgraph-output.js";
import { NAMESPACE_SEPARATOR } from "../subgraph-thread.js";
import { CheckpointSaves, checkDurability, type Durability } from "./durability.js";

/** What `compile({ interruptBefore, interruptAfter, checkpointer })` fixed for every threaded run. */
export interface ThreadSettings {
  readonly interruptBefore: ReadonlySet<string>;
  readonly interruptAfter: ReadonlySet<string>;
  readonly checkpointer?: Checkpointer;
}

/** Options of a threaded run: `invoke(input, { threadId, checkpointer })`, or `invoke(null, …)` to resume. */
export interface ThreadRunOptions extends RunOptions {
  /** The thread: the line of checkpoints this run continues. */
  readonly threadId: string;
  /** Where checkpoints go. Default: the one passed to `compile({ checkpointer })`. */
  readonly checkpointer?: Checkpointer;
  /**
   * Start from this (older) checkpoint instead of the latest, forking a new branch: `invoke(null, …)`
   * resumes it; a new input is merged onto its state.
   */
  readonly checkpointId?: string;
  /** JSON data stored with each checkpoint (`metadata.user`); a resumed run keeps the checkpoint's. */
  readonly metadata?: Readonly<Record<string, JsonValue>>;
  /**
   * When checkpoints are stored: `"sync"` (the default) before the next superstep starts; `"async"`
   * behind the run, several at a time, the call returning once all are stored. A crash in async mode
   * can lose the last committed supersteps (they run again on resume). See {@link Durability}.
   */
  readonly durability?: Durability;
}

/**
 * Where a run paused: before some nodes started, after some nodes ran (`interruptBefore`,
 * `interruptAfter`), or during some nodes, which called `interrupt()`.
 */
export interface Interrupt<N extends string = string> {
  readonly when: "before" | "after" | "during";
  /** The nodes it paused at. */
  readonly nodes: readonly N[];
  /** For `during`: each `interrupt()` call waiting for a resume value (its id, node and payload). */
  readonly interrupts?: readonly (PendingInterrupt & { readonly node: N })[];
}

/**
 * What a threaded `invoke` resolves with: the usual result (`trace`, `routes` and `supersteps` count
 * the whole run, resumes included; `steps` only this call's), plus where the thread stands.
 */
export type ThreadRunResult<S, N extends string = string> = RunResult<S, N> & {
  readonly threadId: string;
  /** The checkpoint the run stopped at: resume or fork from it. */
  readonly checkpointId: string;
  /** The nodes that run when the thread resumes; empty once the run reached END. */
  readonly next: readonly N[];
} & ({ readonly status: "done" } | { readonly status: "interrupted"; readonly interrupt: Interrupt<N> });

/** Options of `getState` and `getStateHistory`. */
export interface ThreadReadOptions {
  /** Default: the one passed to `compile({ checkpointer })`. */
  readonly checkpointer?: Checkpointer;
}

/** Options of `getState`. */
export interface GetStateOptions extends ThreadReadOptions {
  /** Read this (older) checkpoint instead of the latest. */
  readonly checkpointId?: string;
  /** Show each subgraph task's own state (its child's latest checkpoint) in `tasks[i].state`, at every depth. */
  readonly subgraphs?: boolean;
}

/** Options of `getStateHistory`. */
export interface GetStateHistoryOptions extends ThreadReadOptions {
  /** At most this many checkpoints (a positive integer), the newest of those listed. */
  readonly limit?: number;
  /**
   * Only the checkpoints listed after this one (older, in the history's order): the next page of a
   * history read with `limit`, as LangGraph's `before`. An id the thread does not have is `CHECKPOINT_NOT_FOUND`.
   */
  readonly before?: string;
}

/** Options of `updateState`; `N` is the graph's node names. */
export interface UpdateStateOptions<N extends string = string> extends ThreadReadOptions {
  /**
   * Apply the update as if this node had returned it: what runs next is what follows this node, its
   * router reading the updated state. `END` cancels the pending work. Default: the node that ran last
   * (required when the last superstep ran several). On a subgraph's thread, a node of the child.
   */
  readonly asNode?: N | End;
  /** Update this (older) checkpoint instead of the latest, forking a new branch. */
  readonly checkpointId?: string;
}

/**
 * The refusal of a run without a thread on a graph compiled with interrupts or a checkpointer: it
 * would run straight through the interrupts, or save nothing.
 */
export function threadRequired(api: string, settings: ThreadSettings): InvalidOptionError {
  const interrupts = [...settings.interruptBefore, ...settings.interruptAfter];
  const why = interrupts.length > 0 ? `it pauses at interrupts (${interrupts.join(", ")})` : "it was compiled with a checkpointer";
  return new InvalidOptionError(
    `${api}: this graph runs on threads, because ${why}; pass { threadId } (and a checkpointer) so the run can be saved and resumed.`,
  );
}

/** Whether `invoke`'s options ask for a threaded run. */
export function isThreadRun(options: unknown): options is ThreadRunOptions {
  return typeof options === "object" && options !== null && "threadId" in options;
}

/**
 * How a subgraph task runs its child graph on a thread of its own (see `subgraph-thread.ts`): the
 * child's thread continues from its latest checkpoint when it has one, answering its pending
 * interrupts with `resumes`, and each checkpoint keeps the child nodes' updates folded (`subgraphUpdate`).
 * @internal
 */
export interface ChildThread {
  /** Answers for the child's pending interrupts, by the child's ids; those it is not waiting for are ignored. */
  readonly resumes: Readonly<Record<string, JsonValue>>;
  /** The child graph's reducers, which fold its nodes' updates. */
  readonly reducers: ReducerTable;
}

/** Runs (or resumes) a thread to END or to an interrupt, saving a checkpoint after every superstep. */
export async function invokeThread(
  graph: ExecutableGraph,
  settings: ThreadSettings,
  input: unknown,
  options: ThreadRunOptions,
): Promise<ThreadRunResult<State>> {
  const thread = await ThreadRun.open(graph, settings, input, options, "invoke");
  // The supersteps as recorded; the steps a caller reads are made from them on first read, as invoke's are.
  const supersteps: CommittedSuperstep[] = [];
  for (;;) {
    const pending = thread.advance();
    const superstep = isThenable(pending) ? await pending : pending;
    if (superstep === undefined) break;
    supersteps.push(superstep);
  }
  return thread.result(() => supersteps.flatMap(stepsOf));
}

/**
 * A threaded run, advanced a superstep at a time: each superstep is saved as a checkpoint before the
 * next starts, and the run stops at interrupts. `invoke` and `stream` with a `threadId` both drive it,
 * so a streamed thread saves and pauses exactly as an invoked one.
 * @internal
 */
export class ThreadRun {
  readonly #run: Run;
  readonly #writer: ThreadWriter;
  readonly #settings: ThreadSettings;
  readonly #keeper: WriteKeeper;
  /** Resuming is the go-ahead: a run resumed at an interrupt does not pause before those nodes again. */
  #resuming: boolean;
  #interrupt: Interrupt | undefined;
  readonly #host: InterruptHost;
  /** A child thread's reducers: each superstep's updates are folded into its checkpoints' `subgraphUpdate`. */
  readonly #fold: ReducerTable | undefined;
  /** A subgraph task's thread, whose answers its parent keeps. */
  readonly #child: boolean;

  private constructor(
    run: Run,
    writer: ThreadWriter,
    keeper: WriteKeeper,
    settings: ThreadSettings,
    resuming: boolean,
    host: InterruptHost,
    fold: ReducerTable | undefined,
  ) {
    this.#run = run;
    this.#keeper = keeper;
    this.#writer = writer;
    this.#settings = settings;
    this.#resuming = resuming;
    this.#host = host;
    this.#fold = fold;
    this.#child = fold !== undefined;
  }

  /**
   * Starts (input) or resumes (`null`, or a `Command` answering the pending interrupts) the thread,
   * writing the input checkpoint of a new run, or the update checkpoint of a Command's update or goto.
   */
  static async open(
    graph: ExecutableGraph,
    settings: ThreadSettings,
    input: unknown,
    options: ThreadRunOptions,
    api: "invoke" | "stream",
    sink?: EventSink,
    child?: ChildThread,
  ): Promise<ThreadRun> {
    const { threadId, checkpointer } = checkThreadOptions(api, settings, options, child !== undefined);
    if (options.metadata !== undefined) checkMetadata(api, options.metadata);
    const saves = new CheckpointSaves(checkpointer, checkDurability(api, options.durability));
    const latest = await checkpointer.latest(threadId);
    // A child thread that has checkpoints continues from its latest: its parent's superstep is resumed.
    if (child !== undefined && latest !== undefined) input = null;
    // A pending write names its superstep's checkpoint, which an async run may not have stored yet.
    const keeper = new WriteKeeper(checkpointer, threadId, () => saves.flush());
    const host = new InterruptHost();
    host.home = { checkpointer, threadId };
    const fold = child?.reducers;
    // A task that paused at an interrupt settles with no update: it is not a write to keep.
    const onWrite = (write: Parameters<WriteKeeper["keep"]>[0]) => (host.isPaused(write.task) ? undefined : keeper.keep(write));
    const runOptions = { ...options, threadId, api, onWrite, interrupts: host, ...(sink === undefined ? {} : { sink }) };
    if (input === null || isCommand(input)) {
      const from = await startingPoint(api, checkpointer, threadId, latest, options.checkpointId);
      const snapshot = snapshotOf(api, graph, from);
      const start = isCommand(input)
        ? commandStart(api, graph, from, snapshot, input)
        : { snapshot, resumes: { ...from.resumes, ...answered(from, child?.resumes) }, interrupts: from.interrupts ?? [], changed: false };
      host.answer(start.resumes, start.interrupts);
      // The superstep's tasks that succeeded before a failure, a crash or an interrupt keep their writes: only the others run.
      // A goto replaced the tasks, and with them the writes kept for them.
      const kept = isCommand(input) && input.goto !== undefined ? [] : keptWrites(api, from);
      const run = Run.restore(graph, start.snapshot, runOptions, kept);
      const writer = new ThreadWriter(saves, threadId, latest?.id ?? null, from, options.metadata ?? from.metadata.user);
      if (fold !== undefined) writer.subgraphUpdate = from.subgraphUpdate ?? {};
      if (start.changed) {
        const pause = { interrupts: start.interrupts, resumes: start.resumes, writes: kept };
        await writer.write(run, "update", [], undefined, pause);
      }
      return new ThreadRun(run, writer, keeper, settings, true, host, fold);
    }
    checkJson(input, "input", api);
    // LangGraph's rule: a new input on a thread that has state is merged onto it through the reducers,
    // and a new run starts from START (its trace, steps and limits count from this input).
    const base =
      options.checkpointId === undefined ? latest : await startingPoint(api, checkpointer, threadId, latest, options.checkpointId);
    const run = new Run(graph, base === undefined ? input : mergedInput(graph, base, input, api), runOptions);
    await run.begin();
    const writer = new ThreadWriter(saves, threadId, latest?.id ?? null, base, options.metadata);
    if (fold !== undefined) writer.subgraphUpdate = {};
    await writer.write(run, "input", []);
    return new ThreadRun(run, writer, keeper, settings, false, host, fold);
  }

  get state(): State {
    return this.#run.state;
  }

  get supersteps(): number {
    return this.#run.supersteps;
  }

  /** A child thread's folded updates so far (see {@link ChildThread}). */
  get subgraphUpdate(): State | undefined {
    return this.#writer.subgraphUpdate;
  }

  /**
   * Runs and saves the next superstep; `undefined` once the run reached END or paused at an interrupt.
   * Whatever it returns or throws, every checkpoint before it is stored by then, unless it is a superstep
   * in the middle of an async run.
   */
  async superstep(): Promise<Step<State>[] | undefined> {
    const superstep = await this.advance();
    return superstep === undefined ? undefined : stepsOf(superstep);
  }

  /**
   * {@link ThreadRun.superstep}, without a promise when the superstep's nodes and routers, the store's
   * save and the pending writes were all synchronous: a threaded `invoke` of synchronous nodes awaits
   * nothing between supersteps (an await costs about half a microsecond where AsyncLocalStorage is on,
   * which a threaded run turns on, and a run has several per superstep).
   */
  advance(): MaybePromise<CommittedSuperstep | undefined> {
    return settle(
      () => this.#superstep(),
      (done) => this.#advanced(done),
      (error) => this.#failed(error),
    );
  }

  #advanced(superstep: CommittedSuperstep | undefined): MaybePromise<CommittedSuperstep | undefined> {
    if (superstep !== undefined) return superstep;
    const stored = this.#writer.whenStored();
    return stored === undefined ? undefined : stored.then(() => undefined);
  }

  async #failed(error: unknown): Promise<never> {
    // The supersteps committed before the failure stay resumable: their checkpoints are stored first.
    await this.#writer.flush().catch(() => undefined);
    throw error;
  }

  #superstep(): MaybePromise<CommittedSuperstep | undefined> {
    const run = this.#run;
    if (this.#interrupt !== undefined) return undefined;
    const pending = run.pending ?? [];
    if (pending.length === 0) {
      run.endObservation("done");
      return undefined;
    }
    const before = pauseBefore(this.#settings, pending, this.#resuming);
    this.#resuming = false;
    if (before !== undefined) {
      this.#interrupt = before;
      run.observeInterrupt(before);
      return undefined;
    }
    const startsAt = (this.#writer.current as Checkpoint).id;
    this.#keeper.startingAt(startsAt);
    this.#host.checkpointId = startsAt;
    return settle<StepRecord[] | undefined, CommittedSuperstep | undefined>(
      () => run.superstepRecords(),
      (done) => this.#committed(done),
      (error) => this.#superstepFailed(error),
    );
  }

  /** The superstep committed: once its pending writes are stored, its checkpoint is written (none when the run ended instead). */
  #committed(records: StepRecord[] | undefined): MaybePromise<CommittedSuperstep> | undefined {
    if (records === undefined) return undefined;
    const superstep: CommittedSuperstep = { records, state: this.#run.committedState };
    const writes = this.#keeper.settled();
    return writes === undefined ? this.#save(superstep) : writes.then(() => this.#save(superstep));
  }

  /** The superstep threw, or paused at interrupts (then its checkpoint is an `interrupt` one); its pending writes are stored first. */
  async #superstepFailed(error: unknown): Promise<undefined> {
    try {
      // A resume value its interrupt's schema refused: the InterruptError itself, naming the interrupt.
      if (error instanceof GraphExecutionError && error.cause instanceof InterruptError) throw error.cause;
      await this.#keeper.settled();
      if (!(error instanceof SuperstepPaused)) {
        await this.#keepAnswers();
        throw error;
      }
      return await this.#pause(error);
    } finally {
      await this.#keeper.settled();
    }
  }

  #save(superstep: CommittedSuperstep): MaybePromise<CommittedSuperstep> {
    const run = this.#run;
    const { records } = superstep;
    if (this.#fold !== undefined)
      this.#writer.subgraphUpdate = foldUpdates(this.#fold, this.#writer.subgraphUpdate ?? {}, stepsOf(superstep));
    const written = this.#writer.write(
      run,
      "loop",
      records.map((record) => record.node),
      records,
    );
    return andThen(written, () => andThen(this.#dropChildren(), () => this.#pauseAfter(superstep)));
  }

  #pauseAfter(superstep: CommittedSuperstep): CommittedSuperstep {
    const run = this.#run;
    const after = pauseAfter(
      this.#settings,
      superstep.records.map((record) => record.node),
      run.pending ?? [],
    );
    if (after !== undefined) {
      this.#interrupt = after;
      run.observeInterrupt(after);
    }
    return superstep;
  }

  /**
   * Some nodes of the superstep called `interrupt()`: nothing of it commits. The thread saves an
   * `interrupt` checkpoint (the same state and tasks, the pending interrupts, the answers given so far),
   * and a resume runs the superstep again.
   */
  async #pause(paused: SuperstepPaused): Promise<undefined> {
    const { interrupts } = paused;
    const resumes = this.#host.resumes as Readonly<Record<string, JsonValue>>;
    // The tasks that finished keep their writes here too, so a resume from this checkpoint runs only the paused ones.
    // An update that is not JSON cannot be kept: its task runs again.
    const writes = paused.writes.filter((write) => findNonJson(write.update, "update") === undefined);
    await this.#writer.write(this.#run, "interrupt", [], undefined, { interrupts, resumes, writes });
    this.#interrupt = { when: "during", nodes: [...new Set(interrupts.map((i) => i.node))], interrupts };
    this.#run.observeInterrupt(this.#interrupt);
    return undefined;
  }

  /**
   * A resumed superstep failed: the answers it was given stay with the thread, so `invoke(null)` runs
   * its nodes again with them instead of asking again (LangGraph keeps them as pending writes). They go
   * in an `interrupt` checkpoint like the one it resumed, with the writes its tasks kept so far. A child
   * thread keeps none: its answers come from its parent's, which the top-level thread keeps. Best
   * effort: a store that fails here leaves the thread where it was (it asks again), and the caller
   * hears the node's failure, not the store's.
   */
  async #keepAnswers(): Promise<void> {
    const from = this.#writer.current;
    const home = this.#host.home;
    if (this.#child || from === undefined || home === undefined) return;
    const resumes = answersToKeep(from, this.#host.resumes, this.#host.refused);
    if (resumes === undefined) return;
    try {
      const stored = await home.checkpointer.get(from.threadId, from.id);
      const writes = stored?.pendingWrites ?? from.pendingWrites ?? [];
      await this.#writer.write(this.#run, "interrupt", [], undefined, { interrupts: from.interrupts ?? [], resumes, writes });
    } catch {
      // The thread stays at the checkpoint it resumed: a retry asks again, as before the answer.
    }
  }

  /** The answers an interrupt's schema refused in this run (a child hands them to its parent task, prefixed). */
  get refused(): ReadonlySet<string> {
    return this.#host.refused;
  }

  /**
   * The superstep committed: the child threads of its subgraph tasks are done with (their updates are in
   * the parent's state). They go once its checkpoint is stored (an async run stores it first), so a crash
   * never finds the parent before this superstep without its children. One that cannot be removed is only
   * left over; `deleteThread` of the parent removes it.
   */
  #dropChildren(): Promise<void> | undefined {
    const { children, home } = this.#host;
    if (children.size === 0 || home === undefined) return undefined;
    return this.#drop([...children], home);
  }

  async #drop(ids: readonly string[], home: SubgraphHome): Promise<void> {
    const { children } = this.#host;
    children.clear();
    await this.#writer.flush();
    await Promise.all(ids.map((id) => Promise.resolve(home.checkpointer.deleteThread(id)).catch(() => undefined)));
  }

  /** A stream's consumer stopped reading: the run's observation ends as abandoned. */
  endObservation(status: "done" | "abandoned"): void {
    this.#run.endObservation(status);
  }

  /** The result of the run so far, `steps` being this call's (or made from its supersteps when first read). */
  result(steps: Step<State>[] | (() => Step<State>[])): ThreadRunResult<State> {
    return resultOf(this.#run, steps, this.#writer, this.#interrupt);
  }
}

/** What a checkpoint of a paused superstep carries: its pending interrupts, the answers given so far, and the writes of its tasks that finished. */
export interface ThreadPause {
  readonly interrupts: readonly PendingInterrupt[];
  readonly resumes: Readonly<Record<string, JsonValue>>;
  readonly writes: readonly CheckpointWrite[];
}

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
    this.#check(snapshot, superstep);
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
      tasks: snapshot.tasks,
      trace: snapshot.trace,
      routes: snapshot.routes,
      supersteps: snapshot.supersteps,
      joins: snapshot.joins,
      createdAt: isoNow(),
      metadata,
    };
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
      this.#checked = snapshot.state;
      return checkpoint;
    };
    const saving = this.#saves.save(checkpoint, this.#expectedLatestId);
    return saving === undefined ? saved() : saving.then(saved);
  }

  #check(snapshot: RunSnapshot, superstep: readonly Written[] | undefined): void {
    const previous = this.#checked;
    for (const field of Object.keys(snapshot.state)) {
      const value = snapshot.state[field];
      if (value === undefined || (previous !== undefined && previous[field] === value)) continue;
      const problem = findNonJson(value, "state", field);
      if (problem === undefined) continue;
      const writer = superstep?.find((step) => Object.hasOwn(step.update, field))?.node;
      throw notSerializable("invoke", problem, writer === undefined ? "" : ` (written by "${writer}")`);
    }
    snapshot.tasks.forEach((task, index) => {
      const problem = task.sent && task.input !== undefined ? findNonJson(task.input, `tasks[${index}].input`) : undefined;
      if (problem !== undefined) throw notSerializable("invoke", problem, ` (the input of a Send to "${task.node}")`);
    });
  }
}

/**
 * A superstep a threaded run committed: its records (each node's committed update, shared) and the
 * state after it. The steps a caller reads are copies made from it ({@link stepsOf}).
 * @internal
 */
export interface CommittedSuperstep {
  readonly records: readonly StepRecord[];
  readonly state: State;
}

/** The steps of a committed superstep, each copied when first read. */
function stepsOf(superstep: CommittedSuperstep): Step<State>[] {
  return superstep.records.map((record) => detachedStep(record, superstep.state));
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

/** Of `resumes`, the answers to interrupts `from` is waiting for (a child resumed after a crash may wait for others, or none). */
function answered(from: Checkpoint, resumes: Readonly<Record<string, JsonValue>> | undefined): Record<string, JsonValue> {
  const pending = from.interrupts ?? [];
  if (resumes === undefined || pending.length === 0) return {};
  return Object.fromEntries(
    pending.flatMap((interrupt) => (Object.hasOwn(resumes, interrupt.id) ? [[interrupt.id, resumes[interrupt.id] as JsonValue]] : [])),
  );
}

function resultOf(
  run: Run,
  made: Step<State>[] | (() => Step<State>[]),
  writer: ThreadWriter,
  interrupt: Interrupt | undefined,
): ThreadRunResult<State> {
  const current = writer.current as Checkpoint;
  let steps = typeof made === "function" ? undefined : made;
  const result = {
    state: run.state,
    trace: run.trace,
    // Made on first read (invoke's steps are too): a caller that reads only the state pays for no step.
    get steps(): Step<State>[] {
      return (steps ??= (made as () => Step<State>[])());
    },
    set steps(value: Step<State>[]) {
      steps = value;
    },
    routes: run.routes,
    supersteps: run.supersteps,
    threadId: current.threadId,
    checkpointId: current.id,
    next: (run.pending ?? []).map((task) => task.node),
  };
  // Object.assign keeps `steps`' accessors (a spread would read them); no cast, so a member left out fails to compile.
  return interrupt === undefined
    ? Object.assign(result, { status: "done" as const })
    : Object.assign(result, { status: "interrupted" as const, interrupt });
}

/** The error a resume (`null` or a Command) of a thread without a checkpoint gets. */
export function nothingToResume(api: string, threadId: string): PersistenceError {
  return new PersistenceError(
    "NOTHING_TO_RESUME",
    `${api}: thread "${threadId}" has no checkpoint. Start it with invoke(input, { threadId: "${threadId}", checkpointer }) first.`,
  );
}

export async function startingPoint(
  api: string,
  checkpointer: Checkpointer,
  threadId: string,
  latest: Checkpoint | undefined,
  checkpointId: string | undefined,
): Promise<Checkpoint> {
  if (checkpointId === undefined) {
    if (latest !== undefined) return latest;
    throw nothingToResume(api, threadId);
  }
  const found = await checkpointer.get(threadId, checkpointId);
  if (found !== undefined) return found;
  throw checkpointNotFound(api, threadId, checkpointId);
}

/** The error for a checkpoint id the thread does not have. */
export function checkpointNotFound(api: string, threadId: string, checkpointId: string): PersistenceError {
  return new PersistenceError(
    "CHECKPOINT_NOT_FOUND",
    `${api}: thread "${threadId}" has no checkpoint "${checkpointId}". List its checkpoints with getStateHistory("${threadId}").`,
  );
}

/** A checkpoint as the engine's snapshot, after checking it was written by a graph with the same nodes and joins. */
export function snapshotOf(api: string, graph: ExecutableGraph, checkpoint: Checkpoint): RunSnapshot {
  const unknown = checkpoint.tasks.find((task) => !graph.nodes.has(task.node))?.node;
  if (unknown !== undefined || checkpoint.joins.length !== graph.joins.length) {
    const what =
      unknown !== undefined
        ? `names node "${unknown}", which this graph does not have`
        : `records ${checkpoint.joins.length} joins, and this graph has ${graph.joins.length}`;
    throw new PersistenceError(
      "INCOMPATIBLE_CHECKPOINT",
      `${api}: checkpoint "${checkpoint.id}" of thread "${checkpoint.threadId}" ${what}: a different graph wrote it. ` +
        `Resume it with the graph that wrote it, or start a new thread.`,
    );
  }
  return checkpoint;
}

/**
 * The thread's state with a new input merged through the reducers (an `append` field appends), as the
 * START of a new run. An input that is not a plain object is left to `Run`, which refuses it as on a new thread.
 */
function mergedInput(graph: ExecutableGraph, base: Checkpoint, input: unknown, api: string): unknown {
  if (!isPlainObject(input)) return input;
  const failure = inputFailure(graph, input);
  if (failure !== undefined) return input;
  const committed = commit(graph, base.state, [{ node: START, sent: false }], [input]);
  if (!committed.ok) throw executionError(api, committed.failure, { node: START, state: cloneState(base.state), trace: [] });
  return committed.state;
}

export function checkThreadOptions(
  api: string,
  settings: ThreadSettings,
  options: { readonly threadId?: unknown; readonly checkpointer?: unknown },
  childThread = false,
): { threadId: string; checkpointer: Checkpointer } {
  const { threadId } = options;
  if (typeof threadId !== "string" || threadId.trim() === "") {
    throw new InvalidOptionError(
      `${api}: threadId must be a non-empty string, such as "order-42"; got ${JSON.stringify(threadId) ?? String(threadId)}.`,
    );
  }
  if (!childThread && threadId.includes(NAMESPACE_SEPARATOR)) {
    throw new InvalidOptionError(
      `${api}: threadId ${JSON.stringify(threadId)} contains the character U+001F, which separates a thread from its subgraphs' namespaces; choose an id without it.`,
    );
  }
  const checkpointer = options.checkpointer ?? settings.checkpointer;
  if (checkpointer === undefined) {
    throw new InvalidOptionError(
      `${api}: a thread needs a checkpointer: pass { threadId, checkpointer } (e.g. new MemoryCheckpointer()) or compile({ checkpointer }).`,
    );
  }
  if (!isCheckpointer(checkpointer)) {
    throw new InvalidOptionError(
      `${api}: checkpointer must implement save, latest, get, list, deleteThread and putWrites (see the Checkpointer interface).`,
    );
  }
  return { threadId, checkpointer };
}

function isCheckpointer(value: unknown): value is Checkpointer {
  if (typeof value !== "object" || value === null) return false;
  const methods = value as Record<string, unknown>;
  return ["save", "latest", "get", "list", "deleteThread", "putWrites"].every((name) => typeof methods[name] === "function");
}
