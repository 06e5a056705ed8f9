/**
 * A node's error as a replayed step or a read result carries it: the recorded message only, since the
 * original error stayed in the process that ran the node. Its own file because the step recorder and the
 * outcome reader both revive it, and the outcome reader must not import the step recorder.
 */

/** What a node threw, as recorded by the process that ran it: its message only. */
export class RecordedError extends Error {
  override readonly name = "RecordedError";
}
