/**
 * What a node takes as its input, at the type level: the state, or its own parameter type for a node
 * that `Send` reaches. Shared by the route checks (`types.ts`) and a Command's goto (`command-gotos.ts`),
 * so a Send's payload is held to one rule wherever it is sent from.
 */
import type { Quoted } from "./messages.js";

/** The input a node reads: its parameter type when recorded in `I`, else the state. */
export type InputOf<K, S, I> = K extends keyof I ? I[K] : S;

/** The recorded nodes that do not read the state (the state is not assignable to their input): `Send` targets only. */
export type OwnInputNodes<S, I> = { [K in keyof I]: [S] extends [I[K]] ? never : K }[keyof I];

/**
 * Why a `Send`'s payload `P` is not its target's input `In`: a key the input does not have (a
 * misspelling), else a key it requires that the payload lacks, one message per key; else (a value of
 * another type) one message for the whole payload. One kind at a time: a misspelled key is most often
 * also the missing one, and one message prints as itself where a union prints as its alias's name.
 */
export type PayloadMismatch<Subject extends string, P, In> = [P extends object ? Exclude<keyof P, keyof In> : never] extends [never]
  ? [P extends object ? Exclude<RequiredKeys<In>, keyof P> : never] extends [never]
    ? `${Subject} that is not its input (its parameter type, or the state for a node that reads the state): a value's type differs`
    : KeyMessages<Subject, P extends object ? Exclude<RequiredKeys<In>, keyof P> : never, "without", "which its input requires">
  : KeyMessages<Subject, P extends object ? Exclude<keyof P, keyof In> : never, "with", "which its input does not have">;

/** One message per key of `K`. */
type KeyMessages<Subject extends string, K, Preposition extends string, Why extends string> = K extends string
  ? `${Subject} ${Preposition} ${Quoted<K>}, ${Why}`
  : never;

/** The keys `T` requires (not optional). */
type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];
