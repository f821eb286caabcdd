// The chunk view's numbers (views/chunk_panel.ts draws them): the engine's chunk model at the panel's
// inputs, and a profiler trace read and measured in the background worker. The page and the
// <pipesim-timeline> element both hand their chunk panel one of these.
import { Lane, SUPERSEDED, type Background } from '../engine/background';
import type { Engine } from '../engine/engine';
import { lang } from '../i18n';
import { outcomeOf } from '../engine/outcome';
import type { ChunkInputs } from '../state/page_state';
import type { ChunkSource } from '../views/chunk_panel';

/** The engine's overlap request for the panel's inputs: the default workload with the fields set,
 *  the ratio as a factor (the slider is its log2). */
export function overlapRequest(inputs: Readonly<ChunkInputs>, defaults: Readonly<Record<string, number | string>>) {
  const workload: Record<string, number | string> = { ...defaults };
  for (const [key, value] of Object.entries(inputs.workload)) workload[key] = value.trim() === '' ? value : Number(value);
  // The SM counts are the request's own fields, not the workload's.
  delete workload.comm_sms;
  delete workload.total_sms;
  delete workload.saturation_sms;
  const ratio = Math.pow(2, Number(inputs.ratio));
  // The derivation's words come from core in the page's language.
  return { workload: JSON.stringify(workload), commSms: inputs.commSms.trim(), ratio: String(ratio), language: lang() };
}

/** The chunk model's F, B, W, F&B scaled so that F = 1: the pipeline's shape depends only on ratios. */
export function normalisedCosts(r: { costs: { F: number; B: number; W: number; FB: number } }, engine: Pick<Engine, 'costBounds'>): string {
  const c = r.costs;
  const unit = c.F > 0 ? c.F : 1;
  const q = (v: number) => Number((v / unit).toFixed(3));
  const F = q(c.F);
  const B = q(c.B);
  const W = Math.min(B, q(c.W));
  const { fbMin, fbMax } = engine.costBounds(F, B); // rounding can move F&B out of its bounds
  const FB = Math.min(fbMax, Math.max(fbMin, q(c.FB)));
  return `F=${F},B=${B},W=${W},FB=${Number(FB.toFixed(3))}`;
}

/** A file's bytes, reporting how many have been read (a 100 MB trace takes a while from a slow disk). */
function readWithProgress(file: File, onProgress: (done: number) => void): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onprogress = (e) => onProgress(e.loaded);
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error(`cannot read ${file.name}`));
    reader.readAsArrayBuffer(file);
  });
}

export function chunkSource(engine: Pick<Engine, 'defaultWorkload' | 'overlap' | 'costBounds'>, background: Background): ChunkSource {
  const defaults = engine.defaultWorkload();
  /** Profile loads: a newer load, or a knob moved back to the model, supersedes an older one. */
  const profiles = new Lane(background);
  return {
    defaults,
    overlap: (inputs) => outcomeOf(() => engine.overlap(overlapRequest(inputs, defaults))),
    async measureTrace(file, onRead) {
      const request = profiles.begin();
      try {
        const bytes = await readWithProgress(file, (done) => request.current && onRead(done));
        if (!request.current) return null;
        onRead(bytes.length);
        const result = await request.run('overlapTrace', { bytes, lang: lang() });
        return result === SUPERSEDED ? null : result;
      } catch (e) {
        if (!request.current) return null;
        throw e;
      }
    },
    dropTrace: () => void profiles.begin(),
    costsOf: (result) => normalisedCosts(result, engine),
  };
}
