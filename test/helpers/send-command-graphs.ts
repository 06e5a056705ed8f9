/**
 * A `Command` as a `Send`'s input (LangGraph.js 1.7.3's "should handle send sequences correctly",
 * libs/langgraph-core/src/tests/pregel.test.ts): node "1" Sends two Commands to "2" beside a plain
 * task of "3.1"; "2" returns the Command it got, with its own update, so its goto (a Send to "2" with a
 * number) is taken; "2" is routed to "3" each time.
 */
import { append, Command, END, Send, START, StateGraph, type CompileOptions } from "../../src/index.js";

export interface Items {
  items: string[];
}

/** What node `name` writes: its name for a state, `name|command` for a Command, `name|<json>` for any other Send input. */
export function itemOf(name: string, input: unknown): string {
  if (input instanceof Command) return `${name}|command`;
  return Array.isArray((input as Partial<Items>).items) ? name : `${name}|${JSON.stringify(input)}`;
}

const node = (name: string) => (state: Items) => ({ items: [itemOf(name, state)] });

/** A Send to "2" whose input is a Command going back to "2" with `item`. */
function commandSend(item: number) {
  return new Send("2", new Command({ goto: new Send("2", item) }));
}

/** Node "2": its update, and the Command it got (a Send's input) returned with that update, so its goto is taken. */
function nodeTwo(state: Items): Partial<Items> | Command<unknown, Items, "2"> {
  const update = { items: [itemOf("2", state)] };
  if (!(state instanceof Command)) return update;
  const goto = (state.goto ?? []).flatMap((target) => (target instanceof Send ? [new Send("2", target.input)] : []));
  return new Command({ update, goto });
}

export function sendSequences(options: CompileOptions<"1" | "2" | "3" | "3.1", Items> = {}) {
  return new StateGraph<Items>({ reducers: { items: append }, fields: ["items"] })
    .addNode("1", node("1"))
    .addNode("2", nodeTwo, { ends: ["2"] })
    .addNode("3", node("3"))
    .addNode("3.1", node("3.1"))
    .addEdge(START, "1")
    .addConditionalEdges("1", () => [commandSend(3), commandSend(4), "3.1"], ["2", "3.1"])
    .addConditionalEdges("2", (): "3" => "3", ["3"])
    .addEdge("3", END)
    .addEdge("3.1", END)
    .compile(options);
}
