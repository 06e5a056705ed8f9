/**
 * The type of the `fields` option: a list of every state field. The list is a literal written after
 * `new StateGraph<S>`, whose `S` is given explicitly, so no type parameter can capture it: the check is
 * its contextual type instead. An array-like type whose `length` is a number literal makes TypeScript
 * type the literal as a tuple, so a list that leaves a field out has the wrong length, and a name that
 * is not a field is not a member.
 */

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type LastOf<U> = UnionToIntersection<U extends unknown ? () => U : never> extends () => infer L ? L : never;

/** How many members a union has (tail-recursive: a state may have hundreds of fields). */
export type CountOf<U, Counted extends unknown[] = []> = [U] extends [never]
  ? Counted["length"]
  : CountOf<Exclude<U, LastOf<U>>, [...Counted, unknown]>;

/**
 * A list of every one of the state's `Count` fields, each a `Field`. A list one field short reads
 * `Type '["a", "b"]' is not assignable to type 'EveryStateField<"a" | "b" | "c", 3>'`: the list must
 * name all 3 fields.
 */
export interface EveryStateField<Field extends string, Count extends number> extends ReadonlyArray<Field> {
  readonly length: Count;
}

/**
 * What `fields` takes for state `S`: every field, each once (a repeated field is refused when the
 * builder is made). A state typed with an index signature (`Record<string, unknown>`) has no fixed
 * list, so any list of names is accepted there.
 */
export type FieldList<S> = string extends keyof S
  ? readonly string[]
  : [keyof S & string] extends [never]
    ? readonly string[]
    : EveryStateField<keyof S & string, CountOf<keyof S & string>>;
