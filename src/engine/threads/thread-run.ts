/**
 * Threaded runs: a run that saves a checkpoint after every superstep, resumes from one, and pauses at
 * interrupts. `CompiledGraph` delegates here; without a `threadId` the engine never enters this file.
 * The rules (where to pause, what a superstep means) are the kernel's; this driver saves and keeps time.
 */
import { GraphExecutionError } from "../../errors.js";
import { staticPause } from "../kernel/pauses.js";
import type { Run } from "../run.js";
import { unreadableInput } from "../run-checks.js";
import type { Step } from "../run-types.js";
import type { State } from "../step.js";
import type { Checkpoint, JsonValue } from "../checkpointer.js";
import { findNonJson } from "../json-check.js";
import type { WriteKeeper } from "./pending-writes.js";
import { InterruptError, type InterruptHost, SuperstepPaused, type SubgraphHome } from "../interrupt-scope.js";
import { andThen, settle, type MaybePromise } from "../maybe-promise.js";
import type { StepRecord } from "../step-record.js";
import { answersToKeep } from "./resume.js";
import type { ReducerTable } from "../merge.js";
import { foldUpdates } from "../subgraph-output.js";
import type { ThreadWriter } from "./writer.js";
import { resultOf, stepsOf, type CommittedSuperstep } from "./thread-result.js";
import type { ChildThread, Interrupt, ThreadRunResult, ThreadSettings } from "./types.js";
import { openThread, type OpenedThread, type ThreadOpening } from "./thread-open.js";

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
  /** The nodes of the superstep just committed, until the boundary after it is decided (none at the start). */
  #ran: readonly string[] = [];
  #interrupt: Interrupt | undefined;
  readonly #host: InterruptHost;
  /** A child thread's reducers: each superstep's updates are folded into its checkpoints' `subgraphUpdate`. */
  readonly #fold: ReducerTable | undefined;
  /** A subgraph task's thread, whose answers its parent keeps. */
  readonly #child: boolean;
  /** Exit mode: the child threads of committed supersteps, deleted once the run's checkpoints are stored. */
  #doneChildren: string[] = [];

  private constructor({ run, writer, keeper, settings, resuming, host, fold }: OpenedThread) {
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
      return new ThreadRun(await openThread(opening));
    } catch (error) {
      // A Proxy input that throws when read (revoked, or a throwing trap) is the caller's fault, coded.
      throw unreadableInput(opening.api, "input", opening.input, error);
    }
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
    // One static-interrupt decision per boundary: after the last superstep's nodes, else before the next one's.
    const boundary = staticPause(this.#settings, this.#ran, run.pending ?? [], this.#resuming);
    this.#resuming = false;
    this.#ran = [];
    if (boundary !== undefined) {
      this.#interrupt = boundary;
      run.observeInterrupt(boundary);
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
    const ran = records.map((record) => record.node);
    const written = this.#writer.write(run, "loop", ran, records);
    return andThen(written, () =>
      andThen(this.#dropChildren(), () => {
        this.#ran = ran;
        return superstep;
      }),
    );
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
