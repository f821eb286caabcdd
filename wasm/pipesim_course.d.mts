// Hand-written types for the course's Embind module: the quiz, the lesson exercises and the planner
// (Emscripten 3.1.6 has no --emit-tsd). Keep in step with wasm/bindings_course.cpp.
import type { ModuleOptions, PipesimError } from './pipesim_engine.mjs';

export type { ModuleOptions, PipesimError } from './pipesim_engine.mjs';

export interface PipesimCourseModule {
  PipesimError: typeof PipesimError;
  // The course's quiz.json; seed is a whole number from 0 to 2147483647 as `quiz --seed`, else a PipesimError.
  courseQuiz(lang: string, seed: number): any;
  lesson(request: { exercise: number; lang?: string; cost?: string; bytesPerParam?: number; gpuMemoryGb?: number }): any;
  plan(input: string, lang: string): any; // `pipesim plan --format json --lang L`
  // The module does not carry the course data (core/data/NAME.json): hand each file's text over
  // before the first courseQuiz, lesson or plan call, which otherwise throws a PipesimError (code
  // 'usage') naming the missing file.
  provideCourseData(name: 'quiz_bank' | 'lesson_text' | 'planner_text', text: string): void;
  version(): string;
}

export default function createPipesimCourse(options?: ModuleOptions): Promise<PipesimCourseModule>;
