/**
 * Credentials and the SDK client for live runs. Settings come only from the environment passed in,
 * and the `openai` package is loaded on demand, so nothing here runs (or costs money) unless a
 * caller opts into a live run.
 */
import type { OpenAI } from "openai";
import { LiveSetupError, loadOptionalPackage } from "./setup-error.js";

/** The two OpenAI-compatible APIs the adapters speak. */
export const LIVE_APIS = ["chat", "responses"] as const;
/** `chat` (Chat Completions) or `responses` (the Responses API). */
export type LiveApi = (typeof LIVE_APIS)[number];

/** DeepSeek's OpenAI-compatible endpoint (Chat Completions and Responses). */
export const DEEPSEEK_BASE_URL = "https://api.deepseek.com";
/** The SDK's own default, passed explicitly so the process environment cannot redirect a run. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";

/** Environment variables, e.g. `process.env`. */
export type LiveEnv = Readonly<Record<string, string | undefined>>;

/** A `fetch` implementation; tests pass a mock so no request leaves the process. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Where and as whom a live run talks. */
export interface LiveSettings {
  readonly provider: "deepseek" | "openai-compatible";
  readonly apiKey: string;
  readonly model: string;
  readonly baseURL: string;
  /** The API used when the caller does not choose: Chat Completions for DeepSeek, Responses otherwise. */
  readonly defaultApi: LiveApi;
}

function present(env: LiveEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

/**
 * Reads the live settings: `DEEPSEEK_API_KEY` + `DEEPSEEK_MODEL` first, else `OPENAI_API_KEY` +
 * `OPENAI_MODEL` with an optional `OPENAI_BASE_URL` (any OpenAI-compatible provider).
 *
 * @example
 * ```ts
 * readLiveSettings({ DEEPSEEK_API_KEY: "sk-…", DEEPSEEK_MODEL: "deepseek-chat" }).defaultApi; // "chat"
 * ```
 */
export function readLiveSettings(env: LiveEnv): LiveSettings {
  const deepseekKey = present(env, "DEEPSEEK_API_KEY");
  if (deepseekKey !== undefined) {
    const model = present(env, "DEEPSEEK_MODEL");
    if (model === undefined) throw missing("DEEPSEEK_API_KEY is set but DEEPSEEK_MODEL is not; set it to a model id your account can use.");
    return { provider: "deepseek", apiKey: deepseekKey, model, baseURL: DEEPSEEK_BASE_URL, defaultApi: "chat" };
  }
  const openaiKey = present(env, "OPENAI_API_KEY");
  if (openaiKey !== undefined) {
    const model = present(env, "OPENAI_MODEL");
    if (model === undefined) throw missing("OPENAI_API_KEY is set but OPENAI_MODEL is not; set it to a model id your provider serves.");
    const baseURL = present(env, "OPENAI_BASE_URL") ?? OPENAI_BASE_URL;
    return { provider: "openai-compatible", apiKey: openaiKey, model, baseURL, defaultApi: "responses" };
  }
  throw missing(
    "no credentials. Set DEEPSEEK_API_KEY and DEEPSEEK_MODEL, or OPENAI_API_KEY and OPENAI_MODEL " +
      "(plus OPENAI_BASE_URL for another OpenAI-compatible provider).",
  );
}

function missing(detail: string): LiveSetupError {
  return new LiveSetupError("MISSING_CREDENTIALS", `readLiveSettings: ${detail}`);
}

/** An open SDK client. `close()` aborts any request in flight and refuses new ones. */
export interface LiveClient {
  readonly openai: OpenAI;
  readonly settings: LiveSettings;
  /** Pass it with every request, so `close()` reaches requests still in flight. */
  readonly signal: AbortSignal;
  readonly closed: boolean;
  close(): void;
}

/** Options of {@link openLiveClient}. */
export interface OpenLiveClientOptions {
  /** Replaces the global `fetch`: how tests keep every request in the process. */
  readonly fetch?: FetchLike;
  /** Loads the SDK; defaults to `import("openai")`. A seam for testing the missing-package message. */
  readonly loadSdk?: () => Promise<{ readonly OpenAI: typeof OpenAI }>;
}

/**
 * Loads `openai` and opens a client with no SDK retries (every attempt is a counted model step) and a
 * 30 s timeout per request (not a deadline for the whole run).
 *
 * @example
 * ```ts
 * const client = await openLiveClient(readLiveSettings(process.env));
 * try { … } finally { client.close(); }
 * ```
 */
export async function openLiveClient(settings: LiveSettings, options: OpenLiveClientOptions = {}): Promise<LiveClient> {
  const { OpenAI: Client } = await loadOptionalPackage({
    api: "openLiveClient",
    name: '"openai" (6.x)',
    install: "openai@6",
    load: options.loadSdk ?? (() => import("openai")),
  });
  const openai = new Client({
    apiKey: settings.apiKey,
    baseURL: settings.baseURL,
    // Explicit nulls: otherwise the SDK reads OPENAI_ORG_ID / OPENAI_PROJECT_ID from the process.
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: 30_000,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const controller = new AbortController();
  return {
    openai,
    settings,
    signal: controller.signal,
    get closed() {
      return controller.signal.aborted;
    },
    close() {
      controller.abort(new Error("openLiveClient: the client was closed."));
    },
  };
}
