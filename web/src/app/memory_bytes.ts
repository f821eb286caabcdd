// The Memory tab on a model and cluster: the schedule on screen and every schedule of Compare run as
// `pipesim simulate --model FILE` runs them (the course module's simulateModel: core divides the
// model over each schedule's stages and prices the bytes), at the page's ranks and micro-batches (the
// controls), handed to the panel to draw. The runs go through the page's one engine client, which
// runs them in the background worker (client.ts simulateModels); a newer request supersedes one
// still under way.
import type { ModelRunRequest, ModelRunResult } from '../engine/engine';
import type { Outcome, Refusal } from '../engine/outcome';
import { SUPERSEDED, type Superseded } from '../engine/superseded';
import { wordRefusal } from '../i18n/refusals';
import { planExample } from '../model/plan_examples';
import type { AppState } from '../state/page_state';
import type { MemoryPanel, ModelVerdict } from '../views/memory_panel';

/** Runs on a model, each its result or its refusal (the app: the engine client's simulateModels in
 *  the Memory tab's lane), or SUPERSEDED when a newer request replaced them. */
export type ModelRuns = (requests: ModelRunRequest[]) => Promise<Outcome<ModelRunResult>[] | Superseded>;

/** A refusal in the page's language. */
function worded(error: Refusal): string {
  return wordRefusal(error.message, error.wording);
}

export class MemoryBytes {
  private asked = 0;

  constructor(
    private readonly runs: ModelRuns,
    /** Whether a schedule has virtual stages (only then are the page's sent). */
    private readonly usesVirtualStages: (schedule: string) => boolean,
    private readonly panel: Pick<MemoryPanel, 'showPicked' | 'showModel'>,
    private readonly title: (name: string) => string,
  ) {}

  /** The request of `schedule` on the model at the page's sizes: its ranks (the model divided over that
   *  many pipeline stages of the same cluster) and micro-batches, and its virtual stages for a
   *  schedule that has them. Values go as typed: the engine refuses them in its words. */
  request(state: Readonly<AppState>, schedule: string, model: string): ModelRunRequest {
    const sizes = { ranks: state.ranks, microBatches: state.microBatches };
    return { schedule, model, ...sizes, ...(this.usesVirtualStages(schedule) ? { virtualStages: state.virtualStages } : {}) };
  }

  async update(state: Readonly<AppState>): Promise<void> {
    const ask = ++this.asked;
    // The panel says itself when the address names no model it offers (and shows chunks then).
    this.panel.showPicked(state.memoryModel);
    const example = planExample(state.memoryModel);
    if (!example) return;
    const names = [state.schedule, ...state.compare.filter((n) => n !== state.schedule)];
    const outcomes = await this.runs(names.map((name) => this.request(state, name, example.text)));
    if (outcomes === SUPERSEDED || ask !== this.asked) return;
    // A task that failed whole (the course module did not load, a broken worker) is said once.
    const [first] = outcomes;
    if ('error' in first && first.error.code === 'internal' && outcomes.every((o) => 'error' in o && o.error.message === first.error.message)) {
      this.panel.showModel({ example, run: { error: worded(first.error) }, verdicts: [] });
      return;
    }
    const verdicts: ModelVerdict[] = names.map((name, i) => {
      const outcome = outcomes[i];
      const title = this.title(name);
      if ('error' in outcome) return { name, title, error: worded(outcome.error) };
      const peakBytes = Math.max(...outcome.value.per_rank.map((r) => r.memory_bytes.total));
      return { name, title, fits: outcome.value.memory.fits, peakBytes };
    });
    this.panel.showModel({ example, run: 'error' in first ? { error: worded(first.error) } : first.value, verdicts });
  }
}
