// What the background worker does for the page, as functions of an Engine. The worker runs them on
// its own instance of the engine; when no worker can start, the page runs the very same functions.
import { EngineError, type Engine, type ExportFormat, type ModelRunRequest, type PlanSearchOptions, type PlanSearchProgress, type PlanSearchResult, type RunRequest, type Wording } from './engine';
import { outcomeOf } from './outcome';

export type { Outcome } from './outcome';

export interface SweepPiece {
  request: RunRequest;
  axis: 'micro_batches' | 'ranks';
  values: number[];
}

/** One piece of the planner's search: `begin` starts a new one (replacing any under way in this
 *  engine), then `count` configurations run; the ranked result (at most `keep`) comes with the last
 *  piece. The page cuts the search into pieces to show its progress and to stop it when a newer input
 *  replaces it. */
export interface PlanSearchPiece {
  begin?: { input: string; options?: PlanSearchOptions };
  count: number;
  keep: number;
}

export type PlanSearchPieceResult = PlanSearchProgress & { result?: PlanSearchResult };

function planSearchPiece(engine: Engine, piece: PlanSearchPiece): PlanSearchPieceResult {
  if (piece.begin) engine.planSearchBegin(piece.begin.input, piece.begin.options);
  const progress = engine.planSearchStep(piece.count);
  return progress.done < progress.total ? progress : { ...progress, result: engine.planSearchResult(piece.keep) };
}

export const TASKS = {
  /** Several runs at once (the schedules of a comparison), each with its ops as columns. */
  simulate: (engine: Engine, requests: RunRequest[]) => requests.map((r) => outcomeOf(() => engine.simulate(r))),
  /** Only the summaries: for points of a chart, which need no op columns. */
  summaries: (engine: Engine, requests: RunRequest[]) => requests.map((r) => outcomeOf(() => engine.summary(r))),
  /** One piece of a sweep: the page cuts a sweep into pieces to show its progress and to stop early
   *  when a newer one replaces it. */
  sweep: (engine: Engine, piece: SweepPiece) => engine.sweep(piece.request, piece.axis, piece.values),
  /** The planner (every schedule simulated at the planned sizes). */
  plan: (engine: Engine, args: { input: string; lang: string }) => engine.plan(args.input, args.lang),
  /** One piece of the planner's search (PlanSearchPiece). */
  planSearch: planSearchPiece,
  /** A profiler trace of one F&B pair, as the bytes of its file (decoded here, off the page's thread):
   *  a 100 MB trace takes seconds to read. */
  overlapTrace: (engine: Engine, args: { bytes: Uint8Array; lang: string }) => engine.overlapTrace(new TextDecoder().decode(args.bytes), args.lang),
  /** One profiler trace per rank, as the bytes of their files, measured next to the model. */
  measuredPipeline: (engine: Engine, args: { files: Uint8Array[]; align: 'profiler' | 'first-ops' }) =>
    engine.measuredPipeline(args.files.map((bytes) => new TextDecoder().decode(bytes)), args.align),
  /** Schedules run on a model and cluster, priced in bytes (the Memory tab): each its result or its
   *  refusal, so that one refused schedule does not fail the others. */
  simulateModel: (engine: Engine, requests: ModelRunRequest[]) => requests.map((r) => outcomeOf(() => engine.simulateModel(r))),
  /** A download of a large run (a Chrome trace of a million ops takes seconds to write). */
  exportText: (engine: Engine, args: { request: RunRequest; format: ExportFormat }) => engine.exportText(args.request, args.format),
};

export type TaskName = keyof typeof TASKS;
export type TaskArgs<K extends TaskName> = Parameters<(typeof TASKS)[K]>[1];
export type TaskResult<K extends TaskName> = ReturnType<(typeof TASKS)[K]>;

/** Tasks whose engine calls need the course module and its data, which an engine loads on first need. */
const COURSE_TASKS: ReadonlySet<TaskName> = new Set<TaskName>(['plan', 'planSearch', 'simulateModel']);
/** Tasks whose engine calls need the tools module (exports, profiler traces), loaded on first need too. */
const TOOLS_TASKS: ReadonlySet<TaskName> = new Set<TaskName>(['overlapTrace', 'measuredPipeline', 'exportText']);

/** Gets `engine` ready for `task` (the worker and the main thread both call it before runTask). */
export async function prepareTask(engine: Engine, task: TaskName): Promise<void> {
  if (COURSE_TASKS.has(task)) await engine.courseData();
  if (TOOLS_TASKS.has(task)) await engine.toolsReady();
}

export function runTask<K extends TaskName>(engine: Engine, task: K, args: TaskArgs<K>): TaskResult<K> {
  return (TASKS[task] as (engine: Engine, args: TaskArgs<K>) => TaskResult<K>)(engine, args);
}

/** The buffers of every typed array in `value`: moved, not copied, to the page (a large run's ops are
 *  megabytes). */
export function transferablesOf(value: unknown, found = new Set<ArrayBuffer>()): ArrayBuffer[] {
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer) found.add(value.buffer);
  } else if (Array.isArray(value)) {
    for (const item of value) if (typeof item === 'object' && item !== null) transferablesOf(item, found);
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) if (typeof item === 'object' && item !== null) transferablesOf(item, found);
  }
  return [...found];
}

/** An error as it crosses from the worker: the engine's refusals keep their code. */
export interface ErrorData {
  message: string;
  code?: string;
  broken?: boolean;
  wording?: Wording;
  field?: string;
}

export function errorData(e: unknown): ErrorData {
  if (e instanceof EngineError) return { message: e.message, code: e.code, broken: e.broken, wording: e.wording, field: e.field };
  return { message: e instanceof Error ? e.message : String(e) };
}

/** The error as the page handles it: always an EngineError, so every view shows it as a message (an
 *  unexpected one as 'internal') rather than leaving it uncaught. */
export function errorFrom(data: ErrorData): Error {
  return new EngineError(data.message, data.code ?? 'internal', data.broken === true, data.wording, data.field);
}
