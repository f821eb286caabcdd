// Hand-written types for the course's Embind module: the quiz, the lesson exercises, the planner and
// its search, a run on a planner file's model (Emscripten 3.1.6 has no --emit-tsd). Keep in step with
// wasm/bindings_course.cpp.
import type { ModuleOptions, PipesimError } from './pipesim_engine.mjs';

export type { ModuleOptions, PipesimError } from './pipesim_engine.mjs';

export interface QuizRequest {
  set: 'bank' | 'live';
  lang?: string;
  seed?: number;
  ranks?: number; // live: the page's settings
  microBatches?: number;
  cost?: string;
}

export interface QuizQuestion {
  key: string; // stable across languages and seeds: "bank-7", "live-peak-8-20-F=1,B=2,W=1,FB=3"
  text: string;
  options: string[]; // empty for a timeline question
  correct: number;
  explanation: string;
  source: string;
  view: string;
  timeline?: { schedule: string; ranks: number; microBatches: number; cost: string; prompt: string };
}

/** A schedule run on a planner file's model and cluster (`pipesim simulate --model FILE`). */
export interface ModelRunRequest {
  schedule: string;
  model: string; // the planner file's JSON text (core/data/plan_examples/)
  ranks?: number | string; // default: the file's model.pp (the same cluster in this many stages)
  microBatches?: number | string; // default: the file's model.micro_batches
  virtualStages?: number | string;
  layersPerStage?: string; // "6,10,10,6"; default balanced
}

/** One rank's bytes (model_stages.h: memory_json); activation_curve is [[time, bytes], ...]. */
export interface RankMemoryBytes {
  rank: number;
  stages: number[];
  weights: number;
  gradients: number;
  optimizer: number;
  activations_peak: number;
  activations_peak_time: number;
  total: number;
  fits: boolean;
  activation_curve: [number, number][];
}

export interface PlanSearchOptions {
  pp?: number[];
  microBatchSize?: number[];
  virtualStages?: number[];
  lighterEnds?: number[];
}

export interface PlanSearchProgress {
  done: number;
  total: number;
}

export interface PlanCosts {
  F: number;
  B: number;
  W: number;
  FB: number;
  comm: number;
}

/** One configuration of the search (planner.h: SearchPoint). */
export interface PlanSearchPoint {
  schedule: string;
  pipeline: boolean; // false at pp 1: no pipeline parallelism
  pp: number;
  micro_batches: number;
  micro_batch_size: number;
  virtual_stages: number;
  lighter_ends: number;
  layers_per_stage: number[];
  stage_cost_ms: PlanCosts[];
  makespan_ms: number;
  bubble_fraction: number;
  allreduce_ms: number;
  iteration_ms: number;
  peak_gb: number;
  fits: boolean;
}

export interface PlanSearchResult extends PlanSearchProgress {
  configurations: number;
  refused: number;
  same_layout: number;
  best: PlanSearchPoint[];
}

export interface PipesimCourseModule {
  PipesimError: typeof PipesimError;
  // The course's quiz.json as `pipesim quiz --course --lang L` writes it (the order the course's CI demands).
  courseQuiz(lang: string): any;
  // The quiz as the page shows it (pipesim/quiz_questions.h): the bank's questions, or those the engine
  // answers for the given settings; options in display order for `seed`, `correct` the right one's
  // index (for a timeline question: the op to click, an index into the run's ops).
  quizQuestions(request: QuizRequest): QuizQuestion[];
  lesson(request: { exercise: number; lang?: string; cost?: string; bytesPerParam?: number; gpuMemoryGb?: number }): any;
  plan(input: string, lang: string): any; // `pipesim plan --format json --lang L`
  // The planner's search (`pipesim plan --search`) in steps: begin on a JSON input with optional axes
  // (absent = the search's default), step it `count` configurations at a time, read the ranked result.
  planSearchBegin(input: string, options?: PlanSearchOptions): PlanSearchProgress;
  planSearchStep(count: number): PlanSearchProgress;
  planSearchResult(keep: number): PlanSearchResult;
  // `pipesim simulate --model FILE --format summary`, each per_rank[].memory_bytes with its curve;
  // memory: {units: 'bytes', gpu_bytes, fits}.
  simulateModel(request: ModelRunRequest): any;
  // The module does not carry the course data (core/data/NAME.json): hand each file's text over
  // before the first courseQuiz, lesson or plan call, which otherwise throws a PipesimError (code
  // 'usage') naming the missing file.
  provideCourseData(name: 'quiz_bank' | 'lesson_text' | 'planner_text', text: string): void;
  version(): string;
}

export default function createPipesimCourse(options?: ModuleOptions): Promise<PipesimCourseModule>;
