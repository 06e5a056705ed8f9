/**
 * The child workflow of a subgraph task (see `_child-frame.ts`): the child graph's `Run`, superstep by
 * superstep, each task a DBOS step of this workflow, from the child's input or from where it paused.
 * It returns where the child stopped, as data: at END its state and its nodes' folded updates; at its
 * interrupts where it stands; at a failure the error. Like the run's own workflow, everything here
 * decides the same way again when DBOS replays it from its recorded steps.
 */
import { Run, subgraphEntry, SuperstepPaused, type ExecutableGraph, type State } from "../engine/_kernel.js";
import { DBOSRunError } from "./errors.js";
import { DurableHost, type ChildOutcome, type ChildStart, type ChildStarter } from "./_child-frame.js";
import { recordError } from "./_outcome.js";
import { durableTask } from "./_step.js";
import { API, refusedResume } from "./_workflow.js";

/** The workflow function of the children of `graph`'s subgraph tasks, at any depth; `self` starts a grandchild. */
export function childWorkflow(graph: ExecutableGraph, self: () => ChildStarter) {
  return async (start: ChildStart): Promise<ChildOutcome> => {
    const { at } = start;
    try {
      const executable = childGraphAt(graph, start.path);
      const host = new DurableHost(start.path, start.threadId, self(), at?.children);
      host.answer(start.resumes, at?.interrupts ?? []);
      const settings = { ...start.limits, api: API, runTask: durableTask, threadId: start.threadId, interrupts: host };
      const run = at === undefined ? new Run(executable, start.input, settings) : Run.restore(executable, at.snapshot, settings, at.writes);
      await run.begin();
      let update: State = at?.update ?? {};
      for (;;) {
        const snapshot = run.snapshot();
        host.checkpointId = String(snapshot.supersteps + 1);
        let steps: Awaited<ReturnType<Run["superstep"]>>;
        try {
          steps = await run.superstep();
        } catch (error) {
          if (!(error instanceof SuperstepPaused)) throw error;
          const children = Object.fromEntries(host.pausedChildren);
          return { status: "interrupted", at: { snapshot, writes: error.writes, interrupts: error.interrupts, update, children } };
        }
        if (steps === undefined) return { status: "done", state: run.state, update };
        update = subgraphEntry.fold(executable.reducers, update, steps);
        host.answer({});
      }
    } catch (error) {
      // A resume value a schema refused is the refusal itself, at any depth: the top-level run pauses again where it stood.
      return { status: "failed", error: recordError(refusedResume(error) ?? error) };
    }
  };
}

/** The child graph `path` names: each a subgraph node of the graph above it. */
function childGraphAt(graph: ExecutableGraph, path: readonly string[]): ExecutableGraph {
  let current = graph;
  for (const node of path) {
    const child = subgraphEntry.graphOf(current.nodes.get(node))?.graph;
    if (child === undefined) {
      throw new DBOSRunError(
        "DBOS_RUN_STOPPED",
        `${API}: "${path.join("/")}" is not a subgraph of the registered graph; a child run recorded by another version of the graph cannot be continued. Register the same graph in every worker.`,
      );
    }
    current = child;
  }
  return current;
}
