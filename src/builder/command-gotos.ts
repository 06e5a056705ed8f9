/**
 * A node's `Command` goto, checked against the nodes it names (issue 35 §2): a `Send`'s payload must be
 * its target's input, and a node that takes its own input is reached by `Send`, never by name (it would
 * run with the state as its input, its own fields `undefined`). A node's `ends` may name nodes declared
 * after it, so the builder records each destination in its edges `E` when the node is declared, and
 * `compile()` checks the records once every node's input is known. The run-time engine cannot check a
 * payload's type; this is the only check.
 */
import type { Command, Send } from "../engine/index.js";
import type { Quoted } from "./messages.js";
import type { InputOf, OwnInputNodes, PayloadMismatch } from "./node-inputs.js";

/**
 * The tags of the records in `E`: tuples of three and four elements, which the reachability search
 * (it reads `[from, to]` pairs) and the cycle check (its records have their own tags) skip, as they
 * skip `loops: "bounded"`'s record.
 */
type SentTag = "typed-state-graph: goto by Send";
type NamedTag = "typed-state-graph: goto by name";

/** What each Command a node can return was given as `goto` (`unknown` when not known: no goto, or written type arguments). */
type GotoGivenOf<R> = R extends Command<unknown, object, string, PropertyKey, infer Given> ? Given : never;

/** One destination of a goto: a name, a Send, or a member of a list of them. */
type Destination<Given> = Given extends readonly (infer D)[] ? D : Given;

/**
 * The records of node `Name`'s gotos: `[tag, node, target, payload]` for a Send whose payload type is
 * known, `[tag, node, target]` for a name. None for a node without `ends` (its Command may go nowhere,
 * and reading its result would cost every plain node a conditional type), nor for a result typed `any`.
 */
export type GotoRecords<Name extends string, F, Ends extends readonly string[]> = [Ends[number]] extends [never]
  ? never
  : F extends (...args: never[]) => infer R
    ? 0 extends 1 & R
      ? never
      : Destination<GotoGivenOf<Awaited<R>>> extends infer D
        ? D extends Send<infer Target extends string, infer Payload>
          ? unknown extends Payload
            ? never
            : readonly [SentTag, Name, Target, Payload]
          : D extends string
            ? readonly [NamedTag, Name, D]
            : never
        : never
    : never;

/**
 * The problems of the gotos recorded in `E`, as messages (without the API's name): a Send whose payload
 * is not its target's input (the state, for a node that reads the state), and a name that is a node
 * taking its own input.
 */
export type GotoProblems<E, S, I> = E extends readonly [SentTag, infer From, infer Target, infer Payload]
  ? [Payload] extends [InputOf<Target, S, I>]
    ? never
    : PayloadMismatch<`node ${Quoted<From>} returns a Command that sends ${Quoted<Target>} a payload`, Payload, InputOf<Target, S, I>>
  : E extends readonly [NamedTag, infer From, infer Target]
    ? Target extends OwnInputNodes<S, I>
      ? `node ${Quoted<From>} returns a Command whose goto names ${Quoted<Target>}, which takes its own input, not the state; go to it with new Send(${Quoted<Target>}, input)`
      : never
    : never;
