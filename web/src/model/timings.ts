// One schedule's makespan under both timing models, as Compare shows them side by side: the dataflow
// ideal and the reference runtime (issue 15). Both numbers are the engine's, each from its own run of
// the same request; this module only pairs them and states the gap.
//
// It imports only types, so that it runs in Node's unit tests.

/** The timings the engine knows (`--timing`), in the order Compare shows them. */
export const TIMINGS = ['dataflow', 'reference'] as const;
export type TimingName = (typeof TIMINGS)[number];

/** The other timing than `timing`: what Compare asks for beside the page's own. */
export function otherTiming(timing: string): TimingName {
  return timing === 'reference' ? 'dataflow' : 'reference';
}

/** A run asked for under one timing, as the page keeps it: the engine's summary (its `timing` says
 *  which model it used) or its refusal, already worded. */
export type TimedRun = { summary: { makespan: number; timing: string } } | { error: string };

/** One timing's column: the makespan, the refusal, or (reference only) "this schedule has no
 *  send/receive structure", when the engine kept the dataflow model for it. */
export type TimingCell = { makespan: number } | { error: string } | { noReference: true };

export interface BothTimings {
  dataflow: TimingCell;
  reference: TimingCell;
  /** Reference makespan minus dataflow makespan, when both are numbers. */
  gap: number | null;
}

function cell(run: TimedRun, asked: TimingName): TimingCell {
  if ('error' in run) return { error: run.error };
  // The engine answers a reference request with dataflow timing only for a schedule given as text
  // without send/receive actions (run.h: Run::timing).
  if (asked === 'reference' && run.summary.timing !== 'reference') return { noReference: true };
  return { makespan: run.summary.makespan };
}

/** The two columns of one schedule from its dataflow run and its reference run. */
export function bothTimings(dataflow: TimedRun, reference: TimedRun): BothTimings {
  const d = cell(dataflow, 'dataflow');
  const r = cell(reference, 'reference');
  const gap = 'makespan' in d && 'makespan' in r ? r.makespan - d.makespan : null;
  return { dataflow: d, reference: r, gap };
}
