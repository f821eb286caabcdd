// The course module (wasm/bindings_course.cpp: the quiz, the lesson exercises, the planner, the
// Memory tab's model runs), given
// core/data's course files. engine.ts imports this file dynamically, the first time the course or the
// planner needs it, so neither the module's JavaScript nor its .wasm is part of the page's first
// download (issue 8): the learning layer would make that download 40% larger.
import createPipesimCourse from './generated/pipesim_course.mjs';
import type { ModelRunRequest, PipesimCourseModule, PlanSearchOptions, PlanSearchPoint, PlanSearchProgress, PlanSearchResult, QuizQuestion, QuizRequest, RankMemoryBytes } from './generated/pipesim_course.mjs';
import { COURSE_FILES, courseText } from './course_data';
import { courseWasmOptions } from './course_source';

export type { ModelRunRequest, PipesimCourseModule, PlanSearchOptions, PlanSearchPoint, PlanSearchProgress, PlanSearchResult, QuizQuestion, QuizRequest, RankMemoryBytes };

/** A new instance of the course module holding the course data. The module refuses bad data by
 *  throwing a PipesimError, which the caller (engine.ts) turns into an EngineError. */
export async function loadCourseModule(): Promise<PipesimCourseModule> {
  const [module, texts] = await Promise.all([
    createPipesimCourse(courseWasmOptions() as Parameters<typeof createPipesimCourse>[0]),
    Promise.all(COURSE_FILES.map(courseText)),
  ]);
  COURSE_FILES.forEach((name, i) => module.provideCourseData(name, texts[i]));
  return module;
}
