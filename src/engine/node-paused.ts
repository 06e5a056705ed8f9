/**
 * What `interrupt()` throws to stop its node until the run is resumed. Not a failure: the threaded
 * run's driver sees the task paused and pauses the run (a node that catches this still pauses), and the
 * kernel never retries it. Apart from the interrupt scope, so the kernel can name it without loading
 * `node:async_hooks`.
 */
export class NodePaused extends Error {
  override readonly name = "NodePaused";
}
