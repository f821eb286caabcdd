// <pipesim-timeline>: the timeline (or the comparison, or the chunk view) as one custom element for
// course pages and docs. Shadow DOM, themed by the host page's CSS variables, light or dark; every
// element on a page shares one WebAssembly instance; attributes can change at run time.
//
//   <pipesim-timeline schedule="dualpipe" ranks="8" micro-batches="20" cost="F=1,B=2,W=1,FB=3">
//
// Attributes: schedule, ranks, micro-batches, virtual-stages, cost, compare ("1f1b,zb-h1"),
// view ("timeline" | "compare" | "chunk" | "quiz"), theme ("light" | "dark"; absent: follow the page),
// palette ("cb" for the colour-blind palette), lang ("en" | "pt-BR" | "zh-CN"; one language per page).
import css from '../styles.css?inline';
import { clear, el } from '../base/dom';
import { num, percent } from '../base/format';
import { BACKGROUND_ABOVE_OPS, estimatedOps, Lane, sharedBackground, SUPERSEDED, type LaneRequest } from '../engine/background';
import { EngineError, loadEngine, type Engine, type RunRequest, type SimulateValue } from '../engine/engine';
import { detectLang, setLang, t } from '../i18n';
import { describeIdle, describeOp, scheduleTitle } from '../app/describe';
import { forwardShare, type RunView } from '../app/run';
import { TimelineView, type TimelineGroup } from '../timeline/timeline_view';
import { ChunkPanel } from '../views/chunk_panel';
import { legend } from '../views/legend';
import { QuizCard } from '../views/quiz_card';

let sheet: CSSStyleSheet | null = null;

/** One stylesheet object for every element (constructable sheets pass a strict style-src 'self'). */
function sharedSheet(): CSSStyleSheet {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css + ELEMENT_CSS);
  }
  return sheet;
}

const ELEMENT_CSS = `
:host { display: block; font-family: var(--font-body, system-ui, sans-serif); color: var(--ink, #1a1a1a); }
.card { background: var(--panel, #ffffff); border: 1px solid var(--rule-soft, #dddddd); border-radius: 10px; padding: 12px; }
.card-head { display: flex; flex-wrap: wrap; gap: 4px 14px; align-items: baseline; margin-bottom: 8px; }
.card-title { font-weight: 700; }
.card-numbers { color: var(--ink-soft, #555555); font-variant-numeric: tabular-nums; }
.card-numbers strong { color: var(--blueprint, #3553ff); }
.placeholder { color: var(--ink-mute, #777777); padding: 16px 0; }
`;

const DEFAULT_REQUEST: RunRequest = { schedule: 'dualpipe', ranks: 8, microBatches: 20, cost: 'F=1,B=2,W=1,FB=3' };

export class PipesimTimelineElement extends HTMLElement {
  // theme and palette restyle through CSS (:host([theme=dark])); they are observed so the canvas redraws.
  static observedAttributes = ['schedule', 'ranks', 'micro-batches', 'virtual-stages', 'cost', 'compare', 'view', 'lang', 'theme', 'palette'];

  private readonly root: ShadowRoot;
  private readonly body = el('div', { class: 'card' }, [el('div', { class: 'placeholder', text: 'pipesim…' })]);
  private engine: Engine | null = null;
  /** Large runs go to the page's background worker; a newer render supersedes one still there. */
  private updates: Lane | null = null;
  private queued = false;
  private timeline: TimelineView | null = null;
  private chunk: ChunkPanel | null = null;
  private quiz: QuizCard | null = null;

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    this.root.adoptedStyleSheets = [sharedSheet()];
    this.root.append(this.body);
  }

  connectedCallback(): void {
    void this.start();
  }

  attributeChangedCallback(name: string): void {
    if (name === 'lang') void this.applyLang().then(() => this.schedule());
    else this.schedule();
  }

  /** The language is one per page (the dictionaries are shared): the last element to set it wins. */
  private async applyLang(): Promise<void> {
    const lang = this.getAttribute('lang');
    // The host page's own <html lang> is not the element's to change.
    if (lang) await setLang(detectLang(`?lang=${encodeURIComponent(lang)}`, null, []), { updateDocument: false });
  }

  disconnectedCallback(): void {
    this.chunk?.hide();
  }

  private async start(): Promise<void> {
    try {
      await this.applyLang();
      this.engine = await loadEngine();
      this.updates = new Lane(sharedBackground(this.engine));
      this.render();
    } catch (e) {
      this.showError(`${t('error.engineStart')} ${(e as Error).message}`);
    }
  }

  /** Coalesces a burst of attribute changes into one render. */
  private schedule(): void {
    if (this.queued || !this.engine) return;
    this.queued = true;
    queueMicrotask(() => {
      this.queued = false;
      this.render();
    });
  }

  private request(schedule: string): RunRequest {
    const attr = (name: string, fallback: string | number) => this.getAttribute(name) ?? String(fallback);
    const info = this.engine!.schedule(schedule);
    return {
      schedule,
      ranks: attr('ranks', DEFAULT_REQUEST.ranks),
      microBatches: attr('micro-batches', DEFAULT_REQUEST.microBatches),
      virtualStages: info?.uses_virtual_stages ? attr('virtual-stages', 2) : 1,
      cost: attr('cost', DEFAULT_REQUEST.cost),
    };
  }

  private runView(request: RunRequest, result: SimulateValue): RunView {
    const s = result.summary;
    return { request: { ...request, ranks: s.ranks, microBatches: s.micro_batches, virtualStages: s.virtual_stages }, info: this.engine!.schedule(request.schedule)!, result };
  }

  private render(): void {
    const view = this.getAttribute('view') ?? (this.getAttribute('compare') ? 'compare' : 'timeline');
    const update = this.updates!.begin(); // a large run still in the worker is now stale
    try {
      if (view === 'chunk') return this.renderChunk();
      if (view === 'quiz') return this.renderQuiz();
      this.renderTimeline(view === 'compare', update);
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      this.showError(`${t('error.refused')} ${e.message}`);
    }
  }

  /** Small runs are simulated and drawn at once; large ones in the worker, then drawn. */
  private renderTimeline(compare: boolean, update: LaneRequest): void {
    const primary = this.getAttribute('schedule') ?? DEFAULT_REQUEST.schedule;
    const names = compare ? [primary, ...(this.getAttribute('compare') ?? '').split(',').map((s) => s.trim()).filter(Boolean)] : [primary];
    const requests = names.map((name) => this.request(name));
    if (requests.reduce((n, r) => n + estimatedOps(r), 0) > BACKGROUND_ABOVE_OPS) {
      void this.renderInBackground(requests, update);
      return;
    }
    this.showTimeline(requests.map((request) => this.runView(request, this.engine!.simulate(request))));
  }

  private async renderInBackground(requests: RunRequest[], update: LaneRequest): Promise<void> {
    const outcomes = await update.run('simulate', requests);
    if (outcomes === SUPERSEDED) return;
    const refused = outcomes.find((o) => 'error' in o);
    if (refused && 'error' in refused) return this.showError(`${t('error.refused')} ${refused.error.message}`);
    this.showTimeline(outcomes.map((o, k) => this.runView(requests[k], (o as { value: SimulateValue }).value)));
  }

  private showTimeline(runs: RunView[]): void {
    const groups: TimelineGroup[] = runs.map((r) => ({
      key: r.info.name,
      title: t('compare.groupTitle', { title: scheduleTitle(r.info), makespan: num(r.result.summary.makespan) }),
      result: r.result,
      forwardShare: forwardShare(r),
    }));
    this.timeline ??= new TimelineView({
      describeOp,
      describeIdle,
      rankLabel: (r) => t('timeline.rank', { n: r }),
      ariaLabel: t('timeline.aria'),
    });
    const s = runs[0].result.summary;
    const numbers = el('span', { class: 'card-numbers' }, [
      `${t('readout.makespan')} `,
      el('strong', { 'data-testid': 'makespan', text: num(s.makespan) }),
      ` · ${t('readout.bubbleFraction')} `,
      el('strong', { 'data-testid': 'bubble-fraction', text: percent(s.bubble_fraction, 2) }),
      ` · ${t('readout.formula')} ${s.formula.text} = ${num(s.formula.value)}`,
    ]);
    const title = t('element.title', {
      schedules: runs.map((r) => scheduleTitle(r.info)).join(' · '),
      ranks: s.ranks,
      micro: s.micro_batches,
    });
    clear(this.body);
    this.body.append(
      el('div', { class: 'card-head' }, [el('span', { class: 'card-title', text: title }), numbers]),
      this.timeline.element,
      legend(s),
    );
    this.timeline.setGroups(groups);
  }

  private renderChunk(): void {
    this.chunk ??= new ChunkPanel(this.engine!, () => {});
    this.chunk.element.hidden = false;
    clear(this.body);
    this.body.append(this.chunk.element);
    this.chunk.update();
  }

  private renderQuiz(): void {
    // One quiz per element: an attribute change re-renders it in place, keeping the question on screen.
    this.quiz ??= new QuizCard(this.engine!, {
      storageKey: `pipesim:element-quiz:${this.id || 'default'}`,
      settings: () => this.request(this.getAttribute('schedule') ?? DEFAULT_REQUEST.schedule),
    });
    if (this.quiz.element.parentNode !== this.body) {
      clear(this.body);
      this.body.append(this.quiz.element);
    }
    this.quiz.render();
  }

  private showError(message: string): void {
    clear(this.body);
    this.body.append(el('div', { class: 'error', role: 'alert', 'data-testid': 'error', text: message }));
  }
}

if (!customElements.get('pipesim-timeline')) customElements.define('pipesim-timeline', PipesimTimelineElement);
