// The URL adapter: the page's state read from its address at start, and written back (throttled,
// url_writer.ts) after every change, keeping the parameters other code owns (lang, embed, ...).
import { APP_STATE_KEYS, type AppState, CUSTOM_IN_URL_LIMIT, BASES, DEFAULT_STATE, VIEWS, type CostBasis, type ViewName } from './page_state';
import type { Store } from './store';
import { browserAddressBar, UrlWriter, type AddressBar } from './url_writer';

/** The query parameters the state owns; any other one in the address is kept as it is. */
export const OWN_PARAMS = ['schedule', 'ranks', 'micro-batches', 'virtual-stages', 'cost', 'stage-cost', 'rank-speed', 'compare', 'basis', 'view', 'custom', 'timing', 'sends', 'step', 'memory-model', 'compare-timings'];

/** compare-timings' one value: Compare shows both timings. Any other value is ignored, as an unknown
 *  view or basis is. */
export const BOTH_TIMINGS_IN_URL = 'both';

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
    memoryModel: get('memory-model', DEFAULT_STATE.memoryModel),
    bothTimings: q.get('compare-timings') === BOTH_TIMINGS_IN_URL,
  };
}

/** The query string of a state; `extra` keeps parameters owned by others (lang, embed, ...). */
/** `takesText`: the schedule on screen is given as text (the registry's takes_text), whose text then
 *  rides in the address too. */
export function writeState(state: AppState, usesVirtualStages: boolean, extra: URLSearchParams, takesText = false): string {
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
  if (state.memoryModel) q.set('memory-model', state.memoryModel);
  if (state.bothTimings) q.set('compare-timings', BOTH_TIMINGS_IN_URL);
  // A pasted schedule rides in the address only while a link stays shareable (servers refuse ~8 KB).
  if (takesText && state.custom.length <= CUSTOM_IN_URL_LIMIT) q.set('custom', state.custom);
  for (const [k, v] of extra) if (!q.has(k)) q.set(k, v);
  // Keep commas, '=' and ':' (rank-speed=3:0.5) readable in shared links.
  return '?' + q.toString().replace(/%2C/g, ',').replace(/%3D/g, '=').replace(/%3A/g, ':');
}

/** Keeps the address in step with a store: every change of the state is written into it. */
export class UrlAdapter {
  readonly writer: UrlWriter;

  constructor(
    private readonly address: AddressBar = browserAddressBar(),
    /** Whether a schedule has virtual stages (only then is virtual-stages in its link). */
    private readonly usesVirtualStages: (schedule: string) => boolean = () => false,
    /** Whether a schedule is given as text (only then is the text in its link). */
    private readonly takesText: (schedule: string) => boolean = () => false,
  ) {
    this.writer = new UrlWriter(address);
  }

  /** The state the address describes. */
  read(): AppState {
    return readState(this.address.search());
  }

  /** Writes `state` into the address, keeping the parameters it does not own. */
  write(state: AppState): void {
    const extra = new URLSearchParams(this.address.search());
    for (const key of OWN_PARAMS) extra.delete(key);
    this.writer.write(writeState(state, this.usesVirtualStages(state.schedule), extra, this.takesText(state.schedule)));
  }

  /** Writes the store's state after each of its changes (subscribe this before the views, so the
   *  address is up to date when they draw). */
  connect<T extends AppState>(store: Store<T>): () => void {
    const owned = new Set<PropertyKey>(APP_STATE_KEYS);
    return store.subscribe((state, keys) => {
      if ([...keys].some((key) => owned.has(key))) this.write(state);
    });
  }

  /** Writes a change still waiting for its turn, now. */
  flush(): void {
    this.writer.flush();
  }
}
