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

/** What a resume message carries: an update merged before the run goes on (as `updateState` without `asNode`). */
export interface ResumeMessage {
  readonly update?: State;
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
        await DBOS.setEvent(pauseEvent(outcome.pause), outcome);
        await DBOS.setEvent(LATEST_EVENT, outcome.pause);
      }
      return outcome;
    };
    const steps: Step<State>[] = [];
    let run: Run;
    try {
      run = new Run(executable, input, { ...options, api: API, runTask: durableTask, threadId: DBOS.workflowID as string });
      await run.begin();
      for (;;) {
        // Resuming is the go-ahead: the superstep the run paused before runs at once.
        const before = interruptBefore(settings, run);
        if (before !== undefined) {
          const update = await paused(stop, run, steps, before, pause++);
          if (update !== undefined) await run.commitAs(undefined, update);
        }
        const superstep = await run.superstep();
        if (superstep === undefined) break;
        steps.push(...superstep);
        const after = interruptAfter(settings, run, superstep);
        if (after !== undefined) {
          const update = await paused(stop, run, steps, after, pause++);
          if (update !== undefined) await run.commitAs(undefined, update);
        }
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

/** Records the stop and waits for its resume message; resolves with the update it carries. */
async function paused(
  stop: (outcome: Outcome) => Promise<Outcome>,
  run: Run,
  steps: readonly Step<State>[],
  interrupt: DBOSInterrupt,
  pause: number,
): Promise<State | undefined> {
  await stop({ status: "interrupted", pause, run: recordedRun(run, steps), interrupt });
  for (;;) {
    const message = await DBOS.recv<ResumeMessage>(resumeTopic(pause), { timeoutSeconds: RECV_SECONDS });
    if (message !== null) return message.update;
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
