// Presets that reproduce published figures and the lesson's exercises: core's (core/engine/src/presets.cpp,
// the module's presets()), turned into the page's state.
import type { PresetInfo } from '../engine/engine';
import { lang } from '../i18n';
import type { AppState } from '../state/page_state';

export interface Preset {
  id: string;
  /** in the page's language */
  name: string;
  state: Partial<AppState>;
}

export function presetFrom(p: PresetInfo): Preset {
  return {
    id: p.id,
    name: p.texts[lang()].name,
    state: {
      schedule: p.schedule,
      ranks: String(p.ranks),
      microBatches: String(p.micro_batches),
      cost: p.cost,
      compare: [...p.compare],
      // 1 is what every schedule without virtual stages runs with: left as the user had it, so that a
      // later switch to an interleaved schedule keeps its own count.
      ...(p.virtual_stages !== 1 ? { virtualStages: String(p.virtual_stages) } : {}),
    },
  };
}

/** The preset `state` is on, if any: every field it sets but the compared schedules, which the user
 *  may change without leaving it. */
export function matchingPreset(presets: readonly Preset[], state: AppState): Preset | undefined {
  return presets.find((p) =>
    Object.entries(p.state).every(([k, v]) => {
      const current = state[k as keyof AppState];
      return Array.isArray(v) ? true : current === v;
    }),
  );
}
