// Where the guided lesson's runs come from: the one place the Learn view reaches the engine through,
// so the view only draws the steps' runs it is given. Which runs each step shows and compares with is
// core data (lessonSteps(), core/engine/src/presets.cpp); runs are kept once computed, since a step is
// redrawn on every prediction and its runs do not change.
import type { Engine, RunRequest, SimulateValue } from '../engine/engine';
import type { LessonRun, LessonSteps } from '../engine/generated/pipesim_engine.mjs';
import { requestOfCoreRun } from './request';

/** A step of the guided lesson as the page runs it: core's runs as requests. */
export interface LessonStep {
  /** The step's texts are learn.<id>.* */
  id: string;
  request: RunRequest;
  /** The runs its question and answer set beside it, in core's order. */
  compared: RunRequest[];
}

export interface LearnSource {
  /** The lesson's steps, in order. */
  readonly steps: readonly LessonStep[];
  /** The run of a step's request (or of one it compares with), kept once computed. */
  simulate(request: RunRequest): SimulateValue;
  /** A schedule's display name, from the engine's catalogue. */
  title(name: string): string;
}

/** Core's lesson as the page's requests: every run at the lesson's costs. */
export function lessonStepsOf(lesson: LessonSteps): LessonStep[] {
  const request = (r: LessonRun): RunRequest => requestOfCoreRun(r, lesson.cost);
  return lesson.steps.map((step) => ({ id: step.id, request: request(step.run), compared: step.compared.map(request) }));
}

export function engineLearnSource(engine: Engine): LearnSource {
  const runs = new Map<string, SimulateValue>();
  return {
    steps: lessonStepsOf(engine.lessonSteps),
    simulate(request) {
      const key = JSON.stringify(request);
      let run = runs.get(key);
      if (!run) {
        run = engine.simulate(request);
        runs.set(key, run);
      }
      return run;
    },
    title: (name) => engine.schedule(name)?.title ?? name,
  };
}
