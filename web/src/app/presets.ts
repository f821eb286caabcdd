// Presets that reproduce published figures and the lesson's exercises.
import type { AppState } from '../state/page_state';

export interface Preset {
  id: string;
  /** i18n key of its name */
  name: string;
  state: Partial<AppState>;
}

export const PRESETS: Preset[] = [
  {
    id: 'fig5',
    name: 'preset.fig5',
    state: { schedule: 'dualpipe', ranks: '8', microBatches: '20', cost: 'F=1,B=2,W=1,FB=3', compare: ['1f1b', 'zb-h1'] },
  },
  {
    id: 'dualpipev',
    name: 'preset.dualpipev',
    state: { schedule: 'dualpipev', ranks: '4', microBatches: '10', cost: 'F=1,B=2,W=1,FB=3', compare: ['dualpipe', '1f1b'] },
  },
  {
    id: 'exercise1',
    name: 'preset.exercise1',
    state: { schedule: 'dualpipe', ranks: '8', microBatches: '16', cost: 'F=1,B=2,W=1,FB=3', compare: ['1f1b'] },
  },
  {
    id: 'exercise2',
    name: 'preset.exercise2',
    state: { schedule: 'dualpipe', ranks: '4', microBatches: '8', cost: 'F=1,B=2,W=1,FB=3', compare: ['1f1b'] },
  },
  {
    id: 'zerobubble',
    name: 'preset.zerobubble',
    state: { schedule: 'zb-h1', ranks: '4', microBatches: '8', cost: 'F=1,B=2,W=1,FB=3', compare: ['1f1b', 'zb-h2'] },
  },
];

export function matchingPreset(state: AppState): Preset | undefined {
  return PRESETS.find((p) =>
    Object.entries(p.state).every(([k, v]) => {
      const current = state[k as keyof AppState];
      return Array.isArray(v) ? true : current === v;
    }),
  );
}
