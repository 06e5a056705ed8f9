/** Output formats shared by the `tsg` subcommands, so every command (and every engine) prints alike. */

/**
 * The `--show-updates` line of one step: `<node> updated: <field>, <field>`, fields sorted.
 *
 * @example
 * ```ts
 * formatUpdateLine("collect", { readings: [], events: ["collected"] }); // "collect updated: events, readings"
 * ```
 */
export function formatUpdateLine(node: string, update: object): string {
  return `${node} updated: ${Object.keys(update).sort().join(", ")}`;
}
