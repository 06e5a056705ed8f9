/**
 * A graph's DBOS workflow: the mini engine's `Run` driven superstep by superstep, each task a DBOS step
 * (`_step.ts`), the merge, the routers and the kernel's checks in the workflow itself. DBOS replays the
 * workflow after a crash, so everything here must decide the same way again from the same recorded
 * steps: it does, because the kernel is pure and routers read only the state (keep them deterministic;
 * put anything random or external in a node).
 *
 * At an interrupt the workflow records where it stands as an event and waits for the resume message;
 * at END or a failure it records the outcome as the same kind of event (for graphs that pause) and
 * returns it.
 */
import { DBOS } from "@dbos-inc/dbos-sdk";
import { Run, threadSettingsOf, type ExecutableGraph, type State, type ThreadSettings } from "../engine/_kernel.js";
import type { Step } from "../engine/index.js";
import { recordError, type DBOSInterrupt, type Outcome, type RecordedRun } from "./_outcome.js";
import { durableTask } from "./_step.js";

/** The bounds a run was started with; stored with the workflow, so a recovered run keeps them. */
export interface StoredOptions {
  readonly maxSteps?: number;
  readonly recursionLimit?: number;
  readonly maxConcurrency?: number;
}

/** What a resume message carries: an update merged as if `asNode` had returned it, before the run goes on. */
export interface ResumeMessage {
  readonly update?: State;
  /** The node the update counts as (its router runs again on the updated state); none: the pending nodes stay. */
  readonly asNode?: string;
}

/** The API named in errors raised inside the workflow. */
export const API = "runOnDBOS";

/** The event holding the number of the run's latest stop. */
export const LATEST_EVENT = "tsg.latest";
/** The event recording stop number `pause`. */
export const pauseEvent = (pause: number): string => `tsg.pause.${pause}`;
/** The message topic that resumes stop number `pause`. */
export const resumeTopic = (pause: number): string => `tsg.resume.${pause}`;

/** How long one `recv` waits before waiting again: a paused run waits as long as it takes. */
const RECV_SECONDS = 24 * 60 * 60;

/** The workflow function of `graph`: `(input, options) => Outcome`. */
export function graphWorkflow(graph: object, executable: ExecutableGraph) {
  const settings = threadSettingsOf(graph);
  const pauses = pausesOf(graph);
  return async (input: State, options: StoredOptions): Promise<Outcome> => {
    let pause = 0;
    const stop = async (outcome: Outcome): Promise<Outcome> => {
      // Only a graph that can pause has callers waiting on events; the others read the workflow's result.
      if (pauses) {
        // The latest stop's number first: a caller that saw the stop's event can resume it at once.
        await DBOS.setEvent(LATEST_EVENT, outcome.pause);
        await DBOS.setEvent(pauseEvent(outcome.pause), outcome);
      }
      return outcome;
    };
    const steps: Step<State>[] = [];
    /** The nodes of the last superstep: an update without `asNode` counts as the one that ran last. */
    let last: readonly string[] = [];
    let run: Run;
    try {
      const settingsOfRun = { ...options, api: API, runTask: durableTask, threadId: DBOS.workflowID as string };
      run = new Run(executable, input, settingsOfRun);
      await run.begin();
      /** Where the last superstep's routes begin: an update counted as the node that ran last computes them again. */
      let routesBefore = 0;
      const resume = async (message: ResumeMessage): Promise<void> => {
        if (message.update === undefined && message.asNode === undefined) return;
        if (message.asNode !== undefined && last.length === 1 && last[0] === message.asNode) {
          run = Run.restore(executable, { ...run.snapshot(), routes: run.routes.slice(0, routesBefore) }, settingsOfRun);
        }
        await run.commitAs(message.asNode, message.update ?? {});
      };
      for (;;) {
        // Resuming is the go-ahead: the superstep the run paused before runs at once.
        const before = interruptBefore(settings, run);
        if (before !== undefined) await resume(await paused(stop, run, steps, last, before, pause++));
        routesBefore = run.routes.length;
        const superstep = await run.superstep();
        if (superstep === undefined) break;
        steps.push(...superstep);
        last = superstep.map((step) => step.node);
        const after = interruptAfter(settings, run, superstep);
        if (after !== undefined) await resume(await paused(stop, run, steps, last, after, pause++));
      }
    } catch (error) {
      return stop({ status: "failed", pause, error: recordError(error) });
    }
    return stop({ status: "done", pause, run: recordedRun(run, steps) });
  };
}

/** Whether `graph` was compiled with interrupts, so its runs can pause. */
export function pausesOf(graph: object): boolean {
  const settings = threadSettingsOf(graph);
  return settings.interruptBefore.size + settings.interruptAfter.size > 0;
}

/** Records the stop and waits for its resume message. */
async function paused(
  stop: (outcome: Outcome) => Promise<Outcome>,
  run: Run,
  steps: readonly Step<State>[],
  last: readonly string[],
  interrupt: DBOSInterrupt,
  pause: number,
): Promise<ResumeMessage> {
  await stop({ status: "interrupted", pause, run: recordedRun(run, steps), interrupt, last });
  for (;;) {
    const message = await DBOS.recv<ResumeMessage>(resumeTopic(pause), { timeoutSeconds: RECV_SECONDS });
    if (message !== null) return message;
  }
}

function interruptBefore(settings: ThreadSettings, run: Run): DBOSInterrupt | undefined {
  const nodes = (run.pending ?? []).map((task) => task.node).filter((node) => settings.interruptBefore.has(node));
  return nodes.length === 0 ? undefined : { when: "before", nodes: [...new Set(nodes)] };
}

function interruptAfter(settings: ThreadSettings, run: Run, superstep: readonly Step<State>[]): DBOSInterrupt | undefined {
  if ((run.pending?.length ?? 0) === 0) return undefined;
  const nodes = superstep.map((step) => step.node).filter((node) => settings.interruptAfter.has(node));
  return nodes.length === 0 ? undefined : { when: "after", nodes: [...new Set(nodes)] };
}

function recordedRun(run: Run, steps: readonly Step<State>[]): RecordedRun {
  return { state: run.state, trace: run.trace, steps: [...steps], routes: run.routes, supersteps: run.supersteps };
}
