// The Memory tab on a model and cluster: the schedule on screen and every schedule of Compare run as
// `pipesim simulate --model FILE` runs them (the course module's simulateModel: core divides the
// model over each schedule's stages and prices the bytes), handed to the panel to draw. The course
// module loads on first need; a newer request supersedes one still waiting for it.
import type { Engine, ModelRunRequest, ModelRunResult, Wording } from '../engine/engine';
import { wordRefusal } from '../i18n/refusals';
import { planExample } from '../model/plan_examples';
import type { AppState } from '../state/page_state';
import type { MemoryPanel, ModelVerdict } from '../views/memory_panel';

type ModelEngine = Pick<Engine, 'courseData' | 'simulateModel' | 'schedule'>;

/** The engine's refusal (an EngineError: its message and wording) in the page's language. */
function refusal(e: unknown): string {
  return e instanceof Error ? wordRefusal(e.message, (e as { wording?: Wording }).wording) : String(e);
}

export class MemoryBytes {
  private asked = 0;

  constructor(
    private readonly engine: ModelEngine,
    private readonly panel: Pick<MemoryPanel, 'showPicked' | 'showModel'>,
    private readonly title: (name: string) => string,
  ) {}

  /** The request of `schedule` on the model: the file's pipeline size and micro-batches; the page's
   *  virtual stages for a schedule that has them. */
  request(state: Readonly<AppState>, schedule: string, model: string): ModelRunRequest {
    const virtual = this.engine.schedule(schedule)?.uses_virtual_stages;
    return { schedule, model, ...(virtual ? { virtualStages: state.virtualStages } : {}) };
  }

  async update(state: Readonly<AppState>): Promise<void> {
    const ask = ++this.asked;
    this.panel.showPicked(state.memoryModel);
    const example = planExample(state.memoryModel);
    if (!example) return;
    try {
      await this.engine.courseData();
    } catch (e) {
      // The course module could not load: the tab says why and draws nothing half-way.
      if (ask === this.asked) this.panel.showModel({ example, run: { error: refusal(e) }, verdicts: [] });
      return;
    }
    if (ask !== this.asked) return;
    const runOf = (name: string): ModelRunResult | { error: string } => {
      try {
        return this.engine.simulateModel(this.request(state, name, example.text));
      } catch (e) {
        return { error: refusal(e) };
      }
    };
    const names = [state.schedule, ...state.compare.filter((n) => n !== state.schedule)];
    const runs = names.map(runOf);
    const verdicts: ModelVerdict[] = names.map((name, i) => {
      const run = runs[i];
      const title = this.title(name);
      if ('error' in run) return { name, title, error: run.error };
      const peakBytes = Math.max(...run.per_rank.map((r) => r.memory_bytes.total));
      return { name, title, fits: run.memory.fits, peakBytes };
    });
    this.panel.showModel({ example, run: runs[0], verdicts });
  }
}
