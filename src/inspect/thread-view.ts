/** The JSON the page reads about threads: a history timeline, one checkpoint with its diff, a coverage overlay. */
import { coverageReport } from "../coverage/index.js";
import type { GraphSpec } from "../index.js";
import type { Checkpoint } from "../persistence/index.js";
import { diagramOf } from "../render/_diagram.js";
import { diffStates, type StateChange } from "./diff.js";

/** One row of a thread's timeline. */
export interface CheckpointSummary {
  readonly id: string;
  readonly parentId: string | null;
  readonly step: number;
  readonly source: string;
  readonly writes: readonly string[];
  readonly next: readonly string[];
  readonly createdAt: string;
}

/** One checkpoint as the page shows it: its state, and what changed since its parent. */
export interface CheckpointDetail extends CheckpointSummary {
  readonly state: unknown;
  readonly trace: readonly string[];
  /** The changes from the parent's state; every field `added` for a thread's first checkpoint. */
  readonly diff: readonly StateChange[];
  /** The interrupt nodes it waits at. */
  readonly paused: readonly string[];
}

/** A checkpoint's timeline row. */
export function summaryOf(checkpoint: Checkpoint<object>): CheckpointSummary {
  const { id, parentId, step, next, createdAt, metadata } = checkpoint;
  return { id, parentId, step, source: metadata.source, writes: metadata.writes, next, createdAt };
}

/**
 * A checkpoint with its diff against `parent` (`undefined` for a thread's first).
 *
 * @example
 * ```ts
 * detailOf(checkpoint, await checkpointer.get(threadId, checkpoint.parentId), []).diff;
 * ```
 */
export function detailOf(
  checkpoint: Checkpoint<object>,
  parent: Checkpoint<object> | undefined,
  paused: readonly string[],
): CheckpointDetail {
  return {
    ...summaryOf(checkpoint),
    state: checkpoint.state,
    trace: checkpoint.trace,
    diff: diffStates(parent?.state ?? {}, checkpoint.state),
    paused,
  };
}

/** The coverage overlay: the report's figures, and which of the SVG's links (by `data-link`) no run took. */
export interface CoverageOverlay {
  readonly covered: number;
  readonly total: number;
  readonly runs: number;
  /** The `data-link` indices of the links no run took. */
  readonly missedLinks: readonly number[];
  /** The transitions no run took, as the report labels them. */
  readonly missing: readonly string[];
  readonly threads: readonly string[];
}

/**
 * Coverage of the threads' runs so far (each thread's latest checkpoint holds its whole trace and routes),
 * from `coverageReport`. Throws the report's `CoverageError` when a thread is not a run of this graph.
 *
 * @example
 * ```ts
 * coverageOverlay(graph.spec, [await checkpointer.latest("t1")]).missing; // ["check_draft [hold] → hold", …]
 * ```
 */
export function coverageOverlay(spec: GraphSpec, latest: readonly Checkpoint<object>[]): CoverageOverlay {
  const report = coverageReport({ spec }, latest);
  const diagram = diagramOf(spec, report, "inspect");
  return {
    covered: report.covered,
    total: report.total,
    runs: report.runs,
    missedLinks: diagram.links.flatMap((link, index) => (link.missed ? [index] : [])),
    missing: report.missing.map((t) => t.label),
    threads: latest.map((c) => c.threadId),
  };
}
