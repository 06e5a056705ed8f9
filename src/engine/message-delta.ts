/**
 * Token streaming: a node (a model adapter) writes each text delta of a message as it arrives, and
 * `stream(input, { streamMode: "messages" })` yields them. The node's committed update is unchanged (the
 * whole message), so a run's result is the same whether anyone streams it or not.
 */

/**
 * One piece of a message's text, written with `context.writer(new MessageDelta(messageId, delta))`. The
 * `messages` stream mode yields it as `{ node, delta, messageId }`; the `custom` mode does not.
 *
 * @example
 * ```ts
 * builder.addNode("model", async (s, { writer }) => {
 *   let text = "";
 *   for await (const token of tokens(s.question)) {
 *     writer(new MessageDelta("answer-1", token));
 *     text += token;
 *   }
 *   return { answer: text };
 * });
 * ```
 */
export class MessageDelta {
  /** The message the delta belongs to: the deltas of one message share it, in order. */
  readonly messageId: string;
  /** The text that arrived. */
  readonly delta: string;

  constructor(messageId: string, delta: string) {
    this.messageId = messageId;
    this.delta = delta;
  }
}
