// <pipesim-timeline>: the timeline (or the comparison, or the chunk view, or the quiz) as one custom
// element for course pages, docs and web frameworks. Shadow DOM, themed by the host page's CSS
// variables; every element on a page shares one WebAssembly instance.
//
//   <pipesim-timeline schedule="dualpipe" ranks="8" micro-batches="20" cost="F=1,B=2,W=1,FB=3">
//
// Attributes and the properties that reflect them (what Preact, Vue and React set):
//   schedule, ranks, micro-batches (microBatches), virtual-stages (virtualStages), cost,
//   compare ("1f1b,zb-h1"; the property also takes an array), view ("timeline" | "compare" | "chunk" |
//   "quiz"), theme ("light" | "dark"; absent: the page's --bg, --ink, ... variables), palette ("cb"),
//   lang ("en" | "pt-BR" | "zh-CN", per element; absent: the nearest lang= above it, else English),
//   timing ("dataflow" | "reference": the reference runtime's send/receive structure; absent: dataflow),
//   sends ("rendezvous" | "eager" | "async"; with timing="reference" only, as the CLI's --sends).
// The engine checks timing and sends: a bad value is its refusal in place of the drawing.
// Read-only: summary (the engine's summary of what is drawn, or null).
// Events (bubbling, composed): "pipesim-change" after each drawing, detail {every property above as it
// reads (schedule, ranks, ..., timing, sends), view (the one drawn), lang (the one drawn in), summary}
// (ATTRIBUTES is the one list of them); "pipesim-error" when the engine refuses the
// settings, detail {code, message} (the drawing is replaced by the message).
// `hidden` hides it. Everything internal is a #private member: the public surface is the above.
import css from '../styles.css?inline';
import { clear, el } from '../base/dom';
import { num, percent } from '../base/format';
import { Lane, sharedBackground, sharedClient, SUPERSEDED, type LaneRequest } from '../engine/background';
import type { EngineClient } from '../engine/client';
import { EngineError, loadEngine, type Engine, type RunRequest, type SimulateValue } from '../engine/engine';
import { detectLang, inLang, loadLang, swapLang, t, type Lang } from '../i18n';
import { describeColumnWaits, describeIdle, describeOp, scheduleTitle } from '../model/describe';
import { requestOf } from '../model/request';
import { forwardShare, type RunView } from '../model/run';
import { DEFAULT_INPUTS, DEFAULT_STATE, type AppState, type PageState } from '../state/page_state';
import { Store } from '../state/store';
import { TimelineView, type TimelineGroup } from '../timeline/timeline_view';
import { ChunkPanel } from '../views/chunk_panel';
import { chunkSource } from '../model/chunk_source';
import { legend } from '../views/legend';
import { QuizCard } from '../views/quiz_card';
import { engineQuizSource } from '../model/quiz_source';
import type { Outcome } from '../engine/tasks';
import type { PipesimChangeDetail, PipesimErrorDetail } from './pipesim-timeline';

let sheet: CSSStyleSheet | null = null;

/** One stylesheet object for every element (constructable sheets pass a strict style-src 'self'). */
function sharedSheet(): CSSStyleSheet {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css + ELEMENT_CSS);
  }
  return sheet;
}

// Without a theme attribute the element takes its surfaces from the variables a course page defines
// (--bg, --ink, --ink-soft, --rule-soft, --blueprint, fonts): the card, tooltips and idle cells are the
// page's background, grid lines its rules, borders its ink, so the page's light or dark theme is the
// element's. The :host([theme]) rules of styles.css are more specific and win when the attribute is set.
const ELEMENT_CSS = `
:host { display: block; font-family: var(--font-body, system-ui, sans-serif); color: var(--ink, #1a1a1a);
  --panel: var(--bg, #fafaf5); --pipesim-idle: var(--bg, #ffffff); --pipesim-grid: var(--rule-soft, #e6e6e0);
  --pipesim-border: var(--ink, #111111); }
:host([hidden]) { display: none; }
.card { background: var(--panel, #fafaf5); border: 1px solid var(--rule-soft, #dddddd); border-radius: 10px; padding: 12px; overflow-wrap: normal; word-break: normal; hyphens: manual; }
.card-head { display: flex; flex-wrap: wrap; gap: 4px 14px; align-items: baseline; margin-bottom: 8px; }
.card-title { font-weight: 700; }
.card-numbers { color: var(--ink-soft, #555555); font-variant-numeric: tabular-nums; }
.card-numbers strong { color: var(--blueprint, #3553ff); }
.placeholder { color: var(--ink-mute, #777777); padding: 16px 0; }
`;

/** An element's state: the page's, with its attributes in place of the page's URL. */
type ElementState = AppState & Pick<PageState, 'chunk'>;

/**
 * Every attribute the element reflects as a property, written once: the observed attributes, the
 * hand-over of properties set early and the pipesim-change detail are all read from this list, so an
 * attribute added here is in the event too. `run`: a setting of the runs (the others restyle or
 * re-render). lang and hidden are HTMLElement's own.
 */
const ATTRIBUTES = [
  { property: 'schedule', attribute: 'schedule', run: true },
  { property: 'ranks', attribute: 'ranks', run: true },
  { property: 'microBatches', attribute: 'micro-batches', run: true },
  { property: 'virtualStages', attribute: 'virtual-stages', run: true },
  { property: 'cost', attribute: 'cost', run: true },
  { property: 'compare', attribute: 'compare', run: true },
  { property: 'timing', attribute: 'timing', run: true },
  { property: 'sends', attribute: 'sends', run: true },
  { property: 'view', attribute: 'view', run: false },
  { property: 'theme', attribute: 'theme', run: false },
  { property: 'palette', attribute: 'palette', run: false },
] as const satisfies readonly { property: keyof PipesimChangeDetail; attribute: string; run: boolean }[];
const SETTINGS = new Set<string>(ATTRIBUTES.filter((a) => a.run).map((a) => a.attribute));
const VIEWS = ['timeline', 'compare', 'chunk', 'quiz'] as const;
type View = (typeof VIEWS)[number];

// The event details are declared once, in the published types beside this file.
export type { PipesimChangeDetail, PipesimErrorDetail } from './pipesim-timeline';

/** Events a framework listens to; they bubble out of the shadow root. */
const EVENTS_SEEN_BY_VIEWS = ['click', 'input', 'change', 'keydown', 'pointerdown', 'pointermove', 'pointerup', 'pointerleave', 'wheel', 'focusin'];

const wholeOrNull = (value: string | null): number | null => (value !== null && /^\s*\d+\s*$/.test(value) ? Number(value) : null);

export class PipesimTimelineElement extends HTMLElement {
  // theme and palette restyle through CSS (:host([theme=dark])); they are observed so the canvas redraws.
  static observedAttributes = [...ATTRIBUTES.map((a) => a.attribute), 'lang', 'hidden'];

  readonly #root: ShadowRoot;
  readonly #body = el('div', { class: 'card' }, [el('div', { class: 'placeholder', text: 'pipesim…' })]);
  #engine: Engine | null = null;
  /** This element's state, as the page's is kept: in a store, fed by its attributes. */
  readonly #store = new Store<ElementState>({ ...DEFAULT_STATE, chunk: DEFAULT_INPUTS.chunk });
  /** The page's engine client: it decides where runs are simulated and shares results with the page. */
  #client: EngineClient | null = null;
  /** Large runs go to the page's background worker; a newer render supersedes one still there. */
  #updates: Lane | null = null;
  #queued = false;
  #language: Lang = 'en';
  #timeline: TimelineView | null = null;
  #chunk: ChunkPanel | null = null;
  /** The chunk model's module is loaded (toolsReady()), so the chunk view can be built. */
  #chunkModelReady = false;
  #quiz: QuizCard | null = null;
  #summary: unknown = null;
  /** Redraws the canvas when the page's theme changes (a data-theme or class toggle, the OS scheme). */
  #themeWatch: MutationObserver | null = null;
  #scheme: MediaQueryList | null = null;
  readonly #onScheme = () => this.#timeline?.renderNow();

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    this.#root.adoptedStyleSheets = [sharedSheet()];
    this.#root.append(this.#body);
    this.#store.subscribe(() => this.#schedule());
    // The views inside call t() from their own handlers: they run in this element's language.
    for (const type of EVENTS_SEEN_BY_VIEWS) {
      let saved: Lang | null = null;
      this.#root.addEventListener(type, () => (saved = swapLang(this.#language)), { capture: true });
      this.#root.addEventListener(type, () => saved && swapLang(saved));
    }
  }

  // ---- properties reflecting attributes ----
  get schedule(): string { return this.getAttribute('schedule') ?? DEFAULT_STATE.schedule; }
  set schedule(value: string | null) { this.#reflect('schedule', value); }
  get ranks(): number | null { return wholeOrNull(this.getAttribute('ranks')); }
  set ranks(value: number | string | null) { this.#reflect('ranks', value); }
  get microBatches(): number | null { return wholeOrNull(this.getAttribute('micro-batches')); }
  set microBatches(value: number | string | null) { this.#reflect('micro-batches', value); }
  get virtualStages(): number | null { return wholeOrNull(this.getAttribute('virtual-stages')); }
  set virtualStages(value: number | string | null) { this.#reflect('virtual-stages', value); }
  get cost(): string { return this.getAttribute('cost') ?? DEFAULT_STATE.cost; }
  set cost(value: string | null) { this.#reflect('cost', value); }
  get compare(): string[] { return (this.getAttribute('compare') ?? '').split(',').map((s) => s.trim()).filter(Boolean); }
  set compare(value: string | readonly string[] | null) { this.#reflect('compare', Array.isArray(value) ? value.join(',') : (value as string | null)); }
  get view(): string { return this.getAttribute('view') ?? (this.compare.length ? 'compare' : 'timeline'); }
  set view(value: string | null) { this.#reflect('view', value); }
  get theme(): string | null { return this.getAttribute('theme'); }
  set theme(value: string | null) { this.#reflect('theme', value); }
  get palette(): string | null { return this.getAttribute('palette'); }
  set palette(value: string | null) { this.#reflect('palette', value); }
  get timing(): string { return this.getAttribute('timing') ?? DEFAULT_STATE.timing; }
  set timing(value: string | null) { this.#reflect('timing', value); }
  get sends(): string | null { return this.getAttribute('sends'); }
  set sends(value: string | null) { this.#reflect('sends', value); }
  // lang and hidden are HTMLElement's own reflecting properties.
  /** The engine's summary of what is drawn (null before the first drawing, after a refusal, and for
   *  the chunk and quiz views). */
  get summary(): unknown { return this.#summary; }

  #reflect(name: string, value: unknown): void {
    if (value === null || value === undefined || value === false) this.removeAttribute(name);
    else this.setAttribute(name, String(value));
  }

  connectedCallback(): void {
    this.#adoptEarlyProperties();
    this.#store.set(this.#settings());
    this.#watchTheme();
    void this.#start();
  }

  disconnectedCallback(): void {
    this.#chunk?.hide();
    this.#themeWatch?.disconnect();
    this.#themeWatch = null;
    this.#scheme?.removeEventListener('change', this.#onScheme);
  }

  attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    if (old === value) return;
    // hidden is observed too: an element shown again draws at its size then (a hidden one skips drawing).
    if (name === 'lang') void this.#applyLang().then(() => this.#schedule());
    else if (SETTINGS.has(name)) this.#store.set(this.#settings()); // the store's listener renders
    else this.#schedule();
  }

  /** The settings the attributes give (absent ones: the page's defaults). */
  #settings(): Partial<ElementState> {
    const attr = (name: string, fallback: string) => this.getAttribute(name) ?? fallback;
    return {
      schedule: this.schedule,
      ranks: attr('ranks', DEFAULT_STATE.ranks),
      microBatches: attr('micro-batches', DEFAULT_STATE.microBatches),
      virtualStages: attr('virtual-stages', DEFAULT_STATE.virtualStages),
      cost: this.cost,
      compare: this.compare,
      timing: this.timing,
      sends: this.sends ?? DEFAULT_STATE.sends,
    };
  }

  /** A framework may set a property before this module defines the element (the course widget loads
   *  it asynchronously): the value then sits on the instance, hiding the accessor. Hand it over. */
  #adoptEarlyProperties(): void {
    const self = this as unknown as Record<string, unknown>;
    for (const { property: name } of ATTRIBUTES) {
      if (!Object.prototype.hasOwnProperty.call(this, name)) continue;
      const value = self[name];
      delete self[name];
      self[name] = value;
    }
  }

  #watchTheme(): void {
    if (this.#themeWatch) return;
    this.#themeWatch = new MutationObserver(this.#onScheme);
    this.#themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class', 'style'] });
    if (document.body) this.#themeWatch.observe(document.body, { attributes: true, attributeFilter: ['data-theme', 'class', 'style'] });
    this.#scheme = window.matchMedia?.('(prefers-color-scheme: dark)') ?? null;
    this.#scheme?.addEventListener('change', this.#onScheme);
  }

  /** This element's language: its own lang, else the nearest one above it, else English. Its views are
   *  rebuilt, since they write their labels once. */
  async #applyLang(): Promise<void> {
    const asked = this.getAttribute('lang') ?? this.parentElement?.closest('[lang]')?.getAttribute('lang') ?? 'en';
    const next = detectLang(`?lang=${encodeURIComponent(asked)}`, null, []);
    await loadLang(next);
    if (next !== this.#language) {
      this.#language = next;
      this.#timeline = null;
      this.#chunk?.hide();
      this.#chunk = null;
      this.#quiz = null;
    }
  }

  async #start(): Promise<void> {
    try {
      await this.#applyLang();
      this.#engine ??= await loadEngine();
      this.#updates ??= new Lane(sharedBackground(this.#engine));
      this.#client ??= sharedClient(this.#engine);
      this.#render();
    } catch (e) {
      // The engine did not start (its .wasm could not be fetched or compiled): not a refusal of settings.
      const code = e instanceof EngineError ? e.code : 'internal';
      this.#showError(code, (e as Error).message, 'error.engineStart');
    }
  }

  /** Coalesces a burst of attribute changes into one render. */
  #schedule(): void {
    if (this.#queued || !this.#engine) return;
    this.#queued = true;
    queueMicrotask(() => {
      this.#queued = false;
      this.#render();
    });
  }

  /** The engine request of `schedule` at this element's settings, made as the page makes its own. */
  #request(schedule: string): RunRequest {
    const request = requestOf(this.#store.get(), schedule, this.#engine!.schedule(schedule));
    // A sends attribute is passed on whatever the timing, so that the engine refuses it without
    // timing="reference" rather than the element drawing dataflow as if it had been read.
    const sends = this.sends;
    return sends === null ? request : { ...request, sends };
  }

  #runView(request: RunRequest, result: SimulateValue): RunView {
    const s = result.summary;
    return { request: { ...request, ranks: s.ranks, microBatches: s.micro_batches, virtualStages: s.virtual_stages }, info: this.#engine!.schedule(request.schedule)!, result };
  }

  #render(): void {
    if (this.hidden) return; // drawn when shown: a hidden canvas has no width
    const view = this.view;
    if (!(VIEWS as readonly string[]).includes(view)) return this.#showError('unknown_name', `view must be one of ${VIEWS.join(', ')}, not "${view}"`);
    const update = this.#updates!.begin(); // a large run still in the worker is now stale
    inLang(this.#language, () => {
      try {
        if (view === 'chunk') return this.#renderChunk();
        if (view === 'quiz') return this.#renderQuiz();
        this.#renderTimeline(view === 'compare', update);
      } catch (e) {
        if (!(e instanceof EngineError)) throw e;
        this.#showError(e.code, e.message);
      }
    });
  }

  /** The runs as the engine client gives them: small ones at once, large ones from the worker. */
  #renderTimeline(compare: boolean, update: LaneRequest): void {
    const { schedule, compare: compared } = this.#store.get();
    const names = compare ? [schedule, ...compared] : [schedule];
    const requests = names.map((name) => this.#request(name));
    const simulation = this.#client!.simulate(requests, update);
    if ('outcomes' in simulation) return this.#showOutcomes(requests, simulation.outcomes);
    void simulation.pending.then((outcomes) => {
      if (outcomes !== SUPERSEDED) inLang(this.#language, () => this.#showOutcomes(requests, outcomes));
    });
  }

  /** The timeline of the runs, or the first refusal among them in its place. */
  #showOutcomes(requests: RunRequest[], outcomes: Outcome<SimulateValue>[]): void {
    const refused = outcomes.find((o) => 'error' in o);
    if (refused && 'error' in refused) return this.#showError(refused.error.code, refused.error.message);
    this.#showTimeline(outcomes.map((o, k) => this.#runView(requests[k], (o as { value: SimulateValue }).value)));
  }

  #showTimeline(runs: RunView[]): void {
    const groups: TimelineGroup[] = runs.map((r) => ({
      key: r.info.name,
      title: t('compare.groupTitle', { title: scheduleTitle(r.info), makespan: num(r.result.summary.makespan) }),
      result: r.result,
      forwardShare: forwardShare(r),
    }));
    const speak = <A extends unknown[], R>(f: (...a: A) => R) => (...a: A): R => inLang(this.#language, () => f(...a));
    this.#timeline ??= new TimelineView({
      describeOp: speak(describeOp),
      describeIdle: speak(describeIdle),
      describeColumnWaits: speak(describeColumnWaits),
      rankLabel: speak((r: number) => t('timeline.rank', { n: r })),
      ariaLabel: t('timeline.aria'),
    });
    const s = runs[0].result.summary;
    const numbers = el('span', { class: 'card-numbers' }, [
      `${t('readout.makespan')} `,
      el('strong', { 'data-testid': 'makespan', text: num(s.makespan) }),
      ` · ${t('readout.bubbleFraction')} `,
      el('strong', { 'data-testid': 'bubble-fraction', text: percent(s.bubble_fraction, 2) }),
      ` · ${t('readout.formula')} ${s.formula.text} = ${num(s.formula.value)}`,
      ...(s.timing === 'reference' ? [el('span', { 'data-testid': 'timing', text: ` · ${t('control.timingReference')}` })] : []),
    ]);
    const title = t('element.title', {
      schedules: runs.map((r) => scheduleTitle(r.info)).join(' · '),
      ranks: s.ranks,
      micro: s.micro_batches,
    });
    clear(this.#body);
    this.#body.append(
      el('div', { class: 'card-head' }, [el('span', { class: 'card-title', text: title }), numbers]),
      this.#timeline.element,
      legend(s),
    );
    this.#timeline.setGroups(groups);
    this.#changed(runs.length > 1 ? 'compare' : 'timeline', s);
  }

  #renderChunk(): void {
    // The chunk model is in the module the engine loads on first need (engine.ts toolsReady()): the
    // view is drawn once it is there, if this element still shows the chunk.
    if (!this.#chunk && !this.#chunkModelReady) {
      this.#engine!.toolsReady().then(
        () => {
          this.#chunkModelReady = true;
          if (this.view === 'chunk') this.#renderChunk();
        },
        (e: Error) => this.#showError('error', e.message, 'error.engineStart'),
      );
      return;
    }
    // "Use these costs" hands the chunk's F, B, W, F&B to this element's timeline, as on the page.
    this.#chunk ??= new ChunkPanel(
      chunkSource(this.#engine!, sharedBackground(this.#engine!)),
      (cost) => {
        this.cost = cost;
        this.view = 'timeline';
      },
      this.#store.slice('chunk'),
    );
    this.#chunk.element.hidden = false;
    clear(this.#body);
    this.#body.append(this.#chunk.element);
    this.#chunk.update();
    this.#changed('chunk', null);
  }

  #renderQuiz(): void {
    // One quiz per element: an attribute change re-renders it in place, keeping the question on screen.
    this.#quiz ??= new QuizCard(engineQuizSource(this.#engine!), {
      storageKey: `pipesim:element-quiz:${this.id || 'default'}`,
      settings: () => this.#request(this.schedule),
      speak: (draw) => inLang(this.#language, draw),
    });
    if (this.#quiz.element.parentNode !== this.#body) {
      clear(this.#body);
      this.#body.append(this.#quiz.element);
    }
    this.#quiz.render();
    this.#changed('quiz', null);
  }

  #changed(view: View, summary: unknown): void {
    this.#summary = summary;
    // Every reflected property as it reads now, then what was drawn: the view (compare without
    // schedules to compare is drawn as the timeline), its language and its summary.
    const reflected = Object.fromEntries(ATTRIBUTES.map(({ property }) => [property, this[property]]));
    const detail = { ...reflected, view, lang: this.#language, summary } as PipesimChangeDetail;
    this.dispatchEvent(new CustomEvent('pipesim-change', { detail, bubbles: true, composed: true }));
  }

  /** The message in place of the drawing, and pipesim-error with the engine's code and message. */
  #showError(code: string, message: string, lead: 'error.refused' | 'error.engineStart' = 'error.refused'): void {
    this.#summary = null;
    const shown = inLang(this.#language, () => `${t(lead)} ${message}`);
    clear(this.#body);
    this.#body.append(el('div', { class: 'error', role: 'alert', 'data-testid': 'error', text: shown }));
    const detail: PipesimErrorDetail = { code, message };
    this.dispatchEvent(new CustomEvent('pipesim-error', { detail, bubbles: true, composed: true }));
  }
}

if (!customElements.get('pipesim-timeline')) customElements.define('pipesim-timeline', PipesimTimelineElement);
