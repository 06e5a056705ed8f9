/**
 * What a subgraph node hands its parent by default (shared state): the fields the child's nodes wrote,
 * each folded with the child's reducer for that field, so an `append` field receives only the new items.
 * Folded a superstep at a time, so a child thread can keep the fold in its checkpoints and a resumed
 * child still returns what its earlier supersteps wrote.
 */
import type { ReducerTable } from "./merge.js";
import type { State } from "./step.js";

/** `into` with the updates of `steps` folded in (a new object; `into` is not changed). */
export function foldUpdates(reducers: ReducerTable, into: State, steps: readonly { readonly update: State }[]): State {
  const update: State = { ...into };
  for (const step of steps) {
    for (const [field, value] of Object.entries(step.update)) {
      const reducer = reducers.get(field);
      update[field] = reducer !== undefined && Object.hasOwn(update, field) ? reducer(update[field], value) : value;
    }
  }
  return update;
}
