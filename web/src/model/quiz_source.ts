// Where the quiz's questions come from: core makes every question (its text, options in display
// order, the right one, the explanation's numbers) in the course module; this is the one place the
// quiz's views reach the engine through, so the views only draw what they are given.
import { EngineError, type Engine, type QuizQuestion, type QuizRequest, type SimulateValue } from '../engine/engine';

export type { QuizQuestion, QuizRequest };
export type QuizTimeline = NonNullable<QuizQuestion['timeline']>;

/** The settings live questions are asked for: the page's sizes and costs (core's defaults when absent). */
export interface QuizSettings {
  ranks?: number | string;
  microBatches?: number | string;
  cost?: string;
}

export interface QuizSource {
  /** Resolves once questions() can answer: the course module and its data are loaded on first need. */
  ready(): Promise<void>;
  /** Whether ready() has resolved. */
  isReady(): boolean;
  /** The questions of one set, made by core; none when core refuses these settings (odd sizes, bad costs). */
  questions(request: QuizRequest): QuizQuestion[];
  /** The run a timeline question is answered on. */
  timelineRun(timeline: QuizTimeline): SimulateValue;
  /** The course's quiz.json in `lang`, as `pipesim quiz --course` writes it. */
  courseExport(lang: string): Promise<string>;
}

/** The quiz's questions from `engine`, the last answer of each set kept: a click redraws the card,
 *  and the live set costs a few simulations. */
export function engineQuizSource(engine: Engine): QuizSource {
  let ready = false;
  const memo = new Map<string, QuizQuestion[]>();
  return {
    ready: () => engine.courseData().then(() => void (ready = true)),
    isReady: () => ready,
    questions(request) {
      const key = JSON.stringify(request);
      let questions = memo.get(key);
      if (!questions) {
        try {
          questions = engine.quizQuestions(request);
        } catch (e) {
          if (!(e instanceof EngineError)) throw e;
          questions = []; // no question applies to these settings
        }
        memo.clear(); // one entry: the settings on screen
        memo.set(key, questions);
      }
      return questions;
    },
    timelineRun: (timeline) =>
      engine.simulate({ schedule: timeline.schedule, ranks: timeline.ranks, microBatches: timeline.microBatches, cost: timeline.cost, virtualStages: 1 }),
    async courseExport(lang) {
      await engine.courseData();
      return JSON.stringify(engine.courseQuiz(lang), null, 2) + '\n';
    },
  };
}

/** A live request for the settings on screen. */
export function liveRequest(settings: QuizSettings, lang: string, seed: number): QuizRequest {
  const request: QuizRequest = { set: 'live', lang, seed };
  // Sizes as typed: core refuses one that is no whole number, and then no question applies.
  if (settings.ranks !== undefined && settings.ranks !== '') request.ranks = Number(settings.ranks);
  if (settings.microBatches !== undefined && settings.microBatches !== '') request.microBatches = Number(settings.microBatches);
  if (settings.cost) request.cost = settings.cost;
  return request;
}
