// The only place the page touches the WebAssembly module: it is loaded once and shared, and every
// call returns typed results or throws an EngineError carrying the core's message (the CLI's text).
import createPipesimEngine from './generated/pipesim_engine.mjs';
import type {
  ErrorValue,
  OverlapRequestJs,
  PipesimModule,
  RunRequestJs,
  SimulateValue,
  SweepValue,
} from './generated/pipesim_engine.mjs';
import { wasmOptions } from './wasm_source';

export type { OpColumns, SimulateValue, SweepValue, ActivationCurve } from './generated/pipesim_engine.mjs';

export class EngineError extends Error {}

export type ExportFormat = 'chrome-trace' | 'csv' | 'svg' | 'actions' | 'json';

export interface OverlapSlot {
  chunk: 'F' | 'B';
  component: string;
  label: string;
  lane: 'compute' | 'comm';
  start: number;
  end: number;
}

export interface LaneSchedule {
  timeline: OverlapSlot[];
  makespan: number;
  compute: number;
  comm: number;
  exposed_comm: number;
}

export interface OverlapResult {
  f: number;
  b: number;
  fb: number;
  sequential: number;
  exposed_comm: number;
  hidden_fraction: number;
  unit: string;
  forward: LaneSchedule;
  backward: LaneSchedule;
  pair: LaneSchedule;
  costs: { F: number; B: number; W: number; FB: number; comm: number };
  derivation: { label: string; formula: string; worked: string; value: number; measured: number }[];
  sms: { comm_sms: number; total_sms: number; compute_stretch: number; comm_stretch: number } | null;
  ratio: { compute_to_comm: number; comm_scale: number } | null;
}

/** Sizes may be text as the user typed it: the engine parses and, if need be, refuses it. */
export interface RunRequest {
  schedule: string;
  ranks: number | string;
  microBatches: number | string;
  virtualStages?: number | string;
  cost: string;
  customSchedule?: string;
}

export interface ScheduleInfo {
  name: string;
  title: string;
  summary: string;
  source: string;
  constraints: string;
  uses_virtual_stages: boolean;
}

/** Kind codes of OpColumns.kind, in the core's OpKind order. */
export const KINDS = ['F', 'B', 'I', 'W', 'FB'] as const;
export type KindName = (typeof KINDS)[number];

function unwrap<T extends object>(value: T | ErrorValue): T {
  if ('error' in value) throw new EngineError(value.error);
  return value as T;
}

function toJs(request: RunRequest): RunRequestJs {
  return {
    schedule: request.schedule,
    ranks: request.ranks,
    microBatches: request.microBatches,
    virtualStages: request.virtualStages ?? 1,
    cost: request.cost,
    customSchedule: request.customSchedule,
  };
}

export class Engine {
  readonly schedules: ScheduleInfo[];

  constructor(private readonly module: PipesimModule) {
    this.schedules = module.schedules() as ScheduleInfo[];
  }

  simulate(request: RunRequest): SimulateValue {
    return unwrap(this.module.simulate(toJs(request)));
  }

  sweep(request: RunRequest, axis: 'micro_batches' | 'ranks', values: number[]): SweepValue {
    return unwrap(this.module.sweep(toJs(request), axis, values));
  }

  /** The chunk model of DeepSeek-V3 Fig. 4: the CLI's `pipesim overlap --format json`. */
  overlap(request: OverlapRequestJs): OverlapResult {
    return unwrap(this.module.overlap(request)) as OverlapResult;
  }

  /** The schedule of `request` as text a custom schedule accepts: PyTorch action notation, or the
   *  JSON contract (needed for two-direction schedules, which action notation cannot express). */
  scheduleText(request: RunRequest, format: 'actions' | 'json'): string {
    if (format === 'actions') return unwrap(this.module.actions(toJs(request))).actions;
    return unwrap(this.module.simulateJson(toJs(request), 'json')).json;
  }

  /** The run in one of the CLI's export formats. */
  exportText(request: RunRequest, format: ExportFormat, usPerUnit = 0): string {
    return unwrap(this.module.exportText(toJs(request), format, usPerUnit)).text;
  }

  /** The course's quiz.json, as `pipesim quiz --course --lang L --seed S` writes it. */
  courseQuiz(lang: string, seed: number): unknown {
    return unwrap(this.module.courseQuiz(lang, seed));
  }

  /** A lesson exercise worked by the engine (`pipesim lesson --format json`). */
  lesson(request: { exercise: number; lang?: string; cost?: string; bytesPerParam?: number; gpuMemoryGb?: number }): any {
    return unwrap(this.module.lesson(request));
  }

  /** The planner on a JSON input, explained in `lang` (`pipesim plan --format json --lang L`). */
  plan(input: string, lang: string): any {
    return unwrap(this.module.plan(input, lang));
  }

  defaultWorkload(): Record<string, number> {
    return this.module.defaultWorkload();
  }

  schedule(name: string): ScheduleInfo | undefined {
    return this.schedules.find((s) => s.name === name);
  }

  get version(): string {
    return this.module.version();
  }
}

let shared: Promise<Engine> | null = null;

/** The one engine instance of this page (several views and embedded elements share it). */
export function loadEngine(): Promise<Engine> {
  shared ??= createPipesimEngine(wasmOptions()).then((m) => new Engine(m));
  return shared;
}
