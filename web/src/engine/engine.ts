// The only place the page touches the WebAssembly modules: the engine's is compiled once and shared
// (with the background worker too); the course's (quiz, lessons, planner) and the tools' (exports,
// the chunk model, profiler traces) are each loaded on first need (course.ts, tools.ts). Every call returns typed results or throws an EngineError carrying the core's message
// (the CLI's text) and its short code.
import createPipesimEngine from './generated/pipesim_engine.mjs';
import type { CostValuesJs, ExportFormatInfo, LessonSteps, OverlapRequestJs, PipesimModule, PresetEntry, ScheduleEntry, SimulateValue, SweepValue } from './generated/pipesim_engine.mjs';
import type { ModelRunRequest, PipesimCourseModule, PlanSearchOptions, PlanSearchProgress, PlanSearchResult, QuizQuestion, QuizRequest, RankMemoryBytes } from './course';
import type { PipesimToolsModule } from './tools';
import { compileWasm, wasmOptions } from './wasm_source';
import { loadOnce } from './load_once';
import { moduleRequest as toJs } from '../model/module_request';

export type { ModelRunRequest, PlanSearchOptions, PlanSearchPoint, PlanSearchProgress, PlanSearchResult, QuizQuestion, QuizRequest, RankMemoryBytes } from './course';

/** A run on a model and cluster (`pipesim simulate --model FILE --format summary`): the run's summary
 *  fields, the model's division, and the bytes per rank against one GPU's memory. */
export interface ModelRunResult {
  schedule: string;
  ranks: number;
  micro_batches: number;
  stages: number;
  makespan: number;
  cost_basis: 'model-file';
  model: { name: string; [key: string]: unknown };
  memory: { units: 'bytes'; gpu_bytes: number; fits: boolean };
  per_rank: { rank: number; memory_bytes: RankMemoryBytes }[];
}
export type { OpColumns, SimulateValue, SweepValue, ActivationCurve } from './generated/pipesim_engine.mjs';

/** A refusal by the engine: `message` is the CLI's text, `code` a short name of the kind of refusal
 *  ('bad_argument', 'limit_exceeded', 'deadlock', ...; 'error' when the engine gave none). */
/** A refusal's rule and the values it quotes, for wording it in the page's language (refusals.ts). */
export interface Wording {
  key: string;
  params: Record<string, string>;
}

export class EngineError extends Error {
  constructor(
    message: string,
    readonly code = 'error',
    /** The engine stopped after a failure inside WebAssembly and must be loaded again. */
    readonly broken = false,
    readonly wording?: Wording,
    /** The input the refusal is about ('ranks', 'micro_batches', 'cost.FB', ...), as the engine names it. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

/** The name of one of the engine's export formats (Engine.exportFormats: the core's table). */
export type ExportFormat = string;
export type { CostValuesJs, ExportFormatInfo };

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
  /** The durations as given or derived; with a profiler trace (`overlap --trace`) the measured pair too. */
  measured: MeasuredDurations | TracedDurations;
  /** The figure's headings and lane labels in the request's language (the CLI text view's words). */
  headings: OverlapHeadings;
}

/** Each lane pair's heading with its symbol ("forward chunk alone: f"; " = duration" follows), and the
 *  lanes' labels. */
export interface OverlapHeadings {
  forward: string;
  backward: string;
  pair: string;
  compute_lane: string;
  comm_lane: string;
}

/** `measured` from a profiler trace: the model's inputs and the measured pair. */
export interface TracedDurations extends Omit<MeasuredDurations, 'source'>, MeasuredPair {}

export interface MeasuredDurations {
  source?: undefined;
  forward: Record<string, number>;
  backward: Record<string, number>;
  pp: number;
}

/** A stretch of one lane busy with one component's kernels (component null: unattributed kernels). */
export interface MeasuredSegment {
  lane: 'compute' | 'comm';
  chunk: 'F' | 'B' | null;
  component: string | null;
  label: string;
  start: number;
  end: number;
}

/** The `measured` fields a profiler trace adds (README, "Measured: pipesim overlap --trace FILE"). */
export interface MeasuredPair {
  source: 'trace';
  rank: number | null;
  world_size: number | null;
  kernels: number;
  span_us: number;
  compute_busy_us: number;
  communication_busy_us: number;
  hidden_comm_us: number;
  exposed_comm_us: number;
  hidden_fraction: number;
  unattributed: { kernels: number; compute_us: number; comm_us: number };
  attributed_by: { launch: number; other_thread: number; stream_order: number; none: number };
  timeline: MeasuredSegment[];
  model_fb_us: number;
  costs: { F: number; B: number; W: number; FB: number; comm: number };
}

/** `simulate --measured --format json` (README, "A measured pipeline"). */
export interface MeasuredPipelineResult {
  unit: 'us';
  ranks: number;
  makespan_us: number;
  model_makespan_us: number;
  sentence: string;
  costs: { F: number; B: number; W: number; FB: number; comm: number };
  per_rank: { rank: number; ops: number; busy_us: number; bubble_us: number; model_busy_us: number; model_bubble_us: number; late_ops: number; latest_by_us: number }[];
  late_ops: number;
  timeline: { rank: number; ops: { action: string; kind: 'F' | 'B' | 'I' | 'W' | 'FB'; stage: number; start: number; end: number }[] }[];
  model: { per_rank: { rank: number; ops: { op: 'F' | 'B' | 'I' | 'W' | 'FB'; phase: number; start: number; end: number }[] }[] };
}

/** Sizes may be text as the user typed it: the engine parses and, if need be, refuses it. */
export interface RunRequest {
  schedule: string;
  ranks: number | string;
  microBatches: number | string;
  virtualStages?: number | string;
  cost: string;
  /** The same-model basis: `cost` is one stage's of the model cut into this many stages, and the
   *  schedule re-cuts it into its own (stage_costs.h). Absent: every stage costs `cost`. */
  modelStages?: number;
  /** Per-stage costs, each as --stage-cost takes it: "last:F=2,B=4". */
  stageCost?: string[];
  /** Per-rank speeds, each as --rank-speed takes it: "3:0.5" is rank 3 at half speed. */
  rankSpeed?: string[];
  customSchedule?: string;
  /** 'dataflow' (default) or 'reference'. */
  timing?: string;
  /** With timing 'reference': 'rendezvous' (default), 'eager' or 'async'. */
  sends?: string;
}

/** A schedule as the registry describes it (core/engine/include/pipesim/registry.h): names, texts in every
 *  language, colours, defaults. The page reads these facts here and nowhere else. */
export type ScheduleInfo = ScheduleEntry;
/** A preset as core/engine/src/presets.cpp lists it. */
export type PresetInfo = PresetEntry;

/** Kind codes of OpColumns.kind, in the core's OpKind order. */
export const KINDS = ['F', 'B', 'I', 'W', 'FB'] as const;
export type KindName = (typeof KINDS)[number];

/** A PipesimError thrown by the module: an error object with a string `code` and a `message`. */
function isThrownRefusal(e: unknown): e is { message: string; code: string } {
  return typeof e === 'object' && e !== null && typeof (e as any).code === 'string' && typeof (e as any).message === 'string';
}

/** A thrown PipesimError as an EngineError; anything else as it is. */
function asEngineError(e: unknown): unknown {
  return isThrownRefusal(e)
    ? new EngineError(e.message, e.code, (e as { broken?: unknown }).broken === true, (e as { wording?: Wording }).wording, (e as { field?: string }).field)
    : e;
}

/** Calls the module, turning its thrown PipesimError into an EngineError, so callers handle one kind
 *  (wasm/errors.pre.js makes every entry point that can refuse throw rather than return {error}). */
function unwrap<T>(call: () => T): T {
  try {
    return call();
  } catch (e) {
    throw asEngineError(e);
  }
}

export class Engine {
  readonly schedules: ScheduleInfo[];
  readonly presets: PresetInfo[];
  /** The guided lesson's runs (core/engine/src/presets.cpp). */
  readonly lessonSteps: LessonSteps;
  /** The core's table of export formats, in the order the page offers them. */
  readonly exportFormats: ExportFormatInfo[];
  private course: PipesimCourseModule | null = null;
  private tools: PipesimToolsModule | null = null;
  /** Each module loaded on first need, once, again after a failure (load_once.ts). */
  private readonly loadCourse = loadOnce(async () => {
    const { loadCourseModule } = await import('./course');
    this.course = await loadCourseModule();
  }, asEngineError);
  private readonly loadTools = loadOnce(async () => {
    const { loadToolsModule } = await import('./tools');
    this.tools = await loadToolsModule(this.toolsHooks);
  }, asEngineError);

  constructor(
    private readonly module: PipesimModule,
    /** Given to the tools module, which writes the exports: where a large export's progress goes. */
    private readonly toolsHooks: { onExportProgress?: (written: number, expected: number) => void } = {},
  ) {
    this.schedules = unwrap(() => module.schedules()) as ScheduleInfo[];
    this.presets = unwrap(() => module.presets()) as PresetInfo[];
    this.lessonSteps = unwrap(() => module.lessonSteps());
    this.exportFormats = unwrap(() => module.exportFormats());
  }

  /** Resolves once this instance holds the course module with its data (core/data/*.json), which
   *  courseQuiz(), lesson() and plan() need: loaded on first use, apart from the engine (course.ts). */
  courseData(): Promise<void> {
    return this.loadCourse();
  }

  /** Resolves once this instance holds the tools module, which overlap(), defaultWorkload(),
   *  exportText(), overlapTrace() and measuredPipeline() need: loaded on first use (tools.ts). */
  toolsReady(): Promise<void> {
    return this.loadTools();
  }

  /** The tools module, which toolsReady() must have loaded. */
  private toolsModule(): PipesimToolsModule {
    if (!this.tools) throw new Error('the tools module is not loaded: await engine.toolsReady() first');
    return this.tools;
  }

  /** The course module, which courseData() must have loaded. */
  private courseModule(): PipesimCourseModule {
    if (!this.course) throw new Error('the course module is not loaded: await engine.courseData() first');
    return this.course;
  }

  simulate(request: RunRequest): SimulateValue {
    return unwrap(() => this.module.simulate(toJs(request)));
  }

  /** The CLI's `--format summary` JSON alone: what simulate() gives as `summary`, without the ops. */
  summary(request: RunRequest): any {
    return JSON.parse(unwrap(() => this.module.simulateJson(toJs(request), 'summary')).json);
  }

  sweep(request: RunRequest, axis: 'micro_batches' | 'ranks', values: number[]): SweepValue {
    return unwrap(() => this.module.sweep(toJs(request), axis, values));
  }

  /** The chunk model of DeepSeek-V3 Fig. 4: the CLI's `pipesim overlap --format json` (after
   *  toolsReady(): the chunk model is in the module loaded on first need, wasm/bindings_later.cpp). */
  overlap(request: OverlapRequestJs): OverlapResult {
    return unwrap(() => this.toolsModule().overlap(request)) as OverlapResult;
  }

  /** The schedule of `request` as text a custom schedule accepts, to start editing from: PyTorch
   *  action notation, two-direction schedules too (the core writes and reads their directions). */
  customText(request: RunRequest): string {
    return unwrap(() => this.module.actions(toJs(request))).actions;
  }

  /** The run in one of the CLI's export formats (after toolsReady(): the exporters are in the module
   *  loaded on first need, wasm/bindings_later.cpp, not in the page's first download). */
  exportText(request: RunRequest, format: ExportFormat, usPerUnit = 0): string {
    return unwrap(() => this.toolsModule().exportText(toJs(request), format, usPerUnit)).text;
  }

  /** The course's quiz.json, as `pipesim quiz --course --lang L` writes it (after courseData()): each
   *  question's options in the order the course's CI (scripts/debias_quizzes.py --check) requires. */
  courseQuiz(lang: string): unknown {
    return unwrap(() => this.courseModule().courseQuiz(lang));
  }

  /** The quiz's questions as core makes them, options in display order for the seed (after courseData()). */
  quizQuestions(request: QuizRequest): QuizQuestion[] {
    return unwrap(() => this.courseModule().quizQuestions(request));
  }

  /** A lesson exercise worked by the engine (`pipesim lesson --format json`; after courseData()). */
  lesson(request: { exercise: number; lang?: string; cost?: string; bytesPerParam?: number; gpuMemoryGb?: number }): any {
    return unwrap(() => this.courseModule().lesson(request));
  }

  /** The planner on a JSON input, explained in `lang` (`pipesim plan --format json --lang L`; after
   *  courseData()). */
  plan(input: string, lang: string): any {
    return unwrap(() => this.courseModule().plan(input, lang));
  }

  /** The planner's search (`pipesim plan --search`), in steps (after courseData()): begin it on a JSON
   *  input, step it `count` configurations at a time, read its ranked configurations. */
  planSearchBegin(input: string, options?: PlanSearchOptions): PlanSearchProgress {
    return unwrap(() => this.courseModule().planSearchBegin(input, options));
  }

  planSearchStep(count: number): PlanSearchProgress {
    return unwrap(() => this.courseModule().planSearchStep(count));
  }

  planSearchResult(keep: number): PlanSearchResult {
    return unwrap(() => this.courseModule().planSearchResult(keep));
  }

  /** A PyTorch profiler trace of one F&B pair measured next to the chunk model: the CLI's `pipesim
   *  overlap --trace FILE --format json` (after toolsReady(): the trace reader is in the tools module). */
  overlapTrace(text: string, language: string): OverlapResult {
    return unwrap(() => this.toolsModule().overlapTrace(text, language)) as OverlapResult;
  }

  /** A schedule run on a planner file's model and cluster, each rank's bytes with its activation
   *  curve: the CLI's `pipesim simulate --model FILE --format summary` (after courseData()). */
  simulateModel(request: ModelRunRequest): ModelRunResult {
    return unwrap(() => this.courseModule().simulateModel(request)) as ModelRunResult;
  }

  /** One profiler trace per rank measured next to the model with fitted costs: the CLI's `pipesim
   *  simulate --measured FILES --format json` (after toolsReady()). */
  measuredPipeline(texts: string[], align: 'profiler' | 'first-ops' = 'profiler'): MeasuredPipelineResult {
    return unwrap(() => this.toolsModule().measuredPipeline(texts, align)) as MeasuredPipelineResult;
  }

  /** The values 1..to of one size that the request's schedule accepts, its other sizes as given:
   *  the positions a slider offers (the schedules' own checks, run without simulating). */
  acceptedValues(request: RunRequest, field: 'ranks' | 'microBatches' | 'virtualStages', to: number): number[] {
    return Array.from(unwrap(() => this.module.acceptedValues(toJs(request), field, to)).values);
  }

  /** The engine's limits (core/engine/include/pipesim/limits.h): the page checks a file's size against them
   *  before reading it. */
  limits(): ReturnType<PipesimModule['limits']> {
    return this.module.limits();
  }

  /** The CLI's --cost parser: the costs (FB defaults to F + B) or an EngineError whose field names the
   *  cost it refuses ('cost.FB'). */
  parseCosts(text: string): CostValuesJs {
    return unwrap(() => this.module.parseCosts(text));
  }

  /** The costs the text writes, its syntax checked (an EngineError otherwise) but not its bounds. */
  readCosts(text: string): CostValuesJs {
    return unwrap(() => this.module.readCosts(text));
  }

  /** The core's bounds of a cost: any but FB is 0 or in [min, max]; FB lies in [fbMin, fbMax]. */
  costBounds(F: number, B: number): ReturnType<PipesimModule['costBounds']> {
    return unwrap(() => this.module.costBounds(F, B));
  }

  /** The chunk model's default workload (after toolsReady(), as overlap()). */
  defaultWorkload(): Record<string, number> {
    return this.toolsModule().defaultWorkload();
  }

  schedule(name: string): ScheduleInfo | undefined {
    return this.schedules.find((s) => s.name === name);
  }

  /** Makes the module fail inside WebAssembly, as a bug would (only the worker calls it, for the
   *  browser test of the page's recovery): it is broken afterwards. */
  abortForTest(): void {
    unwrap(() => this.module.abortForTest());
  }

  /** True once the module failed inside WebAssembly: it refuses every call from then on. */
  get broken(): boolean {
    return this.module.broken === true;
  }

  get version(): string {
    return this.module.version();
  }
}

/** An engine instantiated from an already compiled module: the page compiles the .wasm once and the
 *  worker instantiates the same WebAssembly.Module. `fallback` says where the module may fetch the
 *  .wasm itself should a build ignore `instantiateWasm` (and, in the worker, where a large export's
 *  progress goes). */
export async function instantiateEngine(
  compiled: WebAssembly.Module,
  fallback: { locateFile?: () => string; wasmBinary?: Uint8Array; onExportProgress?: (written: number, expected: number) => void } = {},
): Promise<Engine> {
  const options = {
    ...fallback,
    // Emscripten's hook: we instantiate, it receives the instance (and returns {} meanwhile).
    instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) {
      void WebAssembly.instantiate(compiled, imports).then((instance) => receive(instance, compiled));
      return {};
    },
  };
  return new Engine(await createPipesimEngine(options as Parameters<typeof createPipesimEngine>[0]), { onExportProgress: fallback.onExportProgress });
}

/** The engine's WebAssembly module, compiled once per page (the worker gets the same object); a failed
 *  download or compile is tried again by the next call (load_once.ts), like the lazy modules. */
export const compiledEngine: () => Promise<WebAssembly.Module> = loadOnce(compileWasm);

/** The one engine instance of this page (several views and embedded elements share it). */
export const loadEngine: () => Promise<Engine> = loadOnce(() => compiledEngine().then((module) => instantiateEngine(module, wasmOptions())));
