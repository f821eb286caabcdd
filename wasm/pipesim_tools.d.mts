// Hand-written types for the tools' Embind module: the exports, the chunk model and the profiler trace
// readers (Emscripten 3.1.6 has no --emit-tsd). Keep in step with wasm/bindings_later.cpp and
// wasm/bindings_tools.cpp.
import type { ModuleOptions, OverlapRequestJs, PipesimError, RunRequestJs } from './pipesim_engine.mjs';

export type { ModuleOptions, PipesimError } from './pipesim_engine.mjs';

export interface PipesimToolsModule {
  PipesimError: typeof PipesimError;
  // The engine's calls the page's first drawing does not need (wasm/bindings_later.cpp), as the
  // engine's Node build has them: the chunk model, its default workload, a run in an export format.
  overlap(request: OverlapRequestJs): any;
  defaultWorkload(): Record<string, number>;
  exportText(request: RunRequestJs, format: string, usPerUnit: number): { text: string };
  // `pipesim overlap --trace FILE --format json`: a PyTorch profiler trace of one F&B pair, measured.
  overlapTrace(text: string, language: string): any;
  // `pipesim simulate --measured FILES --align ALIGN --format json`: one profiler trace per rank.
  measuredPipeline(texts: string[], align?: 'profiler' | 'first-ops'): any;
  version(): string;
}

export default function createPipesimTools(options?: ModuleOptions): Promise<PipesimToolsModule>;
