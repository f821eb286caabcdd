// A measured pipeline, measured for its panel (views/measured_pipeline_panel.ts): the chosen profiler
// traces read as bytes, then measured next to the model in the background worker; a newer choice
// supersedes one still there.
import { Lane, SUPERSEDED, type Background } from '../engine/background';
import type { Align, MeasuredPipelinePanel } from '../views/measured_pipeline_panel';

export class MeasuredPipeline {
  private readonly loads: Lane;

  constructor(background: Background) {
    this.loads = new Lane(background);
  }

  /** Measures `files`, telling `panel` each step; a refusal in the engine's words. */
  async measure(files: File[], align: Align, panel: Pick<MeasuredPipelinePanel, 'render'>): Promise<void> {
    const request = this.loads.begin();
    try {
      panel.render({ step: 'reading', count: files.length });
      const bytes = await Promise.all(files.map(async (f) => new Uint8Array(await f.arrayBuffer())));
      if (!request.current) return;
      panel.render({ step: 'measuring', count: files.length });
      const result = await request.run('measuredPipeline', { files: bytes, align });
      if (result === SUPERSEDED) return;
      panel.render({ step: 'shown', count: files.length, result });
    } catch (e) {
      if (!request.current) return;
      panel.render({ step: 'refused', message: e instanceof Error ? e.message : String(e) });
    }
  }
}
