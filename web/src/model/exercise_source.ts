// Where the lesson's exercises come from: core works each one (`pipesim lesson`, in the course
// module) and, for exercise 2, the engine runs the schedule its answer was read from. The one place
// the exercises view reaches the engine through, so the view only draws what it is given.
import { EngineError, type Engine, type SimulateValue, type Wording } from '../engine/engine';
import { requestOfCoreRun } from './request';

/** What the exercises are asked with: the page's costs, exercise 3's memory inputs, the language. */
export interface ExerciseRequest {
  lang: string;
  cost: string;
  bytesPerParam: number;
  gpuMemoryGb: number;
}

/** One exercise as core worked it (and the run it names, if any), or core's refusal of its inputs. */
export type ExerciseOutcome =
  | { exercise: number; worked: any; run?: SimulateValue }
  | { exercise: number; refusal: { message: string; wording?: Wording } };

export interface ExerciseSource {
  /** Resolves once exercises() can answer: the course module and its data are loaded on first need. */
  ready(): Promise<void>;
  isReady(): boolean;
  /** Exercises 1 to 4, in order. */
  exercises(request: ExerciseRequest): ExerciseOutcome[];
}

export const EXERCISES = [1, 2, 3, 4];

export function engineExerciseSource(engine: Engine): ExerciseSource {
  let ready = false;
  return {
    ready: () => engine.courseData().then(() => void (ready = true)),
    isReady: () => ready,
    exercises: (request) =>
      EXERCISES.map((exercise) => {
        try {
          const worked =
            exercise === 3
              ? engine.lesson({ exercise, lang: request.lang, bytesPerParam: request.bytesPerParam, gpuMemoryGb: request.gpuMemoryGb })
              : engine.lesson({ exercise, lang: request.lang, cost: request.cost });
          // Exercise 2 is read off a timeline: its inputs name the run, drawn beside the answer.
          const inputs = exercise === 2 ? worked.inputs : null;
          const run = inputs ? engine.simulate(requestOfCoreRun(inputs, inputs.cost)) : undefined;
          return { exercise, worked, run };
        } catch (e) {
          if (!(e instanceof EngineError)) throw e;
          return { exercise, refusal: { message: e.message, wording: e.wording } };
        }
      }),
  };
}
