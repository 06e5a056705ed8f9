/**
 * `stream` on the mini engine: the same run as `invoke`, yielding per-node steps (`updates`), the merged
 * state per superstep (`values`) and the nodes' own events (`custom`) as they happen. Custom events are
 * yielded the moment a node writes them, so they come before the updates of their superstep.
 */
import { quote } from "../_describe.js";
import { InvalidOptionError } from "../errors.js";
import type { ExecutableGraph } from "./executable.js";
import { Run } from "./run.js";
import { MessageDelta } from "./message-delta.js";
import type { CustomEvent, MessageStreamEvent, StreamMode, StreamOptions, SuperstepValues } from "./run-types.js";
import type { State } from "./step.js";
import { isThreadRun, threadRequired } from "./threads/thread-options.js";
import { ThreadRun } from "./threads/thread-run.js";
import type { ThreadRunOptions, ThreadSettings } from "./threads/types.js";

const MODES: readonly StreamMode[] = ["updates", "values", "custom", "messages"];

/** Which modes a stream yields, and whether it tags its chunks `[mode, payload]`. */
export interface StreamModes {
  readonly updates: boolean;
  readonly values: boolean;
  readonly custom: boolean;
  readonly messages: boolean;
  readonly tagged: boolean;
}

/** Checks `streamMode`: one mode, or a non-empty list of them. */
export function checkStreamMode(value: unknown, api = "stream"): StreamModes {
  if (value === undefined) return { updates: true, values: false, custom: false, messages: false, tagged: false };
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || list.length === 0 || !list.every((mode) => MODES.includes(mode as StreamMode))) {
    throw new InvalidOptionError(
      `${api}: streamMode must be "updates", "values", "custom", "messages" or a non-empty list of them; got ${quote(value)}.`,
    );
  }
  return {
    updates: list.includes("updates"),
    values: list.includes("values"),
    custom: list.includes("custom"),
    messages: list.includes("messages"),
    tagged: Array.isArray(value),
  };
}

/**
 * Runs a graph, yielding what its stream modes ask for as it happens. With a `threadId` the run is a
 * thread's, saved and paused exactly as `invoke` does; a graph compiled with interrupts or a
 * checkpointer refuses a stream without one, as `invoke` does.
 */
export async function* streamRun(
  graph: ExecutableGraph,
  input: unknown,
  options?: StreamOptions<StreamMode | readonly StreamMode[]> | (StreamOptions<StreamMode | readonly StreamMode[]> & ThreadRunOptions),
  threads: ThreadSettings = { interruptBefore: new Set(), interruptAfter: new Set() },
): AsyncGenerator<unknown> {
  const modes = checkStreamMode(options?.streamMode);
  // Written events, as the chunks they become: a MessageDelta is a "messages" chunk, anything else a "custom" one.
  const events: (readonly ["custom", CustomEvent] | readonly ["messages", MessageStreamEvent])[] = [];
  let wake: (() => void) | undefined;
  const sink =
    modes.custom || modes.messages
      ? (node: string, event: unknown, path?: readonly string[]): void => {
          if (event instanceof MessageDelta) {
            if (!modes.messages) return;
            events.push(["messages", { node, delta: event.delta, messageId: event.messageId }]);
          } else if (modes.custom) events.push(["custom", path === undefined ? { node, event } : { node, event, path }]);
          else return;
          wake?.();
        }
      : undefined;
  let run: Pick<Run, "superstep" | "state" | "supersteps" | "endObservation">;
  if (isThreadRun(options)) run = await ThreadRun.open({ graph, settings: threads, input, options, api: "stream", sink });
  else if (threads.checkpointer !== undefined || threads.interruptBefore.size > 0 || threads.interruptAfter.size > 0)
    throw threadRequired("stream", threads);
  else run = new Run(graph, input, { ...options, api: "stream", ...(sink === undefined ? {} : { sink }) });
  const chunk = (mode: StreamMode, payload: unknown): unknown => (modes.tagged ? [mode, payload] : payload);
  const written = (): unknown => {
    const [mode, payload] = events.shift() as (typeof events)[number];
    return chunk(mode, payload);
  };
  try {
    // As LangGraph's: the values stream begins with the state the run starts from (superstep 0, no nodes).
    if (modes.values) yield chunk("values", { superstep: run.supersteps, nodes: [], state: run.state } satisfies SuperstepValues<State>);
    for (;;) {
      const pending = run.superstep();
      let done = false;
      pending.then(
        () => {
          done = true;
          wake?.();
        },
        () => {
          done = true;
          wake?.();
        },
      );
      // Yield each custom event as soon as it is written, until the superstep settles.
      while (sink !== undefined) {
        while (events.length > 0) yield written();
        if (done) break;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
      const superstep = await pending;
      while (events.length > 0) yield written();
      if (superstep === undefined) return;
      if (modes.updates) for (const step of superstep) yield chunk("updates", step);
      if (modes.values) {
        const values: SuperstepValues<State> = { superstep: run.supersteps, nodes: superstep.map((s) => s.node), state: run.state };
        yield chunk("values", values);
      }
    }
  } finally {
    // A consumer that stops reading (break, return) leaves a run that never ends: its observation ends here.
    run.endObservation("abandoned");
  }
}
