/**
 * The kernel's rules for static interrupts (`compile({ interruptBefore, interruptAfter })`): where a
 * threaded run pauses between supersteps, and why a child graph never does. Every driver that pauses
 * (the thread runner, the DBOS workflow, the LangGraph runner reading LangGraph's pause) asks here.
 */
import { InvalidOptionError } from "../../errors.js";

/** The nodes a graph was compiled to pause at: what `compile()` fixed for threaded runs. */
export interface StaticInterrupts {
  readonly interruptBefore: ReadonlySet<string>;
  readonly interruptAfter: ReadonlySet<string>;
}

/** A pause between supersteps: before the nodes of the next one, or after nodes of the last one. */
export interface StaticPause {
  readonly when: "before" | "after";
  /** The nodes it paused at, each once, in the order they were scheduled. */
  readonly nodes: string[];
}

/**
 * Whether the next superstep pauses before it starts: some of its tasks run `interruptBefore` nodes.
 * A run resumed at that point does not (resuming is the go-ahead), and neither does a run that is over.
 *
 * @example
 * ```ts
 * pauseBefore({ interruptBefore: new Set(["publish"]), interruptAfter: new Set() }, [{ node: "publish" }], false);
 * // { when: "before", nodes: ["publish"] }
 * ```
 */
export function pauseBefore(
  settings: StaticInterrupts,
  tasks: readonly { readonly node: string }[],
  resuming: boolean,
): StaticPause | undefined {
  if (resuming || settings.interruptBefore.size === 0) return undefined;
  const nodes = unique(tasks.map((task) => task.node).filter((node) => settings.interruptBefore.has(node)));
  return nodes.length === 0 ? undefined : { when: "before", nodes };
}

/**
 * Whether the run pauses after the superstep that ran `ran`: some of them are `interruptAfter` nodes,
 * and some work is left (`next` is not empty: a run that reached END has nothing to pause before).
 *
 * @example
 * ```ts
 * pauseAfter({ interruptBefore: new Set(), interruptAfter: new Set(["draft"]) }, ["draft"], [{ node: "review" }]);
 * // { when: "after", nodes: ["draft"] }
 * ```
 */
export function pauseAfter(
  settings: StaticInterrupts,
  ran: readonly string[],
  next: readonly { readonly node: string }[],
): StaticPause | undefined {
  if (next.length === 0 || settings.interruptAfter.size === 0) return undefined;
  const nodes = unique(ran.filter((node) => settings.interruptAfter.has(node)));
  return nodes.length === 0 ? undefined : { when: "after", nodes };
}

/**
 * The static-interrupt decision at the boundary between two supersteps, asked once there: after the
 * last superstep's `interruptAfter` nodes (`ran`; none at a run's start or after a resume) when work is
 * left, else before the next superstep's `interruptBefore` nodes (`next`). A run resumed at the
 * boundary does not pause there again (resuming is the go-ahead).
 *
 * @example
 * ```ts
 * staticPause(settings, ["draft"], [{ node: "review" }], false); // { when: "after", nodes: ["draft"] } when draft is an interruptAfter node
 * staticPause(settings, [], [{ node: "publish" }], true); // undefined: the run resumed here
 * ```
 */
export function staticPause(
  settings: StaticInterrupts,
  ran: readonly string[],
  next: readonly { readonly node: string }[],
  resuming: boolean,
): StaticPause | undefined {
  if (resuming) return undefined;
  return pauseAfter(settings, ran, next) ?? pauseBefore(settings, next, false);
}

/**
 * The refusal of a child graph compiled with static interrupts, run as a subgraph task on a thread:
 * they pause only a top-level graph (a child pauses by calling `interrupt()`). `undefined` when the
 * child has none. `node` names the parent's task in the message, when the caller knows it.
 *
 * @example
 * ```ts
 * const refusal = childPauseRefusal("subgraph", undefined, threadSettingsOf(child));
 * if (refusal !== undefined) throw refusal;
 * ```
 */
export function childPauseRefusal(api: string, node: string | undefined, child: StaticInterrupts): InvalidOptionError | undefined {
  const nodes = [...child.interruptBefore, ...child.interruptAfter];
  if (nodes.length === 0) return undefined;
  const which = node === undefined ? "the child graph" : `the child graph of "${node}"`;
  return new InvalidOptionError(
    `${api}: ${which} was compiled with interruptBefore/interruptAfter (${nodes.join(", ")}), which pause only a top-level graph. ` +
      "Call interrupt() in the child's node instead, or compile the child without them.",
  );
}

function unique(nodes: readonly string[]): string[] {
  return [...new Set(nodes)];
}
