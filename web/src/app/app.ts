// The page: state -> engine -> views. Every change re-simulates at once and redraws the visible
// view; a configuration the engine refuses shows its reason and leaves the last valid drawing, greyed.
import { byId, clear, el } from '../base/dom';
import { EngineError, type Engine, type RunRequest } from '../engine/engine';
import { store } from '../base/storage';
import { applyTranslations, lang, LANGS, t, type Key, type Lang } from '../i18n';
import { ChartsPanel } from '../views/charts_panel';
import { ChunkPanel } from '../views/chunk_panel';
import { ExercisesPanel } from '../views/exercises_panel';
import { PlannerPanel } from '../views/planner_panel';
import { QuizPanel } from '../views/quiz_panel';
import { ComparePanel, type CompareEntry } from '../views/compare_panel';
import { MemoryPanel } from '../views/memory_panel';
import { TimelinePanel } from '../views/timeline_panel';
import { Controls } from './controls';
import { scheduleTitle } from './describe';
import { renderReadouts } from './readouts';
import type { RunView } from './run';
import { readState, VIEWS, writeState, type AppState, type ViewName } from './state';

const OWN_PARAMS = ['schedule', 'ranks', 'micro-batches', 'virtual-stages', 'cost', 'compare', 'view', 'custom'];

export class App {
  private state: AppState;
  private controls!: Controls;
  private readonly panels: Record<ViewName, { element: HTMLElement }>;
  private readonly timeline: TimelinePanel;
  private readonly compare: ComparePanel;
  private readonly charts: ChartsPanel;
  private readonly memory = new MemoryPanel();
  private readonly chunk: ChunkPanel;
  private readonly exercises: ExercisesPanel;
  private readonly quiz: QuizPanel;
  private readonly planner: PlannerPanel;
  private primary: RunView | null = null;
  private dirty = new Set<ViewName>(VIEWS);
  private chartTimer = 0;

  constructor(
    private readonly root: HTMLElement,
    private readonly engine: Engine,
  ) {
    this.state = readState(location.search);
    this.timeline = new TimelinePanel(engine);
    this.compare = new ComparePanel(engine, (names) => this.set({ compare: names }));
    this.charts = new ChartsPanel(engine);
    // "Derive F&B from the chunk model": its costs become the pipeline's, shown on the timeline.
    this.chunk = new ChunkPanel(engine, (cost) => this.set({ cost, view: 'timeline' }));
    this.exercises = new ExercisesPanel(engine);
    // Live quiz questions use the settings on screen; "show me" opens the view that answers one.
    this.quiz = new QuizPanel(
      engine,
      () => this.primary?.request ?? { schedule: 'dualpipe', ranks: 8, microBatches: 20, cost: 'F=1,B=2,W=1,FB=3' },
      (view) => this.set({ view: (VIEWS as string[]).includes(view) ? (view as ViewName) : view === 'placement' ? 'memory' : 'timeline' }),
    );
    this.planner = new PlannerPanel(engine);
    this.panels = {
      timeline: this.timeline,
      compare: this.compare,
      charts: this.charts,
      memory: this.memory,
      chunk: this.chunk,
      exercises: this.exercises,
      quiz: this.quiz,
      planner: this.planner,
    };
  }

  start(): void {
    this.controls = new Controls(byId('controls', this.root), this.engine, (patch) => this.set(patch));
    this.buildTabs();
    const panels = byId('panels', this.root);
    for (const view of VIEWS) {
      this.panels[view].element.setAttribute('aria-labelledby', `tab-${view}`);
      panels.append(this.panels[view].element);
    }
    this.bindHeader();
    byId('engine-version', this.root).textContent = t('app.engineVersion', { version: this.engine.version });
    applyTranslations(this.root);
    byId('theme-toggle', this.root).textContent = t(document.documentElement.dataset.theme === 'dark' ? 'ui.themeLight' : 'ui.theme');
    this.update();
    this.root.dataset.state = 'ready';
  }

  /** Applies a change from any control and redraws. */
  set(patch: Partial<AppState>): void {
    const next = { ...this.state, ...patch };
    if (patch.schedule === 'custom' && !next.custom) next.custom = this.startingCustomText();
    if (patch.schedule) next.compare = next.compare.filter((s) => s !== patch.schedule);
    this.state = next;
    this.dirty = new Set(VIEWS);
    this.update();
  }

  /** A custom schedule starts as the schedule on screen, so there is something to edit. */
  private startingCustomText(): string {
    const from = this.state.schedule === 'custom' ? 'dualpipe' : this.state.schedule;
    try {
      const twoWay = this.primary?.result.summary.directions === 2;
      if (!twoWay) return this.engine.scheduleText(this.request(from), 'actions');
      // Action notation has no directions: give the JSON, without times, one rank per line.
      const full = JSON.parse(this.engine.scheduleText(this.request(from), 'json'));
      const rank = (r: any) => JSON.stringify({ ops: r.ops.map(({ start: _s, end: _e, ...op }: any) => op) });
      return `{"directions": 2, "micro_batches": ${full.micro_batches}, "per_rank": [\n${full.per_rank.map(rank).join(',\n')}\n]}\n`;
    } catch {
      return this.engine.scheduleText({ schedule: '1f1b', ranks: 4, microBatches: 8, cost: 'F=1,B=2,W=1' }, 'actions');
    }
  }

  private request(schedule: string): RunRequest {
    const info = this.engine.schedule(schedule);
    return {
      schedule,
      ranks: this.state.ranks,
      microBatches: this.state.microBatches,
      virtualStages: info?.uses_virtual_stages ? this.state.virtualStages : 1,
      cost: this.state.cost,
      customSchedule: schedule === 'custom' ? this.state.custom : undefined,
    };
  }

  private run(schedule: string): RunView {
    const request = this.request(schedule);
    const result = this.engine.simulate(request); // throws the engine's own message for unknown names too
    const info = this.engine.schedule(schedule)!;
    return {
      request: { ...request, ranks: result.summary.ranks, microBatches: result.summary.micro_batches, virtualStages: result.summary.virtual_stages },
      info,
      result,
    };
  }

  private update(): void {
    const info = this.engine.schedule(this.state.schedule);
    const extra = new URLSearchParams(location.search);
    for (const key of OWN_PARAMS) extra.delete(key);
    history.replaceState(null, '', writeState(this.state, !!info?.uses_virtual_stages, extra));
    this.controls.sync(this.state);
    this.selectTab(this.state.view, false);
    try {
      this.primary = this.run(this.state.schedule);
      this.showError(null);
      renderReadouts(byId('readouts', this.root), this.primary);
      this.setStale(false);
      this.renderActive();
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      this.showError(e.message);
      // Every view keeps showing the last accepted configuration, greyed out, as the message says.
      this.setStale(true);
      this.renderActive();
    }
  }

  private setStale(stale: boolean): void {
    for (const id of ['readouts', 'panels']) byId(id, this.root).classList.toggle('is-stale', stale);
  }

  private renderActive(): void {
    const view = this.state.view;
    if (!this.primary || !this.dirty.has(view)) return;
    this.dirty.delete(view);
    if (view === 'timeline') this.timeline.update(this.primary);
    if (view === 'memory') this.memory.update(this.primary);
    if (view === 'chunk') this.chunk.update();
    if (view === 'exercises') this.exercises.update(this.state.cost);
    if (view === 'quiz') this.quiz.update();
    if (view === 'planner') this.planner.update();
    if (view === 'compare') this.compare.update(this.state.schedule, this.state.compare, this.compareEntries());
    if (view === 'charts') {
      // Sweeps run dozens of simulations: coalesce a burst of slider moves into one.
      clearTimeout(this.chartTimer);
      this.chartTimer = window.setTimeout(() => this.charts.update(this.chartRuns()), 60);
    }
  }

  private compareEntries(): CompareEntry[] {
    return [this.state.schedule, ...this.state.compare].map((name) => {
      const title = scheduleTitle(this.engine.schedule(name), name);
      try {
        return { name, title, run: this.run(name) };
      } catch (e) {
        if (!(e instanceof EngineError)) throw e;
        return { name, title, error: e.message };
      }
    });
  }

  private chartRuns(): RunView[] {
    // A custom schedule has fixed sizes: it has no curve over micro-batches or ranks.
    return this.compareEntries().flatMap((e) => (e.run && e.name !== 'custom' ? [e.run] : []));
  }

  private showError(message: string | null): void {
    const box = byId('error', this.root);
    this.controls.markInvalid(message);
    // An alert is announced when it changes: rewriting the same text on every keystroke would repeat it.
    if (box.dataset.message === (message ?? '')) return;
    box.dataset.message = message ?? '';
    clear(box);
    box.hidden = message === null;
    if (message === null) return;
    box.append(el('span', { text: `${t('error.refused')} ${message}` }), el('span', { class: 'sub', text: t('error.stale') }));
  }

  // ---- tabs, header -------------------------------------------------------------------------------

  private buildTabs(): void {
    const tabs = byId('tabs', this.root);
    clear(tabs);
    VIEWS.forEach((view) => {
      const button = el('button', {
        type: 'button',
        role: 'tab',
        id: `tab-${view}`,
        'aria-controls': `panel-${view}`,
        'data-view': view,
        'data-testid': `tab-${view}`,
        text: t(`tab.${view}` as Key),
      });
      button.addEventListener('click', () => this.set({ view }));
      button.addEventListener('keydown', (e) => {
        const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: VIEWS.length - 1, Home: -VIEWS.indexOf(view), End: VIEWS.length - 1 - VIEWS.indexOf(view) };
        if (!(e.key in moves)) return;
        e.preventDefault();
        const next = VIEWS[(VIEWS.indexOf(view) + moves[e.key] + VIEWS.length) % VIEWS.length];
        this.set({ view: next });
        byId(`tab-${next}`, this.root).focus();
      });
      tabs.append(button);
    });
  }

  private selectTab(view: ViewName, render = true): void {
    for (const v of VIEWS) {
      const selected = v === view;
      const tab = byId(`tab-${v}`, this.root);
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      this.panels[v].element.hidden = !selected;
    }
    if (view !== 'chunk') this.chunk.hide();
    if (render) this.renderActive();
  }

  private bindHeader(): void {
    const theme = byId<HTMLButtonElement>('theme-toggle', this.root);
    const palette = byId<HTMLInputElement>('palette-toggle', this.root);
    const select = byId<HTMLSelectElement>('lang-select', this.root);
    const html = document.documentElement;
    const redraw = () => {
      this.dirty = new Set(VIEWS);
      this.renderActive();
      theme.textContent = t(html.dataset.theme === 'dark' ? 'ui.themeLight' : 'ui.theme');
    };
    theme.addEventListener('click', () => {
      html.dataset.theme = html.dataset.theme === 'dark' ? 'light' : 'dark';
      store('pipesim:theme', html.dataset.theme);
      redraw();
    });
    palette.checked = html.dataset.palette === 'cb';
    palette.addEventListener('change', () => {
      html.dataset.palette = palette.checked ? 'cb' : 'default';
      store('pipesim:palette', html.dataset.palette);
      redraw();
    });
    select.value = lang();
    // A new language reloads the page with ?lang=: the state is in the URL, and every view is then
    // built in the new language rather than patched string by string.
    select.addEventListener('change', () => {
      const next = select.value as Lang;
      if (!LANGS.includes(next)) return;
      store('pipesim:lang', next);
      const q = new URLSearchParams(location.search);
      q.set('lang', next);
      location.replace('?' + q.toString().replace(/%2C/g, ',').replace(/%3D/g, '='));
    });
    theme.textContent = t(html.dataset.theme === 'dark' ? 'ui.themeLight' : 'ui.theme');
  }


}
