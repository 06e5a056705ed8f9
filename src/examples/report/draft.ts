/** What a brief should contain, derived from the collected readings, and how it reads on the page. */
import { fahrenheit, formatTenths } from "./data.js";
import type { Draft, DraftRow, ReportState } from "./state.js";

/**
 * The rows a correct draft has: one per requested city, in request order, from that city's
 * reading, with °F computed from the collected °C when Fahrenheit is on. `undefined` when the
 * readings do not cover exactly the requested cities (nothing collected yet, a city missing or extra).
 *
 * @example
 * ```ts
 * expectedRows({ ...state, cities: ["Tokyo"], includeFahrenheit: true, readings: [tokyo] });
 * // [{ city: "Tokyo", temperature_c: 18, temperature_f: 64.4, condition: "cloudy" }]
 * ```
 */
export function expectedRows(state: Pick<ReportState, "cities" | "includeFahrenheit" | "readings">): DraftRow[] | undefined {
  if (state.readings.length !== state.cities.length) return undefined;
  const rows: DraftRow[] = [];
  for (const city of state.cities) {
    const reading = state.readings.find((r) => r.city === city);
    if (reading === undefined) return undefined;
    rows.push({
      city,
      temperature_c: reading.temperature_c,
      temperature_f: state.includeFahrenheit ? fahrenheit(reading.temperature_c) : null,
      condition: reading.condition,
    });
  }
  return rows;
}

/**
 * The published text: one line per row, then the notice line.
 *
 * @example
 * ```ts
 * renderBrief(draft);
 * // "Tokyo: 18.0°C / 64.4°F, cloudy.\nParis: 12.0°C / 53.6°F, light rain.\nFixed teaching data, not live weather."
 * ```
 */
export function renderBrief(draft: Draft): string {
  return [...draft.rows.map(renderRow), draft.notice].join("\n");
}

function renderRow(row: DraftRow): string {
  const units =
    row.temperature_f === null
      ? `${formatTenths(row.temperature_c)}°C`
      : `${formatTenths(row.temperature_c)}°C / ${formatTenths(row.temperature_f)}°F`;
  return `${row.city}: ${units}, ${row.condition}.`;
}
