// `node --import ./test/examples/_hidden-peers.mjs`: the optional peers look uninstalled (see _hidden-peers-hooks.mjs).
import { register } from "node:module";

register("./_hidden-peers-hooks.mjs", import.meta.url);
