// Module hooks that make the optional peers look uninstalled: resolving `openai`, `ai` or
// `@opentelemetry/api` (or one of their subpaths) fails as resolving a missing package does.
const HIDDEN = ["openai", "ai", "@opentelemetry/api"];

export async function resolve(specifier, context, next) {
  if (HIDDEN.some((name) => specifier === name || specifier.startsWith(`${name}/`))) {
    throw Object.assign(new Error(`Cannot find package '${specifier}' (hidden by test/examples/_hidden-peers-hooks.mjs)`), {
      code: "ERR_MODULE_NOT_FOUND",
    });
  }
  return next(specifier, context);
}
