// Hand-written types for the engine's Embind module (Emscripten 3.1.6 has no --emit-tsd).
// Keep in step with wasm/bindings_engine.cpp. The course's calls are in pipesim_course.d.mts.

export interface RunRequestJs {
  schedule?: string;
  ranks?: number | string;
  microBatches?: number | string;
  virtualStages?: number | string;
  cost?: string;
  // Beyond `cost` (see core/engine/include/pipesim/stage_costs.h), as the CLI's options: modelStages
  // (--model-stages: cost is one of N stages of the model, which the schedule re-cuts; --model-cost X is
  // cost X with modelStages 1), stageCost (--stage-cost entries, "last:F=2,B=4") and rankSpeed
  // (--rank-speed entries, "3:0.5"). A --stage-costs table is the CLI's only.
  modelStages?: number | string;
  stageCost?: string[];
  rankSpeed?: string[];
  customSchedule?: string;
  /** 'dataflow' (default) or 'reference': the ops timed as the reference program communicates. */
  timing?: string;
  /** With timing 'reference' (refused, like the CLI's --sends, with another timing): 'rendezvous'
   *  (default), 'eager' or 'async'. */
  sends?: string;
}

/** A language of every registry text (core/engine/include/pipesim/language.h). */
export type Language = 'en' | 'pt-BR' | 'zh-CN';

/** A schedule's texts in one language. The caption's {ranks}, {micro}, {last} (ranks - 1), {half}
 *  (micro-batches / 2), {stages}, {vs} (virtual stages) and {vlast} (2 ranks - 1) are the page's to fill. */
export interface ScheduleTexts {
  title: string;
  summary: string;
  constraints: string;
  caption: string;
}

/** One entry of schedules(): core/engine/include/pipesim/registry.h's ScheduleSpec as data. */
export interface ScheduleEntry {
  name: string;
  /** The English texts, as texts.en has them. */
  title: string;
  summary: string;
  constraints: string;
  source: string;
  uses_virtual_stages: boolean;
  /** Given as text (customSchedule) instead of generated. */
  takes_text: boolean;
  /** Fed from both ends (DualPipe, Chimera): ranks and micro-batches are split between two directions. */
  two_way: boolean;
  texts: Record<Language, ScheduleTexts>;
  /** #rrggbb per page theme. */
  colour: { light: string; dark: string };
  /** The sizes a front end starts the schedule with (the schedule accepts them). */
  defaults: { ranks: number; micro_batches: number; virtual_stages: number };
}

/** One entry of presets(): a published figure or a lesson exercise to start from. */
export interface PresetEntry {
  id: string;
  texts: Record<Language, { name: string }>;
  schedule: string;
  ranks: number;
  micro_batches: number;
  virtual_stages: number;
  cost: string;
  /** Schedules shown beside it, by name. */
  compare: string[];
}

/** A run of the guided lesson: a schedule at a size, priced at LessonSteps.cost. */
export interface LessonRun {
  schedule: string;
  ranks: number;
  micro_batches: number;
}

/** lessonSteps(): the guided lesson's runs (core/engine/src/presets.cpp). */
export interface LessonSteps {
  /** The costs of every lesson run, as parseCosts reads them. */
  cost: string;
  /** In order; a step's texts are the page's learn.<id>.* */
  steps: { id: string; run: LessonRun; compared: LessonRun[] }[];
}

/** The core's error codes (pipesim::ErrorCode, core/engine/include/pipesim/error.h). */
export type ErrorCode =
  | 'usage' | 'bad_value' | 'unknown_name' | 'limit_exceeded' | 'schedule_rule'
  | 'bad_import' | 'invalid_schedule' | 'deadlock' | 'io' | 'internal';

/**
 * What every function below throws when the core refuses its input (wasm/errors.pre.js): `message` is
 * the line the CLI prints after "pipesim: error[code]: ", and the module stays usable.
 */
/** The input a refusal is about (pipesim::Error::field), by the JSON report's names. */
export type ErrorField =
  | 'ranks' | 'micro_batches' | 'virtual_stages' | 'schedule' | 'model_stages' | 'stage_cost' | 'rank_speed'
  | 'custom_schedule' | 'cost' | 'cost.F' | 'cost.B' | 'cost.W' | 'cost.FB' | 'cost.comm' | 'format' | string;

export declare class PipesimError extends Error {
  readonly name: 'PipesimError';
  readonly code: ErrorCode;
  /** Absent when the refusal is about no one field. */
  readonly field?: ErrorField;
}

/** What the C++ entry points return before errors.pre.js turns it into a thrown PipesimError. */
export interface ErrorValue {
  error: string;
  code: ErrorCode;
  field?: ErrorField;
}

/** One export format of the core's table (pipesim/export.h). */
export interface ExportFormatInfo {
  name: string; // the key exportText takes: 'chrome-trace'
  extension: string; // what a saved file's name ends with, after its dot: 'trace.json'
  mimeType: string;
  label: string; // what a button says, in English
}

export interface CostValuesJs {
  F: number;
  B: number;
  W: number;
  FB: number;
  comm: number;
}

export interface OpColumns {
  count: number;
  rank: Int32Array;
  kind: Uint8Array; // 0 F, 1 B, 2 I, 3 W, 4 FB
  mb: Int32Array;
  phase: Int32Array;
  stage: Int32Array;
  bMb: Int32Array; // FB only, else -1
  bPhase: Int32Array;
  bStage: Int32Array;
  start: Float64Array;
  end: Float64Array;
  waitedFor: Int32Array; // the op an op waited for after idle time, else -1
  // Reference timing only (summary.timing === 'reference'): each op's wait in layers, and the request
  // that ended it: action (pipesim::CommAction: 0 none, 1 RECV_F, 2 RECV_B, 3 SEND_F, 4 SEND_B), its
  // chunk's stage, micro-batch and phase, and the rank at the other end (-1 none).
  waitUsedReceive?: Float64Array;
  waitUnusedReceive?: Float64Array;
  waitSend?: Float64Array;
  waitOnAction?: Uint8Array;
  waitOnStage?: Int32Array;
  waitOnMb?: Int32Array;
  waitOnPhase?: Int32Array;
  waitPeer?: Int32Array;
}

export interface ActivationCurve {
  time: Float64Array;
  alive: Int32Array;
}

export interface SimulateValue {
  summary: any; // the CLI's `--format summary` JSON
  ops: OpColumns;
  rankBegin: Int32Array;
  activations: ActivationCurve[];
}

export interface SweepValue {
  value: Int32Array;
  valid: Uint8Array;
  makespan: Float64Array;
  bubbleFraction: Float64Array;
  spanBubbleFraction: Float64Array;
  maxBubble: Float64Array;
  formulaValue: Float64Array;
  formulaExact: Uint8Array;
  peakActivations: Int32Array;
  errors: string[];
}

export interface OverlapRequestJs {
  forward?: string; // "attn=..,dispatch=..,mlp=..,combine=.."
  backward?: string; // "combine=..,mlp_b=..,mlp_w=..,dispatch=..,attn_b=..,attn_w=.."
  ppComm?: number | string;
  workload?: string; // workload JSON text
  commSms?: number | string;
  totalSms?: number | string;
  saturationSms?: number | string;
  ratio?: string | number; // compute:comm, "1:1"
  language?: string; // the derivation's words: "en" (default), "pt-BR", "zh-CN"
}

export interface PipesimModule {
  PipesimError: typeof PipesimError;
  // True once a call failed inside WebAssembly: every later call throws a PipesimError with code
  // 'internal' and broken: true, and the caller should load a new instance (wasm/errors.pre.js).
  broken: boolean;
  simulate(request: RunRequestJs): SimulateValue;
  simulateJson(request: RunRequestJs, detail: 'json' | 'summary'): { json: string };
  // At most 512 values; a non-array is refused with a PipesimError.
  sweep(request: RunRequestJs, axis: 'micro_batches' | 'ranks', values: number[]): SweepValue;
  /** The registry, as `pipesim list --format json`. */
  schedules(): ScheduleEntry[];
  /** The presets, as `pipesim presets --format json`. */
  presets(): PresetEntry[];
  /** The guided lesson's steps: the run each shows and the runs it compares with. */
  lessonSteps(): LessonSteps;
  // overlap, exportText and defaultWorkload (wasm/bindings_later.cpp) are in the Node build
  // (engine.node.mjs); the browser's build leaves them to the course module, loaded on first need.
  overlap?(request: OverlapRequestJs): any;
  actions(request: RunRequestJs): { actions: string }; // PyTorch action notation
  // usPerUnit: microseconds per cost unit in a chrome-trace; 0 means the CLI's default, 1000; anything
  // else must lie in [0.001, 1e9] as --us-per-unit does, else a PipesimError (checked for every format).
  // A large export tells the module's onExportProgress option (if any) how far it has got.
  exportText?(request: RunRequestJs, format: string, usPerUnit: number): { text: string }; // format: a name of exportFormats()
  // The table of export formats, in the order the page offers them.
  exportFormats(): ExportFormatInfo[];
  // The CLI's --cost parser: the costs (FB defaults to F + B), or a PipesimError whose field names the cost.
  parseCosts(text: string): CostValuesJs;
  // The costs the text writes, its syntax checked but not its bounds: what sliders show while a text is refused.
  readCosts(text: string): CostValuesJs;
  // A cost other than FB is 0 or in [min, max]; FB lies in [fbMin, fbMax] = [max(F, B), F + B].
  costBounds(F: number, B: number): { min: number; max: number; fbMin: number; fbMax: number };
  // Aborts inside WebAssembly, as a bug would, leaving the module broken: only for the test of the
  // page's recovery (web/src/engine/worker.ts); throws a PipesimError with broken: true.
  abortForTest(): void;
  defaultWorkload?(): Record<string, number>;
  // The values 1..to of one size that the request's schedule accepts with its other sizes.
  acceptedValues(request: RunRequestJs, field: 'ranks' | 'microBatches' | 'virtualStages', to: number): { values: Int32Array };
  // The bounds of core/engine/include/pipesim/limits.h, in bytes, ops and counts.
  limits(): { maxRanks: number; maxMicroBatches: number; maxVirtualStages: number; maxOps: number;
              maxScheduleTextBytes: number; maxSmallJsonBytes: number; maxExportBytes: number };
  version(): string;
}

export interface ModuleOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
  print?: (text: string) => void;
  printErr?: (text: string) => void;
  // Told after each block of a large export: its records (ops, trace events) written and expected.
  // It must not throw (it runs while the module's frames are on the stack).
  onExportProgress?: (written: number, expected: number) => void;
}

export default function createPipesimEngine(options?: ModuleOptions): Promise<PipesimModule>;
