/**
 * The type-level reachability search, shared by the chained builder and `defineGraph`. Its input is
 * the graph's edges as a union of `[from, to]` pairs (either side may be a union: a join, a fan-out,
 * a route's destinations); its output is the set of reached node names, or {@link TooDeep}.
 *
 * Two choices make it reach deep graphs cheaply:
 * - The pairs are turned into an adjacency table once (one mapped type with a key remap, so one pass
 *   over the pairs). A BFS layer is then one indexed access, `Adjacency[Frontier]`, instead of a scan
 *   of every pair: the search costs O(nodes + edges), not O(layers × edges).
 * - Each recursion level explores four layers, and the recursive call is the whole
 *   branch of a conditional type with the frontier and the visited set as type parameters, so the
 *   compiler runs it as a loop (tail-call optimisation, at most 1,000 iterations). A depth counter stops
 *   it well before that limit with an explicit marker, never a TS2589.
 */

/** How many BFS layers the type-level search explores before it gives up with an explicit message. */
export type MaxTypeLevelDepth = 2000;

/** The recursion levels {@link MaxTypeLevelDepth} allows: 2000 layers, 4 per level (the loop stops at 1,000). */
type MaxLevels = 500;

declare const tooDeep: unique symbol;
/** The marker a reachability search returns when the graph is deeper than {@link MaxTypeLevelDepth}. */
export type TooDeep = typeof tooDeep;

/** Source → every node one of its pairs leads to. */
export type Successors<E> = {
  [P in E as P extends readonly [infer From extends PropertyKey, unknown] ? From : never]: P extends readonly [unknown, infer To]
    ? To
    : never;
};

/** Destination → every node one of its pairs comes from. */
export type Predecessors<E> = {
  [P in E as P extends readonly [unknown, infer To extends PropertyKey] ? To : never]: P extends readonly [infer From, unknown]
    ? From
    : never;
};

/**
 * The nodes one layer after `Frontier`, minus the nodes already seen. `Keys` is `keyof Adjacency`,
 * computed once by the caller: for a mapped type with a key remap, each `keyof` walks every pair again.
 * `Extract<Frontier, Keys>`, not `Frontier & Keys`: an intersection of two unions is their cross
 * product, every key for each node of the frontier, so O(nodes) per layer and O(nodes²) per search.
 */
type Next<Adjacency, Keys extends keyof Adjacency, Frontier, Seen> = Exclude<Adjacency[Extract<Frontier, Keys>], Seen>;

/**
 * The search loop: four layers, then the recursive call in tail position. A frontier that empties
 * within a level stays empty (`Next` of `never` is `never`), so the level ends cleanly.
 */
type Search<Adjacency, Keys extends keyof Adjacency, Frontier, Seen, Level extends unknown[]> = [Frontier] extends [never]
  ? Seen
  : Level["length"] extends MaxLevels
    ? TooDeep
    : Next<Adjacency, Keys, Frontier, Seen | Frontier> extends infer F1
      ? Next<Adjacency, Keys, F1, Seen | Frontier | F1> extends infer F2
        ? Next<Adjacency, Keys, F2, Seen | Frontier | F1 | F2> extends infer F3
          ? Search<
              Adjacency,
              Keys,
              Next<Adjacency, Keys, F3, Seen | Frontier | F1 | F2 | F3>,
              Seen | Frontier | F1 | F2 | F3,
              [...Level, unknown]
            >
          : never
        : never
      : never;

/** Runs {@link Search} on an adjacency table, its keys computed once. */
type SearchFrom<Adjacency, From> = Search<Adjacency, keyof Adjacency, From, never, []>;

/** Every node reachable from `From` along the pairs `E` (`From` included), or {@link TooDeep}. */
export type ReachForward<E, From> = SearchFrom<Successors<E>, From>;

/** Every node that can reach `To` along the pairs `E` (`To` included), or {@link TooDeep}. */
export type ReachBackward<E, To> = SearchFrom<Predecessors<E>, To>;
