// The planner's numbers: the plan (every schedule at the input's sizes) and the search (every
// schedule, pipeline size, virtual stages and layers per stage), computed in the background worker.
// The search is cut into pieces so that the panel's progress bar follows it and a newer input stops
// it between two pieces. The panel (views/planner_panel.ts) only draws what this hands it.
import { Lane, SUPERSEDED, type Background } from '../engine/background';
import type { PlanSearchResult } from '../engine/engine';
import { isRefusal } from '../engine/outcome';
import type { PlanSearchPiece } from '../engine/tasks';
import type { PlannerAnswer, PlannerSource } from '../views/planner_panel';

/** Configurations per piece sent to the worker: small enough for the progress bar to move often,
 *  large enough that messages cost little next to the simulations. */
const SEARCH_PIECE = 8;
/** The ranked configurations the panel lists. */
const SEARCH_KEEP = 20;

/** A refusal as the panel shows it; anything else (a bug) is thrown on. */
function refused(e: unknown): PlannerAnswer<never> {
  if (!isRefusal(e)) throw e;
  return { error: { message: e.message, code: e.code } };
}

export class PlannerRuns implements PlannerSource {
  private readonly plans: Lane;
  private readonly searches: Lane;

  constructor(background: Background) {
    this.plans = new Lane(background);
    this.searches = new Lane(background);
  }

  async plan(input: string, lang: string): Promise<PlannerAnswer<any>> {
    try {
      const plan = await this.plans.begin().run('plan', { input, lang });
      return plan === SUPERSEDED ? 'superseded' : { value: plan };
    } catch (e) {
      return refused(e);
    }
  }

  async search(input: string, progress: (done: number, total: number) => void): Promise<PlannerAnswer<PlanSearchResult>> {
    const request = this.searches.begin();
    let piece: PlanSearchPiece = { begin: { input }, count: SEARCH_PIECE, keep: SEARCH_KEEP };
    try {
      for (;;) {
        const got = await request.run('planSearch', piece);
        if (got === SUPERSEDED) return 'superseded';
        progress(got.done, got.total);
        if (got.result) return { value: got.result };
        piece = { count: SEARCH_PIECE, keep: SEARCH_KEEP };
      }
    } catch (e) {
      return refused(e);
    }
  }

  /** Stops the search under way (the view was left or the input changed): its next piece is dropped. */
  stop(): void {
    this.searches.begin();
  }
}
