/**
 * A node that returns a list of `Command`s (LangGraph.js allows it): each Command is checked as if the
 * node had returned it alone, their updates apply in the list's order and their gotos are all taken.
 *
 * The list becomes one update, so that everything that carries a node's update (pending writes, a
 * cached update, a DBOS step record, the LangGraph wrapper) keeps carrying one. When no field is
 * written by two of the Commands, that update is their fields together, exactly what one Command
 * writing them all would give. When a field is written twice, the parts stay apart in order under the
 * reserved key {@link UPDATES}: the kernel's `commit` merges them one after the other (a reducer
 * field sees each write; a field without a reducer written twice is a `CONCURRENT_WRITE`, as
 * LangGraph's `LastValue` channel refuses a second value in one step).
 */
import { describeValue, quote } from "../_describe.js";
import type { AnyCommand } from "./command.js";
import { GOTO, gotoOf, isNodeCommand, withoutGoto } from "./command-goto.js";
import { isHandoff } from "./command-parent.js";

type State = Record<string, unknown>;

/** The update key under which the parts of a list of Commands travel when a field is written by several of them. */
export const UPDATES = "__updates__";

/** Whether a node returned a list that holds a Command (the list form, checked by {@link commandListOutput}). */
export function isCommandList(value: unknown): value is readonly unknown[] {
  return Array.isArray(value) && value.some(isNodeCommand);
}

/**
 * The one update a list of Commands stands for. `accept` checks one Command as a node's return (its
 * goto against the node's ends, its fields) and gives its update with its goto; `fail` builds the
 * step's `INVALID_UPDATE` for a member that is not a Command.
 */
export function commandListOutput(
  node: string,
  list: readonly unknown[],
  accept: (command: AnyCommand) => State,
  fail: (message: string) => Error,
): State {
  const outputs = list.map((member, index) => {
    if (!isNodeCommand(member)) {
      throw fail(
        `node ${quote(node)} returned a list of Commands holding ${describeValue(member)} at index ${index}; ` +
          `every member is a Command: write an update as new Command({ update }).`,
      );
    }
    return accept(member);
  });
  if (outputs.length === 1) return outputs[0] as State;
  const parts = outputs.map(withoutGoto);
  const goto = outputs.flatMap((output) => gotoOf(output) ?? []);
  const update = writtenOnce(parts) ? Object.assign({}, ...parts) : { [UPDATES]: parts };
  return goto.length === 0 ? update : { ...update, [GOTO]: goto };
}

function writtenOnce(parts: readonly State[]): boolean {
  const seen = new Set<string>();
  for (const part of parts) {
    for (const key of Object.keys(part)) {
      if (seen.has(key)) return false;
      seen.add(key);
    }
  }
  return true;
}

/**
 * The updates to merge, in order, for a node's update without its goto: its parts when it returned a
 * list of Commands that wrote a field twice, else the update itself.
 */
export function updateParts(update: State): readonly State[] {
  return listedParts(update) ?? [update];
}

/** The parts of an update from a list of Commands that wrote a field twice, or `undefined` for any other update (no list built for it). */
export function listedParts(update: State): readonly State[] | undefined {
  return Object.hasOwn(update, UPDATES) ? (update[UPDATES] as readonly State[]) : undefined;
}

/**
 * A node's update as a caller reads it (a step's `update`, a stream chunk, an error's pending writes):
 * the parts of a list of Commands together, a field written by several showing the last write (the
 * committed state has every write merged through the reducers). The same object for any other update.
 */
export function visibleUpdate(update: State): State {
  return Object.hasOwn(update, UPDATES) ? Object.assign({}, ...updateParts(update)) : update;
}

/**
 * A node's update as a foreign loop takes it apart (the LangGraph wrapper): its update without the goto,
 * the parts to write in order (one, unless a list of Commands wrote a field twice), and the goto's tasks.
 */
export function nodeOutput(output: State): {
  readonly update: State;
  readonly parts: readonly State[];
  readonly goto: ReturnType<typeof gotoOf>;
  /** Whether the node handed off to the parent graph (`Command.PARENT`): its superstep commits nothing (kernel/handoff.ts). */
  readonly handoff: boolean;
} {
  const update = withoutGoto(output);
  return { update, parts: updateParts(update), goto: gotoOf(output), handoff: isHandoff(output) };
}
