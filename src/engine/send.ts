/**
 * `Send(node, input)`: a router's way to fan out dynamically. Returning a list of Sends runs `node`
 * once per Send, all in the next superstep, each with its own input instead of the graph state.
 * Their updates merge into the graph state like any other node's.
 *
 * @example
 * ```ts
 * builder.addConditionalEdges("plan", (s) => s.documents.map((doc) => new Send("summarize", { doc })), ["summarize"]);
 * ```
 */
export class Send<const Node extends string = string, Input = unknown> {
  readonly node: Node;
  readonly input: Input;
  constructor(node: Node, input: Input) {
    this.node = node;
    this.input = input;
  }
}
