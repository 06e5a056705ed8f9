/** A spec with one node renamed everywhere it appears: what a new version that renamed it looks like. */
import type { GraphSpec } from "../../src/spec.js";

export function renameNode(spec: GraphSpec, from: string, to: string): GraphSpec {
  const name = (node: string) => (node === from ? to : node);
  const names = (nodes: readonly string[]) => nodes.map(name);
  return {
    ...spec,
    nodes: names(spec.nodes),
    edges: spec.edges.map((edge) => ({ from: name(edge.from), to: name(edge.to) })),
    routes: spec.routes.map((route) => ({
      ...route,
      from: name(route.from),
      paths: Object.fromEntries(Object.entries(route.paths).map(([key, node]) => [key, name(node)])),
    })),
    ...(spec.fanOuts === undefined ? {} : { fanOuts: spec.fanOuts.map((fan) => ({ from: name(fan.from), to: names(fan.to) })) }),
    ...(spec.joins === undefined ? {} : { joins: spec.joins.map((join) => ({ from: names(join.from), to: name(join.to) })) }),
    ...(spec.ends === undefined ? {} : { ends: spec.ends.map((ends) => ({ from: name(ends.from), to: names(ends.to) })) }),
    ...(spec.bounds === undefined
      ? {}
      : {
          bounds: spec.bounds.map((bound) => ({
            ...bound,
            node: name(bound.node),
            ...(bound.exit === undefined ? {} : { exit: name(bound.exit) }),
          })),
        }),
    ...(spec.subgraphs === undefined
      ? {}
      : { subgraphs: Object.fromEntries(Object.entries(spec.subgraphs).map(([node, child]) => [name(node), child])) }),
  };
}
