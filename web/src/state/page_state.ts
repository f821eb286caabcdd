// The page's whole state: what the URL carries (AppState: any view can be shared by copying the
// address), the preferences localStorage keeps, and the inputs of the panels that have their own.
// It lives in one Store (store.ts); url_adapter.ts and storage_adapter.ts read and write it.
// Values stay as the user typed them; the engine validates them and explains what it refuses.
import CORE_PRESETS from '../engine/generated/presets.json';

export type ViewName = 'learn' | 'timeline' | 'compare' | 'charts' | 'memory' | 'chunk' | 'exercises' | 'quiz' | 'planner';
/** In tab order: the guided lesson first, for a newcomer. */
export const VIEWS: ViewName[] = ['learn', 'timeline', 'compare', 'charts', 'memory', 'chunk', 'exercises', 'quiz', 'planner'];

/** How Compare and Charts give every schedule its costs: "model", the same model on the same GPUs
 *  (the costs are one rank's share of the model, and each schedule cuts it into its own stages), or
 *  "stage", the same costs for every stage of every schedule (the DualPipe README table's basis). */
export type CostBasis = 'model' | 'stage';
export const BASES: CostBasis[] = ['model', 'stage'];

export interface AppState {
  schedule: string;
  ranks: string;
  microBatches: string;
  virtualStages: string;
  cost: string;
  compare: string[];
  basis: CostBasis;
  /** Per-stage costs as --stage-cost takes them, separated by ';' ("first:F=2,B=4; last:F=2,B=4"). */
  stageCost: string;
  /** Per-rank speeds as --rank-speed takes them, separated by ';' ("3:0.5" is rank 3 at half speed). */
  rankSpeed: string;
  view: ViewName;
  /** The pasted schedule when `schedule` is "custom": JSON or PyTorch action notation. */
  custom: string;
  /** 'dataflow' (the ideal) or 'reference' (as the reference program communicates). */
  timing: string;
  /** With timing 'reference': 'rendezvous', 'eager' or 'async'. */
  sends: string;
  /** The guided lesson's step (1-based), in the URL while the Learn view is open. */
  step: string;
  /** The Memory tab's model and cluster: a core plan example's id ('deepseek-v3'), '' for chunks. */
  memoryModel: string;
  /** Compare's "Both timings": every schedule's makespan under dataflow and under the reference
   *  runtime side by side (model/timings.ts). Only the view changes with it: no run goes stale. */
  bothTimings: boolean;
}

/** Core's first preset (core/engine/src/presets.cpp): the run a first visit opens on. Core writes its
 *  presets into this file at build time (scripts/write-presets.mjs), so that the store, built before
 *  the engine loads, starts from them without a copy of them here. */
const FIRST_PRESET = CORE_PRESETS[0];

export const DEFAULT_STATE: AppState = {
  schedule: FIRST_PRESET.schedule,
  ranks: String(FIRST_PRESET.ranks),
  microBatches: String(FIRST_PRESET.micro_batches),
  // What an interleaved schedule starts with when chosen: the fewest it accepts (the first preset has none).
  virtualStages: '2',
  cost: FIRST_PRESET.cost,
  compare: [...FIRST_PRESET.compare],
  basis: 'model',
  stageCost: '',
  rankSpeed: '',
  view: 'timeline',
  custom: '',
  timing: 'dataflow',
  sends: 'rendezvous',
  step: '1',
  memoryModel: '',
  bothTimings: false,
};

/** Longest pasted schedule kept in the URL, in characters. */
export const CUSTOM_IN_URL_LIMIT = 4000;

export interface CostValues {
  F: number;
  B: number;
  W: number;
  FB: number;
  comm: number;
}

/** The --stage-cost entries of a preset: `factor` times the costs on screen (as the engine read
 *  them) for the stages named. */
export function scaledStageCost(c: CostValues, stages: string[], factor: number): string {
  const n = (v: number) => String(Number((v * factor).toFixed(6)));
  return stages.map((s) => `${s}:F=${n(c.F)},B=${n(c.B)},W=${n(c.W)},FB=${n(c.FB)}`).join('; ');
}

export function formatCost(c: CostValues): string {
  const n = (v: number) => String(Number(v.toFixed(6)));
  const base = `F=${n(c.F)},B=${n(c.B)},W=${n(c.W)},FB=${n(c.FB)}`;
  return c.comm ? `${base},comm=${n(c.comm)}` : base;
}

/** A change with the fields the rules tying the state together derive from it: a schedule is never
 *  compared with itself. */
export function completePatch<T extends AppState>(state: Readonly<T>, patch: Partial<T>): Partial<T> {
  if (!patch.schedule) return patch;
  const compare = (patch.compare ?? state.compare).filter((s) => s !== patch.schedule);
  return { ...patch, compare };
}

/** What localStorage keeps between visits (storage_adapter.ts). */
export interface Preferences {
  theme: 'light' | 'dark';
  palette: 'default' | 'cb';
}

/** The chunk model's inputs (Chunk view): workload fields as typed, the comm/compute ratio slider
 *  (log2 of the scale) and the SMs given to communication. */
export interface ChunkInputs {
  workload: Record<string, string>;
  ratio: string;
  commSms: string;
}

/** Exercise 3's memory inputs (Exercises view). */
export interface ExerciseInputs {
  bytesPerParam: string;
  gpuMemoryGb: string;
}

/** The planner's example and its JSON as edited (Planner view); input '' until the view first opens. */
export interface PlannerInputs {
  example: string;
  input: string;
}

export interface PageState extends AppState, Preferences {
  chunk: ChunkInputs;
  exercises: ExerciseInputs;
  planner: PlannerInputs;
}

export const DEFAULT_INPUTS: Pick<PageState, 'chunk' | 'exercises' | 'planner'> = {
  chunk: { workload: {}, ratio: '0', commSms: '20' },
  exercises: { bytesPerParam: '2', gpuMemoryGb: '80' },
  planner: { example: '', input: '' },
};

/** The fields of AppState: a change of any of them but `view` makes every run stale. */
export const APP_STATE_KEYS = Object.keys(DEFAULT_STATE) as (keyof AppState)[];
