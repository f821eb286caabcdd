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
  /** With timing 'reference': 'rendezvous' (default), 'eager' or 'async'. */
  sends?: string;
}

/** The core's error codes (pipesim::ErrorCode, core/engine/include/pipesim/error.h). */
export type ErrorCode =
  | 'usage' | 'bad_value' | 'unknown_name' | 'limit_exceeded' | 'schedule_rule'
  | 'bad_import' | 'invalid_schedule' | 'deadlock' | 'io' | 'internal';

/**
 * What every function below throws when the core refuses its input (wasm/errors.pre.js): `message` is
 * the line the CLI prints after "pipesim: error[code]: ", and the module stays usable.
 */
export declare class PipesimError extends Error {
  readonly name: 'PipesimError';
  readonly code: ErrorCode;
}

/** What the C++ entry points return before errors.pre.js turns it into a thrown PipesimError. */
export interface ErrorValue {
  error: string;
  code: ErrorCode;
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
  schedules(): any[];
  overlap(request: OverlapRequestJs): any;
  actions(request: RunRequestJs): { actions: string }; // PyTorch action notation
  // usPerUnit: microseconds per cost unit in a chrome-trace; 0 means the CLI's default, 1000; anything
  // else must lie in [0.001, 1e9] as --us-per-unit does, else a PipesimError (checked for every format).
  exportText(request: RunRequestJs, format: 'chrome-trace' | 'csv' | 'svg' | 'actions' | 'json', usPerUnit: number): { text: string };
  defaultWorkload(): Record<string, number>;
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
}

export default function createPipesimEngine(options?: ModuleOptions): Promise<PipesimModule>;
