/**
 * The shapes of the builder's type-level messages, shared by the chained builder, `route` and
 * `defineGraph`. A check turns into a type whose text is the message, so the compiler's error reads
 * as the problem and its fix.
 */
import type { Command, CommandMark } from "../engine/index.js";
import type { SlipMessages, UpdateSlips } from "./nested-keys.js";

/**
 * The key of every type-level error object (a call's result, `compile()`'s `this`, `defineGraph`'s
 * result and `edges`, a `bindSpec` router): one shape for the builder, `route`, `defineGraph` and
 * `bindSpec`, whose message starts with the API it concerns. A check on an argument is a
 * {@link Demand} instead, whose property name is the message itself.
 */
export type ErrorKey = "typed-state-graph error";

/** The one shape of a type-level error: a single property, {@link ErrorKey}, holding the message. */
export type TypeLevelError<Message> = { readonly [K in ErrorKey]: Message };

/** `"name"`: how messages quote a name. */
export type Quoted<X> = `"${X & string}"`;

/**
 * A required property whose name is the message. An argument that fails a check lacks it, so the
 * compiler prints `Property '<message>' is missing in type …`. Unlike a message in a value position,
 * it also rejects values typed `any`, and it keeps the other keys of an intersection usable.
 */
export type Demand<Message extends string> = { readonly [K in Message]: never };

/** The members of a union as a tuple-free check: `true` for a union of two or more members. */
export type IsUnion<T, All = T> = T extends unknown ? ([All] extends [T] ? false : true) : never;

/** Whether `T` is a single literal: not `string`, not a template pattern such as `` `n${number}` ``. */
export type IsLiteral<T extends string> = {} extends Record<T, 1> ? false : true;

/** Whether a name is empty or whitespace only. */
export type IsBlank<T extends string> = T extends "" ? true : T extends `${Whitespace}${infer Rest}` ? IsBlank<Rest> : false;

/** The characters a blank name is made of. */
export type Whitespace = " " | "\n" | "\t" | "\r";

/** The members of a tuple that occur more than once. */
export type Repeated<List extends readonly unknown[], Seen = never> = List extends readonly [infer Head, ...infer Tail]
  ? (Head extends Seen ? Head : never) | Repeated<Tail, Seen | Head>
  : never;

/** What a node's result cannot be: an update is an object of state fields, never a primitive, a list or a function. */
type NotAnUpdate = string | number | boolean | bigint | symbol | null | readonly unknown[] | ((...args: never[]) => unknown);

/** How a message names a result that is not an update. */
type Described<R> = R extends string
  ? "a string"
  : R extends number
    ? "a number"
    : R extends boolean
      ? "a boolean"
      : R extends bigint
        ? "a bigint"
        : R extends symbol
          ? "a symbol"
          : R extends null
            ? "null"
            : R extends readonly unknown[]
              ? "an array"
              : "a function";

/**
 * The check of a node's (awaited) result: a {@link Demand} naming the node and what it returns when
 * that can be a primitive or an array, else `unknown`. Without it the compiler explains the mismatch
 * with the methods of `String` or `Number` (it reads the result against the update's mapped type).
 * A result typed `any` is not checked, as elsewhere.
 */
export type NodeResultCheck<Api extends string, Name, R> = 0 extends 1 & R
  ? unknown
  : [NotAnUpdateOf<R>] extends [never]
    ? unknown
    : Demand<`${Api}: node ${Quoted<Name>} ${[Exclude<R, NotAnUpdateOf<R>>] extends [never] ? "returns" : "can return"} ${Described<NotAnUpdateOf<R>>}; a node returns a partial state (an object of the fields it writes${Extract<R, readonly unknown[]> extends never ? "" : ", e.g. { items: [...] } for a list field"}), a Command, or nothing`>;

/** The members of a result that are not updates: a list of Commands is one (a node may return several). */
type NotAnUpdateOf<R> = Exclude<Extract<R, NotAnUpdate>, readonly CommandMark[]>;

/** A result's Commands: the result itself, or the members of its list of Commands. */
type CommandsOf<R> = R extends readonly (infer Member)[] ? Member : R;

/**
 * The check of the keys of a node's (awaited) result: `unknown` when each is a field of `S`, else a
 * {@link Demand} naming the node and each key that is not. On the keys, so a value typed `any` (from
 * `JSON.parse`, `res.json()`) does not switch it off. Each member of a union result is read on its own
 * (`keyof` a union keeps only the keys common to all members); a Command, a primitive or an array is
 * {@link NodeResultCheck}'s to report.
 */
export type UnknownFieldCheck<Api extends string, Name, R, S> = 0 extends 1 & R
  ? unknown
  : [R extends CommandMark | NotAnUpdate ? never : R extends object ? Exclude<keyof R, keyof S> : never] extends [infer K]
    ? [K] extends [never]
      ? unknown
      : Demand<`${Api}: node ${Quoted<Name>} returns ${KeyName<K>}, which is not a field of the state; return only declared fields`>
    : unknown;

/** How a message names a key: a number key as written, a symbol key by its kind (it has no text). */
type KeyName<K> = K extends string ? Quoted<K> : K extends number ? Quoted<`${K}`> : "a symbol key";

/**
 * The members of a node's result that need the full checks ({@link ResultChecks}): each member with a
 * key that is not a field of `S` (a primitive, an array, a Promise, a Command, an unknown key), and
 * `null` and functions, which have no keys but are not updates. The common result, a partial state or
 * nothing, passes on one comparison of its keys; the full checks are about ten conditional types, a
 * third of a node's check on TS 6 (`npm run bench:types`). Distributed: `keyof` a union keeps only the
 * keys common to all members. Shared by `addNode` and `defineGraph`.
 */
export type NeedsResultChecks<R, S> = R extends null | ((...args: never[]) => unknown)
  ? R
  : [keyof R] extends [keyof S]
    ? false extends ValuesFit<R, S>
      ? R
      : never
    : R;

/** A partial state, as `StateUpdate` (types.ts) writes it: one instance per state, shared by every node's check. */
type PartialState<S> = { [K in keyof S]?: S[K] };

/**
 * Whether each value of a result member fits its field, `undefined` in a field that cannot hold it
 * excepted, read in one comparison (the common node passes it): the target keeps the result's own
 * optional keys, so only a required key is held to its field's type, `undefined` excluded with or
 * without `exactOptionalPropertyTypes`. {@link BadValueKeys} says which key, for the message.
 */
type ValuesFit<R, S> = R extends object
  ? undefined extends R[keyof R]
    ? [R] extends [{ [K in keyof R]: K extends keyof S ? S[K] : never }]
      ? true
      : false
    : // No value can be undefined (the common result): each value fits its field exactly when the result
      // is a partial state, a comparison with one type per state that every node shares, where the mapped
      // type above is built for each result.
      [R] extends [PartialState<S>]
      ? true
      : false
  : true;

/**
 * The keys of a result member (a required key, of a field of `S`, not typed `any`) whose value does
 * not fit: `undefined` where the field cannot hold it (`{ count: lookup[k]?.n }`, read the same with or
 * without `exactOptionalPropertyTypes`), or a value of another type (`{ status: "finished" }`). The
 * compiler rejects the second anyway, but its first line names only the node's whole type; this puts
 * the field in the message. An optional key (a result typed `Partial<S>`) is the compiler's to check.
 */
type BadValueKeys<R, S> = R extends CommandMark | NotAnUpdate
  ? never
  : R extends object
    ? {
        [K in keyof R]-?: K extends keyof S
          ? {} extends Pick<R, K>
            ? never
            : 0 extends 1 & R[K]
              ? never
              : BadValue<R[K], S[K], K>
          : never;
      }[keyof R]
    : never;

/** `K` when the value type `V` does not fit the field type `F`. */
type BadValue<V, F, K> = undefined extends V ? (undefined extends F ? never : K) : [V] extends [F] ? never : K;

/** The check of a result's values ({@link BadValueKeys}), one message per key: `undefined` for a required field, or a value of another type. */
export type ValueCheck<Api extends string, Name, R, S> = 0 extends 1 & R
  ? unknown
  : [BadValueKeys<R, S>] extends [never]
    ? unknown
    : Demand<ValueMessages<Api, Name, R, S, BadValueKeys<R, S>>>;

/** The message for each key of `K`. */
type ValueMessages<Api extends string, Name, R, S, K> = K extends keyof S & string
  ? R extends { readonly [P in K]: infer V }
    ? undefined extends V
      ? `${Api}: node ${Quoted<Name>} can return undefined for ${Quoted<K>}, which the state requires; give a value, or leave the field out of the update`
      : `${Api}: node ${Quoted<Name>} returns a value for ${Quoted<K>} that is not of the field's type; return a value of the state's type for ${Quoted<K>}`
    : never
  : never;

/** The checks of node `Name`'s result `R` (awaited here): {@link NodeResultCheck}, {@link UnknownFieldCheck} and {@link ResumeCheck}. */
export type ResultChecks<Api extends string, Name, R, S> = NodeResultCheck<Api, Name, Awaited<R>> &
  UnknownFieldCheck<Api, Name, Awaited<R>, S> &
  ValueCheck<Api, Name, Awaited<R>, S> &
  ResumeCheck<Api, Name, CommandsOf<Awaited<R>>> &
  WideGotoCheck<Api, Name, CommandsOf<Awaited<R>>>;

/**
 * A misspelled key inside a nested object of the result's update, or of its Commands' updates as given
 * (`nested-keys.ts` says which slips are sure): a {@link Demand} naming the key, its field and the key
 * meant, else `unknown`.
 */
export type NestedKeyCheck<Api extends string, Name, R, S> = 0 extends 1 & R
  ? unknown
  : UpdateSlips<GivenUpdates<R>, S> extends infer Slip
    ? [Slip] extends [never]
      ? unknown
      : Demand<SlipMessages<`${Api}: node ${Quoted<Name>} returns`, Slip>>
    : unknown;

/** The updates a result gives: itself (a partial state), or each Command's update as given (none when its type is written). */
type GivenUpdates<R> = R extends CommandMark | readonly CommandMark[]
  ? CommandsOf<R> extends infer C
    ? C extends Command<unknown, object, string, PropertyKey, unknown, infer Update>
      ? unknown extends Update
        ? never
        : Update
      : never
    : never
  : R;

/**
 * A node's Command whose goto is typed `string` (`new Command({ goto: next })`, `next: string`): the
 * compiler cannot tell which node it names, and its first line explained the node's whole type. The
 * message names the fix: a union of node names.
 */
export type WideGotoCheck<Api extends string, Name, R> = 0 extends 1 & R
  ? unknown
  : true extends (R extends CommandMark & { readonly goto: infer Goto } ? WideGoto<Goto> : never)
    ? Demand<`${Api}: node ${Quoted<Name>} returns a Command whose goto is typed string, which cannot be checked against its ends; type it as a union of names from its ends (const next: "publish" | typeof END)`>
    : unknown;

/** `true` when a Command's goto list (`readonly (G | Send<G>)[] | undefined`) holds a name typed `string`. */
type WideGoto<Goto> = Goto extends readonly (infer Target)[]
  ? string extends Target
    ? true
    : Target extends { readonly node: infer To }
      ? string extends To
        ? true
        : never
      : never
  : never;

/**
 * A node's Command gives no `resume` (it answers an interrupt, from `invoke`): a {@link Demand} when the
 * result's Command has a resume of a known type. A Command typed `Command<unknown, …>` (an annotation)
 * may hold none, so it is left to the run-time check (`INVALID_UPDATE`), as is a result typed `any`.
 */
export type ResumeCheck<Api extends string, Name, R> = 0 extends 1 & R
  ? unknown
  : [
        R extends CommandMark & { readonly resume: infer Resume } ? (unknown extends Resume ? never : Exclude<Resume, undefined>) : never,
      ] extends [never]
    ? unknown
    : Demand<`${Api}: node ${Quoted<Name>} returns a Command with resume; resume answers an interrupt, from invoke(new Command({ resume }), { threadId }). A node's Command takes update and goto`>;
