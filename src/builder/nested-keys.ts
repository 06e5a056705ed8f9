/**
 * A misspelled key inside a nested object of an update (issue 35 §2): `{ messages: [{ role, toolcalls }] }`
 * where `Message` says `toolCalls?`. TypeScript reports it for a fresh literal checked against the
 * field's type, but a node's result is read after inference, where the literal is no longer fresh, and
 * the extra key is valid structural typing. An extra key in general cannot be reported: a variable of
 * a subtype (`ToolMessage extends Message` with its own `toolCallId`) has the same type as the literal,
 * and refusing it would be a false error. So only a sure slip is reported: a nested key the field's
 * type does not have, spelled like one of its keys that the value lacks, up to letter case, `_` and `-`
 * (`toolcalls`, `tool_calls` for `toolCalls`). No subtype adds a key that differs from one of its
 * parent's only by case or an underscore.
 */
/** What is read as a leaf: no keys to compare. */
type Leaf = string | number | boolean | bigint | symbol | null | undefined | ((...args: never[]) => unknown);

/**
 * How far into a value the keys are still compared, and the level below each. A union of levels, not
 * a number: a generic `D` reads as its constraint, and every level of the union counts down.
 */
type Lower = { readonly 4: 3; readonly 3: 2; readonly 2: 1; readonly 1: 0; readonly 0: never };
type Level = keyof Lower;

/** A key's spelling without letter case, `_` or `-`: `tool_calls`, `toolcalls` and `toolCalls` spell alike. */
type Spelling<K extends string> = string extends K
  ? K
  : K extends `${infer Head}${"_" | "-"}${infer Tail}`
    ? Spelling<`${Head}${Tail}`>
    : Lowercase<K>;

/** Every key of any member of a union of object types. */
type KeysOfAny<T> = T extends unknown ? keyof T : never;

/** The type of key `K` in the members of `T` that have it. */
type ValueOfAny<T, K> = T extends unknown ? (K extends keyof T ? T[K] : never) : never;

/**
 * The slips of value type `V` against field type `T`, as `[key, meant]` pairs: each key of an object in
 * `V` that `T`'s object types lack, spelled like a key of theirs that `V` lacks. Lists are read element
 * by element; a key both have is read on, `D` levels deep at most. Distributed over `V`, so that each
 * member of a union (each branch of a node) is read on its own.
 */
export type NestedSlips<V, T, D extends Level = 4> = D extends 0
  ? never
  : V extends Leaf
    ? never
    : V extends readonly (infer Element)[]
      ? NestedSlips<Element, Extract<T, readonly unknown[]> extends readonly (infer Held)[] ? Held : never, Lower[D]>
      : ObjectSlips<V, Exclude<T, Leaf | readonly unknown[]>, D>;

/**
 * {@link NestedSlips} of one object type `V` against the object types `T` (none: nothing to compare): its
 * keys that `T` lacks, read for a slip, then its values that are not leaves, read on. Each part is
 * skipped on one comparison when it has nothing to read (the common object: known keys, leaf values).
 */
type ObjectSlips<V, T, D extends Level> = [T] extends [never]
  ? never
  :
      | (Exclude<keyof V & string, KeysOfAny<T>> extends infer Extra extends string
          ? Extra extends unknown
            ? Meant<Extra, Exclude<KeysOfAny<T> & string, keyof V>>
            : never
          : never)
      | ([Exclude<V[keyof V], Leaf>] extends [never]
          ? never
          : {
              [K in keyof V & KeysOfAny<T> & string]-?: V[K] extends Leaf ? never : NestedSlips<V[K], ValueOfAny<T, K>, Lower[D]>;
            }[keyof V & KeysOfAny<T> & string]);

/** `[K, Y]` for each key `Y` of `Candidates` spelled as `K` is. */
type Meant<K extends string, Candidates extends string> = Candidates extends unknown
  ? Spelling<Candidates> extends Spelling<K>
    ? readonly [K, Candidates]
    : never
  : never;

/**
 * The slips of a result `R` (a partial state) against the state `S`, field by field, as `[field, key,
 * meant]`. Read only for a field whose value is not a leaf, so the common update (numbers, strings)
 * costs one comparison.
 */
export type UpdateSlips<R, S> = R extends object
  ? [R[keyof R]] extends [Leaf]
    ? never
    : {
        [K in keyof R & keyof S & string]-?: R[K] extends Leaf
          ? never
          : NestedSlips<R[K], S[K]> extends infer Slip
            ? Slip extends readonly [infer Key, infer Meant]
              ? readonly [K, Key, Meant]
              : never
            : never;
      }[keyof R & keyof S & string]
  : never;

/** The message of each slip, after `Subject` (the API and the node). */
export type SlipMessages<Subject extends string, Slip> = Slip extends readonly [
  infer Field extends string,
  infer Key extends string,
  infer Meant extends string,
]
  ? `${Subject} "${Key}" inside "${Field}", where the field's type has "${Meant}"; rename it to "${Meant}"`
  : never;
