/**
 * Threaded runs: a run that saves a checkpoint after every superstep, resumes from one, and pauses at
 * interrupts. `CompiledGraph` delegates here; without a `threadId` the engine never enters this file.
 * The rules (where to pause, what a superstep means) are the kernel's; this driver saves and keeps time.
 */
import { GraphExecutionError } from "../../errors.js";
import type { ExecutableGraph } from "../executable.js";
import { pauseAfter, pauseBefore } from "../kernel/pauses.js";
import { Run } from "../run.js";
import type { RunSettings } from "../run-settings.js";
import { unreadableInput } from "../run-checks.js";
import type { EventSink } from "../task-context.js";
import type { Step } from "../run-types.js";
import type { State } from "../step.js";
import type { Checkpoint, JsonValue } from "../checkpointer.js";
import { checkJson, findNonJson } from "../json-check.js";
import { checkMetadata } from "./store-options.js";
import { keptWrites, WriteKeeper } from "./pending-writes.js";
import { InterruptError, InterruptHost, SuperstepPaused, type SubgraphHome } from "../interrupt-scope.js";
import { andThen, settle, type MaybePromise } from "../maybe-promise.js";
import type { StepRecord } from "../step-record.js";
import { isCommand } from "../interrupt.js";
import { answersToKeep, commandStart } from "./resume.js";
import type { ReducerTable } from "../merge.js";
import { foldUpdates } from "../subgraph-output.js";
import { CheckpointSaves, checkDurability } from "./durability.js";
import { checkThreadOptions } from "./thread-options.js";
import { answered, inputRun, snapshotOf, startingPoint } from "./thread-start.js";
import { continueOnGraph } from "./versions/continue-thread.js";
import { ThreadWriter } from "./writer.js";
import { resultOf, stepsOf, type CommittedSuperstep } from "./thread-result.js";
import type { ChildThread, Interrupt, ThreadRunOptions, ThreadRunResult, ThreadSettings } from "./types.js";

/** What {@link ThreadRun.open} starts or resumes: the graph and its settings, the input and options, and who asks. */
export interface ThreadOpening {
  readonly graph: ExecutableGraph;
  readonly settings: ThreadSettings;
  /** A new input, `null` (resume), or a `Command`. */
  readonly input: unknown;
  readonly options: ThreadRunOptions;
  readonly api: "invoke" | "stream";
  /** Where `context.writer` events go. */
  readonly sink?: EventSink | undefined;
  /** A subgraph task's thread: its answers and reducers. */
  readonly child?: ChildThread | undefined;
  /** `stream`'s `tasks` and `debug` modes: each superstep's tasks, once admitted. */
  readonly onTasks?: RunSettings["onTasks"];
  /** `stream`'s `checkpoints` and `debug` modes: each checkpoint, once stored (or queued, in async durability). */
  readonly onCheckpoint?: ((checkpoint: Checkpoint) => void) | undefined;
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
  /** Exit mode: the child threads of committed supersteps, deleted once the run's checkpoints are stored. */
  #doneChildren: string[] = [];

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
  static async open(opening: ThreadOpening): Promise<ThreadRun> {
    try {
      return await ThreadRun.#open(opening);
    } catch (error) {
      // A Proxy input that throws when read (revoked, or a throwing trap) is the caller's fault, coded.
      throw unreadableInput(opening.api, "input", opening.input, error);
    }
  }

  static async #open(opening: ThreadOpening): Promise<ThreadRun> {
    const { graph, settings, options, api, sink, child, onTasks, onCheckpoint } = opening;
    let { input } = opening;
    const { threadId, checkpointer } = checkThreadOptions(api, settings, options, child !== undefined);
    if (options.metadata !== undefined) checkMetadata(api, options.metadata);
    const saves = new CheckpointSaves(checkpointer, checkDurability(api, options.durability));
    const latest = await checkpointer.latest(threadId);
    // A child thread that has checkpoints continues from its latest: its parent's superstep is resumed.
    if (child !== undefined && latest !== undefined) input = null;
    // A task that paused at an interrupt settles with no update: it is not a write to keep. In exit mode
    // nothing is stored before the run's end, pending writes included (a failed superstep runs whole again).
    const keeps = saves.durability !== "exit";
    // A pending write names its superstep's checkpoint, which an async run may not have stored yet.
    const keeper = new WriteKeeper(checkpointer, threadId, () => saves.flush(), keeps);
    const host = new InterruptHost();
    host.home = { checkpointer, threadId };
    const fold = child?.reducers;
    const onWrite = (write: Parameters<WriteKeeper["keep"]>[0]) => (keeps && !host.isPaused(write.task) ? keeper.keep(write) : undefined);
    const runOptions = {
      ...options,
      threadId,
      api,
      onWrite,
      interrupts: host,
      ...(sink === undefined ? {} : { sink }),
      ...(onTasks === undefined ? {} : { onTasks }),
    };
    if (input === null || isCommand(input)) {
      const stored = await startingPoint(api, checkpointer, threadId, latest, options.checkpointId);
      // A checkpoint of an older version continues migrated, written once as a new checkpoint.
      const { checkpoint: from, latestId } = await continueOnGraph(api, graph, checkpointer, stored, latest?.id ?? null);
      const snapshot = snapshotOf(api, graph, from);
      const start = isCommand(input)
        ? commandStart(api, graph, from, snapshot, input, options.checkpointId !== undefined)
        : { snapshot, resumes: { ...from.resumes, ...answered(from, child?.resumes) }, interrupts: from.interrupts ?? [], changed: false };
      host.answer(start.resumes, start.interrupts);
      host.hold(start.held);
      // The superstep's tasks that succeeded before a failure, a crash or an interrupt keep their writes: only the others run.
      // A goto replaced the tasks, and with them the writes kept for them.
      const kept = isCommand(input) && input.goto !== undefined ? [] : keptWrites(api, from);
      const run = Run.restore(graph, start.snapshot, runOptions, kept);
      const writer = new ThreadWriter(saves, threadId, latestId, from, options.metadata ?? from.metadata.user);
      writer.onWritten = onCheckpoint;
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
    const stored =
      options.checkpointId === undefined ? latest : await startingPoint(api, checkpointer, threadId, latest, options.checkpointId);
    const continued = stored === undefined ? undefined : await continueOnGraph(api, graph, checkpointer, stored, latest?.id ?? null);
    const base = continued?.checkpoint;
    const run = inputRun(graph, base, input, api, runOptions);
    await run.begin();
    const writer = new ThreadWriter(saves, threadId, continued === undefined ? null : continued.latestId, base, options.metadata);
    writer.onWritten = onCheckpoint;
    if (fold !== undefined) writer.subgraphUpdate = {};
    writer.trustNext(checkedFields(graph, base, input as State));
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
    const home = this.#host.home;
    const children = this.#doneChildren;
    if (children.length === 0 || home === undefined) return stored === undefined ? undefined : stored.then(() => undefined);
    // Exit mode: the child threads of the run's supersteps go once the run's checkpoints are stored.
    this.#doneChildren = [];
    return (stored ?? Promise.resolve()).then(() => this.#deleteChildren(children, home)).then(() => undefined);
  }

  async #failed(error: unknown): Promise<never> {
    // The supersteps committed before the failure stay resumable: their checkpoints are stored first.
    await this.#writer.flush().catch(() => undefined);
    throw error;
  }

  #superstep(): MaybePromise<CommittedSuperstep | undefined> {
    const run = this.#run;
    if (this.#interrupt !== undefined) return undefined;
    // No task left is the kernel's to judge too (END, or a join left waiting): the run's superstep asks it.
    const pending = run.pending ?? [];
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
    // A held answer no interrupt took is dropped with its superstep, as LangGraph drops its resume write.
    this.#host.hold(undefined);
    const superstep: CommittedSuperstep = { records, state: this.#run.committedState };
    const writes = this.#keeper.settled();
    return writes === undefined ? this.#save(superstep) : writes.then(() => this.#save(superstep));
  }

  /** The superstep threw, or paused at interrupts (then its checkpoint is an `interrupt` one); its pending writes are stored first. */
  async #superstepFailed(error: unknown): Promise<undefined> {
    try {
      // A resume value its interrupt's schema refused: the InterruptError itself, naming the interrupt.
      if (error instanceof GraphExecutionError && error.cause instanceof InterruptError) throw error.cause;
      if (!(error instanceof SuperstepPaused)) this.#keeper.failed(error, this.#writer.current);
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
    if (this.#writer.durability === "exit") {
      // Nothing is stored before the run's end: they go then (see #advanced).
      this.#doneChildren.push(...children);
      children.clear();
      return undefined;
    }
    return this.#drop([...children], home);
  }

  async #drop(ids: readonly string[], home: SubgraphHome): Promise<void> {
    const { children } = this.#host;
    children.clear();
    await this.#writer.flush();
    await this.#deleteChildren(ids, home);
  }

  async #deleteChildren(ids: readonly string[], home: SubgraphHome): Promise<void> {
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

/**
 * The fields of a new run's first state that are JSON already: the input's, checked as it came in, and
 * the thread's state's, checked when it was stored; not a field a reducer merged the input into (its
 * result is new data). So a threaded \`invoke\` checks its input once.
 */
function checkedFields(graph: ExecutableGraph, base: Checkpoint | undefined, input: State): ReadonlySet<string> {
  if (base === undefined) return new Set(Object.keys(input));
  const merged = Object.keys(input).filter((field) => graph.reducers.has(field));
  const fields = new Set([...Object.keys(base.state), ...Object.keys(input)]);
  for (const field of merged) fields.delete(field);
  return fields;
}
