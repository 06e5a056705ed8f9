/** Why a live model cannot start, and loading an optional SDK package on first use. */
import { GraphError } from "../../../index.js";

/** The codes of a {@link LiveSetupError}, as data (docs/reference/errors.md lists them). */
export const LIVE_SETUP_CODES = ["MISSING_CREDENTIALS", "MISSING_SDK"] as const;
/** Why a live run cannot start: no credentials, or an optional SDK package is not installed. */
export type LiveSetupCode = (typeof LIVE_SETUP_CODES)[number];

/**
 * A live run cannot start: no credentials (`MISSING_CREDENTIALS`), or the optional `openai` or `ai`
 * package is missing (`MISSING_SDK`). There is never a fallback to the scripted model.
 *
 * @example
 * ```ts
 * try { readLiveSettings({}); } catch (e) { (e as LiveSetupError).code; } // "MISSING_CREDENTIALS"
 * ```
 */
export class LiveSetupError extends GraphError<LiveSetupCode> {
  override readonly name = "LiveSetupError";
}

/** The package an adapter loads on first use, and how the message names it. */
export interface OptionalPackage<T> {
  /** The API that needs it, the start of the message: `openLiveClient`, `AiSdkModel`. */
  readonly api: string;
  /** The package and the major version the adapter speaks: `"openai" (6.x)`. */
  readonly name: string;
  /** What to install: `openai@6`. */
  readonly install: string;
  readonly load: () => Promise<T>;
}

/**
 * Loads an optional peer package. When it is not installed, throws a {@link LiveSetupError}
 * (`MISSING_SDK`) that says how to install it; any other load failure is thrown as it is.
 *
 * @example
 * ```ts
 * const { OpenAI } = await loadOptionalPackage({ api: "openLiveClient", name: '"openai" (6.x)', install: "openai@6", load: () => import("openai") });
 * ```
 */
export async function loadOptionalPackage<T>(optional: OptionalPackage<T>): Promise<T> {
  try {
    return await optional.load();
  } catch (error) {
    const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") {
      throw new LiveSetupError(
        "MISSING_SDK",
        `${optional.api}: live runs need the optional package ${optional.name}. Install it with \`npm install ${optional.install}\`.`,
        { cause: error },
      );
    }
    throw error;
  }
}
