// The page's whole state, and its URL form: any view can be shared by copying the address.
// Values stay as the user typed them; the engine validates them and explains what it refuses.

export type ViewName = 'learn' | 'timeline' | 'compare' | 'charts' | 'memory' | 'chunk' | 'exercises' | 'quiz' | 'planner';
/** In tab order: the guided lesson first, for a newcomer. */
export const VIEWS: ViewName[] = ['learn', 'timeline', 'compare', 'charts', 'memory', 'chunk', 'exercises', 'quiz', 'planner'];

/** How Compare and Charts give every schedule its costs: "model", the same model on the same GPUs
 *  (the costs are one rank's share of the model, and each schedule cuts it into its own stages), or
 *  "stage", the same costs for every stage of every schedule (the DualPipe README table's basis). */
export type CostBasis = 'model' | 'stage';
export const BASES: CostBasis[] = ['model', 'stage'];

export interface AppState {
  schedule: string;
  ranks: string;
  microBatches: string;
  virtualStages: string;
  cost: string;
  compare: string[];
  basis: CostBasis;
  /** Per-stage costs as --stage-cost takes them, separated by ';' ("first:F=2,B=4; last:F=2,B=4"). */
  stageCost: string;
  /** Per-rank speeds as --rank-speed takes them, separated by ';' ("3:0.5" is rank 3 at half speed). */
  rankSpeed: string;
  view: ViewName;
  /** The pasted schedule when `schedule` is "custom": JSON or PyTorch action notation. */
  custom: string;
  /** 'dataflow' (the ideal) or 'reference' (as the reference program communicates). */
  timing: string;
  /** With timing 'reference': 'rendezvous', 'eager' or 'async'. */
  sends: string;
  /** The guided lesson's step (1-based), in the URL while the Learn view is open. */
  step: string;
}

export const DEFAULT_STATE: AppState = {
  schedule: 'dualpipe',
  ranks: '8',
  microBatches: '20',
  virtualStages: '2',
  cost: 'F=1,B=2,W=1,FB=3',
  compare: ['1f1b', 'zb-h1'],
  basis: 'model',
  stageCost: '',
  rankSpeed: '',
  view: 'timeline',
  custom: '',
  timing: 'dataflow',
  sends: 'rendezvous',
  step: '1',
};

/** Longest pasted schedule kept in the URL, in characters. */
export const CUSTOM_IN_URL_LIMIT = 4000;

export interface CostValues {
  F: number;
  B: number;
  W: number;
  FB: number;
  comm: number;
}

/** The --stage-cost entries of a preset: `factor` times the costs on screen (as the engine read
 *  them) for the stages named. */
export function scaledStageCost(c: CostValues, stages: string[], factor: number): string {
  const n = (v: number) => String(Number((v * factor).toFixed(6)));
  return stages.map((s) => `${s}:F=${n(c.F)},B=${n(c.B)},W=${n(c.W)},FB=${n(c.FB)}`).join('; ');
}

export function formatCost(c: CostValues): string {
  const n = (v: number) => String(Number(v.toFixed(6)));
  const base = `F=${n(c.F)},B=${n(c.B)},W=${n(c.W)},FB=${n(c.FB)}`;
  return c.comm ? `${base},comm=${n(c.comm)}` : base;
}

export function readState(search: string): AppState {
  const q = new URLSearchParams(search);
  const get = (key: string, fallback: string) => q.get(key) ?? fallback;
  const view = get('view', DEFAULT_STATE.view) as ViewName;
  const basis = get('basis', DEFAULT_STATE.basis) as CostBasis;
  const compare = q.get('compare');
  const schedule = get('schedule', DEFAULT_STATE.schedule);
  return {
    schedule,
    ranks: get('ranks', DEFAULT_STATE.ranks),
    microBatches: get('micro-batches', DEFAULT_STATE.microBatches),
    virtualStages: get('virtual-stages', DEFAULT_STATE.virtualStages),
    cost: get('cost', DEFAULT_STATE.cost),
    compare: (compare === null ? [...DEFAULT_STATE.compare] : [...new Set(compare.split(',').filter(Boolean))]).filter((n) => n !== schedule),
    basis: BASES.includes(basis) ? basis : DEFAULT_STATE.basis,
    stageCost: get('stage-cost', DEFAULT_STATE.stageCost),
    rankSpeed: get('rank-speed', DEFAULT_STATE.rankSpeed),
    view: VIEWS.includes(view) ? view : DEFAULT_STATE.view,
    custom: get('custom', ''),
    timing: get('timing', DEFAULT_STATE.timing),
    sends: get('sends', DEFAULT_STATE.sends),
    step: get('step', DEFAULT_STATE.step),
  };
}

/** The query string of a state; `extra` keeps parameters owned by others (lang, embed, ...). */
export function writeState(state: AppState, usesVirtualStages: boolean, extra: URLSearchParams): string {
  const q = new URLSearchParams();
  q.set('schedule', state.schedule);
  q.set('ranks', state.ranks);
  q.set('micro-batches', state.microBatches);
  if (usesVirtualStages) q.set('virtual-stages', state.virtualStages);
  q.set('cost', state.cost);
  q.set('compare', state.compare.join(','));
  if (state.basis !== DEFAULT_STATE.basis) q.set('basis', state.basis);
  if (state.stageCost.trim()) q.set('stage-cost', state.stageCost);
  if (state.rankSpeed.trim()) q.set('rank-speed', state.rankSpeed);
  if (state.view !== 'timeline') q.set('view', state.view);
  if (state.timing !== DEFAULT_STATE.timing) q.set('timing', state.timing);
  if (state.timing !== DEFAULT_STATE.timing && state.sends !== DEFAULT_STATE.sends) q.set('sends', state.sends);
  if (state.view === 'learn') q.set('step', state.step);
  // A pasted schedule rides in the address only while a link stays shareable (servers refuse ~8 KB).
  if (state.schedule === 'custom' && state.custom.length <= CUSTOM_IN_URL_LIMIT) q.set('custom', state.custom);
  for (const [k, v] of extra) if (!q.has(k)) q.set(k, v);
  // Keep commas, '=' and ':' (rank-speed=3:0.5) readable in shared links.
  return '?' + q.toString().replace(/%2C/g, ',').replace(/%3D/g, '=').replace(/%3A/g, ':');
}
