/**
 * The error the testing entry's assertions throw when the property they check does not hold: a graph
 * with sources that cannot reach END (`assertEveryNodeReachesEnd`), a reducer that breaks a law it
 * claims (`reducerLaws`). Exploration has its own class (`ExplorationError`), which carries the replay.
 */
import { GraphError } from "../errors.js";

/** The codes of a {@link PropertyViolation}, as data (docs/reference/errors.md is checked against it). */
export const PROPERTY_VIOLATION_CODES = ["END_UNREACHABLE", "LAW_BROKEN"] as const;

/**
 * The codes a {@link PropertyViolation} can carry: `END_UNREACHABLE`, START or a node has no path to END
 * (`assertEveryNodeReachesEnd`); `LAW_BROKEN`, a reducer broke a law it claims on the values fast-check
 * drew (`reducerLaws`).
 */
export type PropertyViolationCode = (typeof PROPERTY_VIOLATION_CODES)[number];

/**
 * A property a testing helper checks does not hold. The message names the API, what broke (the
 * sources with no path to END; the reducer, the law and both sides of it) and what to change.
 * `reducerLaws`' violations are thrown inside a fast-check property, so `fc.assert` reports them as the
 * `cause` of its own error, after shrinking.
 *
 * @example
 * ```ts
 * try { assertEveryNodeReachesEnd(spec); } catch (error) {
 *   if (error instanceof PropertyViolation && error.code === "END_UNREACHABLE") console.log(error.message);
 * }
 * ```
 */
export class PropertyViolation extends GraphError<PropertyViolationCode> {
  override readonly name = "PropertyViolation";
}
