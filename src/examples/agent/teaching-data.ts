/**
 * The fixed teaching records the agent's tools read: the report example's data, under the names the
 * agent's code uses.
 */
export {
  CITIES as TEACHING_CITIES,
  fahrenheit,
  isCity as isTeachingCity,
  LANGUAGES,
  NOTICES,
  TEACHING_RECORDS,
} from "../report/data.js";
export type { City as TeachingCity, Language, Reading as TeachingRecord } from "../report/state.js";
