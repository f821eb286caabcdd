// The page: state -> engine -> views. Every change re-simulates and redraws the visible view: small
// runs at once on this thread (a slider move is simulated and drawn within its frame), large ones in
// the background worker while the page keeps the last drawing. A configuration the engine refuses
// shows its reason and leaves the last valid drawing, greyed.
//
// Performance marks: every update is measured as `pipesim:update` (simulate + draw of what the view
// shows), split into `pipesim:simulate` and `pipesim:draw`; the first drawn timeline is marked
// `pipesim:first-timeline` (timeline_view.ts). scripts/bench-page.mjs reads them.
import { byId, clear, el } from '../base/dom';
import { Lane, sharedBackground, sharedClient, SUPERSEDED } from '../engine/background';
import type { EngineClient } from '../engine/client';
import { KINDS, type Wording, type Engine, type RunRequest, type SimulateValue } from '../engine/engine';
import type { Outcome } from '../engine/tasks';
import { load, store as save } from '../base/storage';
import { applyTranslations, lang, LANGS, t, type Key, type Lang } from '../i18n';
import { wordRefusal } from '../i18n/refusals';
import type { ChartsPanel } from '../views/charts_panel';
import type { ChartsSweeps } from './charts_sweeps';
import type { ChunkPanel } from '../views/chunk_panel';
import type { ExercisesPanel } from '../views/exercises_panel';
import { MeasuredPipelinePanel } from '../views/measured_pipeline_panel';
import { MeasuredPipeline } from './measured_pipeline';
import type { LearnPanel } from '../views/learn_panel';
import { lessonStarted, stepFromUrl } from '../views/learn_progress';
import type { PlannerPanel } from '../views/planner_panel';
import type { QuizPanel } from '../views/quiz_panel';
import { engineLearnSource, type LearnSource } from '../model/learn_source';
import type { ComparePanel, CompareEntry } from '../views/compare_panel';
import type { MemoryPanel } from '../views/memory_panel';
import type { MemoryBytes } from './memory_bytes';
import { LazyView } from './lazy_view';
import { TimelinePanel } from '../views/timeline_panel';
import { Controls } from './controls';
import { scheduleTitle } from '../model/describe';
import { renderReadouts } from './readouts';
import { requestOf, requestOfCoreRun } from '../model/request';
import type { RunView } from '../model/run';
import { bothTimings, otherTiming, type BothTimings, type TimedRun } from '../model/timings';
import { APP_STATE_KEYS, completePatch, VIEWS, type AppState, type PageState, type ViewName } from '../state/page_state';
import type { Store } from '../state/store';
import { UrlAdapter } from '../state/url_adapter';
import type { BasisShown } from '../views/basis';

/** The kinds of op a run has (F, B, I, W, FB): which costs it reads. */
function opKinds(run: RunView): Set<string> {
  const seen = new Set<string>();
  for (const k of run.result.ops.kind) seen.add(KINDS[k]);
  return seen;
}

/** The fields whose change only redraws (the runs stay): which view, and Compare's both timings,
 *  whose runs under the other timing are added to those kept. */
const REDRAWN = new Set<keyof PageState>(['view', 'bothTimings']);
/** The fields whose change makes every run stale (all of the URL's state but those redrawn). */
const SIMULATED = new Set<keyof PageState>(APP_STATE_KEYS.filter((key) => !REDRAWN.has(key)));

/** One run a view needs: the schedule, the key of its run, whether it is on the same-model basis, and
 *  (Compare with both timings) the timing it is asked under when not the page's. */
interface Needed {
  name: string;
  key: string;
  sameModel: boolean;
  timing?: string;
}

/** A schedule's run at the current settings, or the engine's refusal of it (its message and code). */
type RunOutcome = { run: RunView } | { error: string; code: string; wording?: Wording; field?: string };

export class App {
  private controls!: Controls;
  private readonly panels: Record<ViewName, { element: HTMLElement }>;
  private readonly timeline: TimelinePanel;
  // Every tab but the timeline is downloaded when first opened (lazy_view.ts).
  private readonly compare: LazyView<ComparePanel>;
  /** The Charts tab, with its sweeps computed for the panel. */
  private readonly charts: LazyView<{ element: HTMLElement; panel: ChartsPanel; sweeps: ChartsSweeps }>;
  /** The Memory tab, with its runs on a model and cluster, in bytes. */
  private readonly memory: LazyView<{ element: HTMLElement; panel: MemoryPanel; bytes: MemoryBytes }>;
  private readonly chunk: LazyView<ChunkPanel>;
  private readonly exercises: LazyView<ExercisesPanel>;
  private readonly quiz: LazyView<QuizPanel>;
  private readonly planner: LazyView<PlannerPanel>;
  private readonly learn: LazyView<LearnPanel>;
  /** The guided lesson's runs, core data the page needs at start-up (a step is a URL). */
  private readonly lessonRuns: LearnSource;
  private primary: RunView | null = null;
  private dirty = new Set<ViewName>(VIEWS);
  private chartTimer = 0;
  /** The runs of the current settings, per schedule; emptied by every change of settings. */
  private readonly runs = new Map<string, RunOutcome>();
  /** Large updates in the worker: a newer update supersedes one still running. */
  private readonly updates: Lane;
  /** Simulates what the views show, here or in the worker (client.ts decides), and keeps results. */
  private readonly client: EngineClient;
  private readonly busy = el('p', { class: 'hint', role: 'status', 'data-testid': 'busy', hidden: true });
  /** Shown once a broken background engine was replaced (background.ts). */
  private readonly restarted = el('p', { class: 'hint', role: 'status', 'data-testid': 'engine-restarted', hidden: true });
  private readonly address: UrlAdapter;

  constructor(
    private readonly root: HTMLElement,
    private readonly engine: Engine,
    /** The page's one state (state/store.ts); the URL adapter, the controls and the panels read and write it. */
    private readonly store: Store<PageState>,
  ) {
    this.address = new UrlAdapter(
      undefined,
      (name) => !!engine.schedule(name)?.uses_virtual_stages,
      (name) => !!engine.schedule(name)?.takes_text,
    );
    this.lessonRuns = engineLearnSource(engine);
    const opened = this.address.read();
    // A lesson step is a URL: it opens with the step's settings (and what they imply: the step's
    // schedule leaves the compared ones, as a change of schedule does anywhere).
    store.set(opened.view === 'learn' ? { ...opened, ...completePatch(opened, this.stepState(this.stepFromUrl(opened.step))) } : opened);
    const background = sharedBackground(engine);
    background.onRestart(() => {
      this.restarted.hidden = false;
      this.restarted.textContent = t('app.engineRestarted');
    });
    this.updates = new Lane(background);
    this.client = sharedClient(engine);
    // Downloads of large runs are written in the worker; a newer one supersedes one still there.
    const exports = new Lane(background);
    this.timeline = new TimelinePanel(async (request, format, away, progress) => {
      const text = await this.client.exportText(request, format, exports.begin(), away, progress);
      return text === SUPERSEDED ? null : text;
    }, engine.exportFormats);
    const measured = new MeasuredPipeline(background);
    const measuredPanel: MeasuredPipelinePanel = new MeasuredPipelinePanel((files, align) => void measured.measure(files, align, measuredPanel));
    this.timeline.element.append(measuredPanel.element);
    const onBasis = (basis: AppState['basis']) => this.set({ basis });
    const lazy = <P extends { element: HTMLElement }>(view: ViewName, build: () => Promise<P>) => new LazyView(view, build, () => this.arrived(view));
    this.compare = lazy('compare', async () => {
      const { ComparePanel } = await import('../views/compare_panel');
      return new ComparePanel(engine.schedules, (names) => this.set({ compare: names }), onBasis, (bothTimings) => this.set({ bothTimings }));
    });
    this.charts = lazy('charts', async () => {
      const [{ ChartsPanel }, { ChartsSweeps }] = await Promise.all([import('../views/charts_panel'), import('./charts_sweeps')]);
      const panel = new ChartsPanel(onBasis);
      return { element: panel.element, panel, sweeps: new ChartsSweeps(engine, background, panel) };
    });
    this.memory = lazy('memory', async () => {
      const [{ MemoryPanel }, { MemoryBytes }, { PLAN_EXAMPLES }] = await Promise.all([import('../views/memory_panel'), import('./memory_bytes'), import('../model/plan_examples')]);
      const panel = new MemoryPanel(PLAN_EXAMPLES, (memoryModel) => this.set({ memoryModel }));
      // Its runs go through the one engine client, to the worker; a newer one supersedes one under way.
      const runs = new Lane(background);
      const bytes = new MemoryBytes(
        async (requests) => {
          const started = performance.now();
          const outcomes = await this.client.simulateModels(requests, runs.begin());
          // Where they ran, for tools and tests, as pipesim:update says it of the other runs.
          performance.measure('pipesim:memory', { start: started, detail: { where: this.client.lastPlace, runs: requests.length } });
          return outcomes;
        },
        (name) => !!engine.schedule(name)?.uses_virtual_stages,
        panel,
        (name) => scheduleTitle(engine.schedule(name), name),
      );
      return { element: panel.element, panel, bytes };
    });
    // "Derive F&B from the chunk model": its costs become the pipeline's, shown on the timeline.
    this.chunk = lazy('chunk', async () => {
      // The chunk model comes with the module loaded on first need (engine.ts toolsReady()).
      const [{ ChunkPanel }, { chunkSource }] = await Promise.all([import('../views/chunk_panel'), import('../model/chunk_source'), engine.toolsReady()]);
      return new ChunkPanel(chunkSource(engine, background), (cost) => this.set({ cost, view: 'timeline' }), store.slice('chunk'));
    });
    this.exercises = lazy('exercises', async () => {
      const [{ ExercisesPanel }, { engineExerciseSource }] = await Promise.all([import('../views/exercises_panel'), import('../model/exercise_source')]);
      return new ExercisesPanel(engineExerciseSource(engine), store.slice('exercises'));
    });
    // Live quiz questions use the settings on screen; "show me" opens the view that answers one.
    this.quiz = lazy('quiz', async () => {
      const [{ QuizPanel }, { engineQuizSource }] = await Promise.all([import('../views/quiz_panel'), import('../model/quiz_source')]);
      return new QuizPanel(
        engineQuizSource(engine),
        () => this.primary?.request ?? this.defaultRequest(),
        (view) => this.set({ view: (VIEWS as string[]).includes(view) ? (view as ViewName) : view === 'placement' ? 'memory' : 'timeline' }),
      );
    });
    this.planner = lazy('planner', async () => {
      const [{ PlannerPanel }, { PlannerRuns }] = await Promise.all([import('../views/planner_panel'), import('./planner_runs')]);
      return new PlannerPanel(new PlannerRuns(background), (name) => engine.schedule(name), store.slice('planner'));
    });
    this.learn = lazy('learn', async () => {
      const { LearnPanel } = await import('../views/learn_panel');
      return new LearnPanel(
        this.lessonRuns,
        (step) => this.set({ ...this.stepState(step), view: 'learn' }),
        () => this.set({ view: 'timeline' }),
      );
    });
    this.panels = {
      learn: this.learn,
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

  private get state(): Readonly<PageState> {
    return this.store.get();
  }

  start(): void {
    this.controls = new Controls(byId('controls', this.root), this.engine, (patch) => this.set(patch));
    this.buildDrawer();
    this.buildTabs();
    this.offerLesson();
    const panels = byId('panels', this.root);
    panels.before(this.busy);
    panels.before(this.restarted);
    for (const view of VIEWS) {
      this.panels[view].element.setAttribute('aria-labelledby', `tab-${view}`);
      panels.append(this.panels[view].element);
    }
    this.bindHeader();
    byId('engine-version', this.root).textContent = t('app.engineVersion', { version: this.engine.version });
    applyTranslations(this.root);
    byId('theme-toggle', this.root).textContent = t(document.documentElement.dataset.theme === 'dark' ? 'ui.themeLight' : 'ui.theme');
    this.address.write(this.state);
    this.address.connect(this.store); // before the views: the address is written when they draw
    this.store.subscribe((_state, keys) => this.changed(keys));
    this.update();
    this.root.dataset.state = 'ready';
    // No worker yet: it starts with the first task that needs it (background.ts), so that a page
    // that never runs a large task never downloads its script.
  }

  /** Applies a change from any control to the store (which redraws, in changed()). */
  set(patch: Partial<AppState>): void {
    const full: Partial<PageState> = { ...patch };
    if (patch.schedule !== undefined && this.takesText(patch.schedule) && !(patch.custom ?? this.state.custom)) full.custom = this.startingCustomText();
    this.store.set(completePatch(this.state, full));
  }

  /** After each change of the store: a change of settings re-simulates and redraws, a change of view
   *  redraws it, a change of theme or palette repaints; a panel's own inputs are the panel's affair. */
  private changed(keys: ReadonlySet<keyof PageState>): void {
    const settings = [...keys].some((key) => SIMULATED.has(key));
    if (keys.has('theme') || keys.has('palette')) this.restyle();
    if (!settings && ![...keys].some((key) => REDRAWN.has(key))) return;
    this.dirty = new Set(VIEWS);
    // Switching views (or Compare's both timings) keeps the runs (the settings have not changed);
    // anything else re-simulates.
    if (settings) {
      this.runs.clear();
      clearTimeout(this.chartTimer);
      this.charts.loaded?.sweeps.stop(); // its sweep is of the old settings
    }
    this.update();
  }

  /** The lesson step (1-based) that the URL's `text` names, or 1. */
  private stepFromUrl(text: string | null): number {
    return stepFromUrl(text, this.lessonRuns.steps.length);
  }

  /** The page's settings at lesson step `step`. */
  private stepState(step: number): Partial<AppState> {
    const r = this.lessonRuns.steps[step - 1].request;
    return { step: String(step), schedule: r.schedule, ranks: String(r.ranks), microBatches: String(r.microBatches), virtualStages: '1', cost: r.cost ?? '' };
  }

  /** A custom schedule starts as the schedule on screen, so there is something to edit; as the core's
   *  first preset when that one is refused or is itself given as text. */
  private startingCustomText(): string {
    const from = this.takesText(this.state.schedule) ? this.defaultRequest() : this.request(this.state.schedule);
    try {
      return this.engine.customText(from);
    } catch {
      return this.engine.customText(this.defaultRequest());
    }
  }

  /** The request of the core's first preset (DeepSeek-V3 Fig. 5): what is asked when nothing on
   *  screen can be. */
  private defaultRequest(): RunRequest {
    const first = this.engine.presets[0];
    return requestOfCoreRun(first, first.cost);
  }

  /** Whether `name` is the schedule given as text (the registry's takes_text): it has fixed sizes and
   *  no whole-model basis. */
  private takesText(name: string): boolean {
    return !!this.engine.schedule(name)?.takes_text;
  }

  /** The engine request of `schedule` at the settings on screen (model/request.ts), under `timing`
   *  when it is not the page's (Compare's other timing). */
  private request(schedule: string, sameModel = false, timing?: string): RunRequest {
    const state = timing ? { ...this.state, timing } : this.state;
    return requestOf(state, schedule, this.engine.schedule(schedule), sameModel);
  }

  /** The runs the visible view needs: the chosen schedule as the controls set it (readouts, timeline),
   *  then for Compare and Charts every compared schedule on the view's basis. */
  private needed(): Needed[] {
    const out: Needed[] = [{ name: this.state.schedule, key: this.state.schedule, sameModel: false }];
    const view = this.state.view;
    if (view !== 'compare' && view !== 'charts') return out;
    const sameModel = this.state.basis === 'model';
    for (const name of [this.state.schedule, ...this.state.compare]) {
      const key = sameModel && !this.takesText(name) ? `model:${name}` : name;
      if (!out.some((n) => n.key === key)) out.push({ name, key, sameModel: key !== name });
    }
    if (view === 'compare' && this.state.bothTimings) {
      const timing = otherTiming(this.state.timing);
      for (const name of [this.state.schedule, ...this.state.compare]) {
        const asked = out.find((n) => n.key === this.comparedKey(name))!;
        const key = this.otherTimingKey(asked.key);
        if (!out.some((n) => n.key === key)) out.push({ ...asked, key, timing });
      }
    }
    return out;
  }

  /** The key of a compared run under the other timing than the page's. */
  private otherTimingKey(key: string): string {
    return `${otherTiming(this.state.timing)}:${key}`;
  }

  /** The key of a compared schedule's run on the current basis. */
  private comparedKey(name: string): string {
    return this.state.basis === 'model' && !this.takesText(name) ? `model:${name}` : name;
  }

  private runView(schedule: string, request: RunRequest, result: SimulateValue, withGap = true): RunView {
    const s = result.summary;
    return {
      request: { ...request, ranks: s.ranks, microBatches: s.micro_batches, virtualStages: s.virtual_stages },
      info: this.engine.schedule(schedule)!,
      result,
      dataflowMakespan: withGap && s.timing === 'reference' ? this.dataflowMakespan(request) : undefined,
    };
  }

  /** The same request's dataflow makespan, for the gap readout of reference timing. */
  private dataflowMakespan(request: RunRequest): number | undefined {
    try {
      return this.engine.summary({ ...request, timing: 'dataflow', sends: undefined }).makespan as number;
    } catch {
      return undefined;
    }
  }

  private update(): void {
    this.controls.sync(this.state);
    this.selectTab(this.state.view, false);
    this.refresh();
  }

  /** The schedules the visible view needs, the chosen one first. */
  private schedulesNeeded(): string[] {
    const view = this.state.view;
    return view === 'compare' || view === 'charts' ? [this.state.schedule, ...this.state.compare] : [this.state.schedule];
  }

  /** Simulates what the visible view needs and not yet simulated (the engine client decides where),
   *  then draws it. */
  private refresh(): void {
    const started = performance.now();
    const missing = this.needed().filter((n) => !this.runs.has(n.key));
    const update = this.updates.begin(); // whatever runs in the worker for older settings is now stale
    const requests = missing.map((n) => this.request(n.name, n.sameModel, n.timing));
    const simulation = this.client.simulate(requests, update);
    if ('pending' in simulation) {
      this.showBusy(simulation.ops);
      void simulation.pending.then((outcomes) => {
        if (outcomes === SUPERSEDED) return; // a newer update is under way and owns the busy note
        missing.forEach((n, k) => this.runs.set(n.key, this.outcome(n.name, requests[k], outcomes[k], !n.timing)));
        this.showBusy(null);
        this.show(started, this.client.lastPlace);
      });
      return;
    }
    this.showBusy(null);
    missing.forEach((n, k) => this.runs.set(n.key, this.outcome(n.name, requests[k], simulation.outcomes[k], !n.timing)));
    this.show(started, missing.length > 0 ? simulation.where : 'cache');
  }

  /** `withGap`: a run at the page's timing, whose reference makespan the readouts compare with dataflow
   *  (Compare's run under the other timing needs no such second run). */
  private outcome(schedule: string, request: RunRequest, outcome: Outcome<SimulateValue>, withGap = true): RunOutcome {
    return 'value' in outcome
      ? { run: this.runView(schedule, request, outcome.value, withGap) }
      : { error: outcome.error.message, code: outcome.error.code, wording: outcome.error.wording, field: outcome.error.field };
  }

  private showBusy(ops: number | null): void {
    this.busy.hidden = ops === null;
    if (ops !== null) this.busy.textContent = t('app.computing', { ops: Math.round(ops / 3).toLocaleString(lang()) });
    byId('panels', this.root).setAttribute('aria-busy', String(ops !== null));
    if (ops === null) delete this.root.dataset.busy;
    else this.root.dataset.busy = 'true';
  }

  /** Draws the current runs: readouts and the visible view, or the refusal over the last drawing. */
  private show(started: number, where: string): void {
    const simulated = performance.now();
    const primary = this.runs.get(this.state.schedule)!;
    if ('run' in primary) {
      this.primary = primary.run;
      this.showError(null);
      renderReadouts(byId('readouts', this.root), this.primary);
      this.controls.showApplicable(opKinds(this.primary));
      this.controls.showStages(this.primary.result.summary.stages);
      this.setStale(false);
    } else {
      this.showError(primary.error, primary.code, primary.wording, primary.field);
      if (primary.field === 'stage_cost') this.showStagesWithoutStageCosts();
      // Every view keeps showing the last accepted configuration, greyed out, as the message says.
      this.setStale(true);
    }
    this.renderActive();
    const detail = { view: this.state.view, where, schedules: this.schedulesNeeded() };
    performance.measure('pipesim:simulate', { start: started, end: simulated, detail });
    performance.measure('pipesim:draw', { start: simulated, detail });
    performance.measure('pipesim:update', { start: started, detail });
  }

  /** The per-stage table's rows when the per-stage costs are refused: the stage count of the same
   *  run without them (core's), if the client runs it here (a small run, simulated within the frame). */
  private showStagesWithoutStageCosts(): void {
    const request: RunRequest = { ...this.request(this.state.schedule), stageCost: undefined };
    if (this.client.placement([request]).background) return;
    // Placed on this thread (checked above), so the worker's lane is never asked.
    const simulation = this.client.simulate([request], { run: () => Promise.reject(new Error('not in the worker')) });
    if (!('outcomes' in simulation)) return;
    const [outcome] = simulation.outcomes;
    // Refused for another reason too: the error box already says the first one.
    if ('value' in outcome) this.controls.showStages(outcome.value.summary.stages);
  }

  private setStale(stale: boolean): void {
    for (const id of ['readouts', 'panels']) byId(id, this.root).classList.toggle('is-stale', stale);
  }

  private renderActive(): void {
    const view = this.state.view;
    // A tab's code is fetched as soon as the tab is shown, even on a refused configuration (its
    // section is then there, empty, as when it was built up front); its drawing waits for arrived().
    const panel = this.panels[view];
    if (panel instanceof LazyView && !panel.ensure()) return;
    if (!this.primary || !this.dirty.has(view)) return;
    this.dirty.delete(view);
    if (view === 'timeline') this.timeline.update(this.primary);
    const memory = this.memory.loaded;
    if (view === 'memory' && memory) {
      memory.panel.update(this.primary);
      void memory.bytes.update(this.state);
    }
    if (view === 'chunk') this.chunk.loaded?.update();
    if (view === 'exercises') this.exercises.loaded?.update(this.state.cost);
    if (view === 'quiz') this.quiz.loaded?.update();
    if (view === 'planner') this.planner.loaded?.update();
    if (view === 'learn') this.learn.loaded?.update(this.stepFromUrl(this.state.step));
    if (view === 'compare') this.compare.loaded?.update(this.state.schedule, this.state.compare, this.compareEntries(), this.basisShown(), this.state.bothTimings);
    const charts = this.charts.loaded;
    if (view === 'charts' && charts) {
      // Sweeps run hundreds of simulations: coalesce a burst of slider moves into one.
      clearTimeout(this.chartTimer);
      const runs = this.chartRuns();
      const basis = this.basisShown();
      this.chartTimer = window.setTimeout(() => charts.sweeps.update(runs, basis), 60);
    }
  }

  /** A lazily loaded tab's code is in place: drawn now if its tab is the one shown (and the page
   *  has a run to show). */
  private arrived(view: ViewName): void {
    if (this.state.view === view) this.renderActive();
  }

  private compareEntries(): CompareEntry[] {
    return this.schedulesNeeded().flatMap((name) => {
      const outcome = this.runs.get(this.comparedKey(name));
      if (!outcome) return [];
      const title = scheduleTitle(this.engine.schedule(name), name);
      const entry: CompareEntry = 'run' in outcome ? { name, title, run: outcome.run } : { name, title, error: wordRefusal(outcome.error, outcome.wording) };
      return [{ ...entry, timings: this.bothTimingsOf(this.comparedKey(name), outcome) }];
    });
  }

  /** With both timings on: a compared schedule's run at the page's timing paired with its run under
   *  the other one (undefined while that run is not there yet). */
  private bothTimingsOf(key: string, asked: RunOutcome): BothTimings | undefined {
    if (!this.state.bothTimings) return undefined;
    const other = this.runs.get(this.otherTimingKey(key));
    if (!other) return undefined;
    const timed = (o: RunOutcome): TimedRun => ('run' in o ? { summary: o.run.result.summary } : { error: wordRefusal(o.error, o.wording) });
    return this.state.timing === 'reference' ? bothTimings(timed(other), timed(asked)) : bothTimings(timed(asked), timed(other));
  }

  /** What Compare and Charts say about their basis: which one, and the costs it starts from. */
  private basisShown(): BasisShown {
    return { basis: this.state.basis, cost: this.state.cost, ranks: this.state.ranks };
  }

  private chartRuns(): RunView[] {
    // A custom schedule has fixed sizes: it has no curve over micro-batches or ranks.
    return this.compareEntries().flatMap((e) => (e.run && !this.takesText(e.name) ? [e.run] : []));
  }

  /** The engine's refusal in the error readout; its code (bad_argument, deadlock, ...) goes to
   *  data-code, for tools and tests, since the message already says what is wrong in words. */
  private showError(english: string | null, code = '', wording?: Wording, field?: string): void {
    const box = byId('error', this.root);
    // The engine's English names the field; the reader gets it in the page's language.
    const message = english === null ? null : wordRefusal(english, wording);
    this.controls.markInvalid(english === null ? null : { field }, message);
    box.dataset.code = code;
    // An alert is announced when it changes: rewriting the same text on every keystroke would repeat it.
    if (box.dataset.message === (message ?? '')) return;
    box.dataset.message = message ?? '';
    clear(box);
    box.hidden = message === null;
    if (message === null) return;
    box.append(el('span', { text: `${t('error.refused')} ${message}` }));
    // Only a page that has drawn something keeps showing it: one opened on a refused link has not.
    if (this.primary) box.append(el('span', { class: 'sub', text: t('error.stale') }));
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
      // The lesson tab opens at the step the URL or the student was at (the step's settings with it).
      button.addEventListener('click', () => this.set(view === 'learn' ? { ...this.stepState(this.stepFromUrl(this.state.step)), view } : { view }));
      button.addEventListener('keydown', (e) => {
        const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: VIEWS.length - 1, Home: -VIEWS.indexOf(view), End: VIEWS.length - 1 - VIEWS.indexOf(view) };
        if (!(e.key in moves)) return;
        e.preventDefault();
        const next = VIEWS[(VIEWS.indexOf(view) + moves[e.key] + VIEWS.length) % VIEWS.length];
        this.set(next === 'learn' ? { ...this.stepState(this.stepFromUrl(this.state.step)), view: next } : { view: next });
        byId(`tab-${next}`, this.root).focus();
      });
      tabs.append(button);
    });
    const hint = el('p', { class: 'hint tabs-hint', id: 'tabs-hint', 'data-testid': 'tabs-hint', 'aria-hidden': 'true', text: t('ui.tabsHint') });
    tabs.after(hint);
    this.watchTabsOverflow(tabs, hint);
  }

  /** On a narrow screen the controls are a drawer over the bottom of the view they change, opened
   *  and closed by a button docked under the tabs, in the page's flow: a floating button covered the
   *  legend and the lesson's buttons. Open, it rides on the drawer's top edge (styles.css; hidden on
   *  wide screens). */
  private buildDrawer(): void {
    const layout = this.root.querySelector<HTMLElement>('.layout')!;
    const controls = byId('controls', this.root);
    const toggle = el('button', { type: 'button', class: 'drawer-toggle', id: 'controls-toggle', 'data-testid': 'controls-toggle', 'aria-controls': 'controls', 'aria-expanded': 'false' });
    const show = (open: boolean) => {
      layout.classList.toggle('drawer-open', open);
      toggle.setAttribute('aria-expanded', String(open));
      toggle.textContent = t(open ? 'ui.controlsClose' : 'ui.controlsOpen');
    };
    toggle.addEventListener('click', () => {
      const open = !layout.classList.contains('drawer-open');
      show(open);
      if (open) controls.querySelector<HTMLElement>('select, input')?.focus();
    });
    controls.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && layout.classList.contains('drawer-open')) {
        show(false);
        toggle.focus();
      }
    });
    show(false);
    // The dock keeps the button's place in the flow while the open drawer carries the button.
    byId('tabs', this.root).after(el('div', { class: 'drawer-dock' }, [toggle]));
  }

  /** A newcomer is offered the guided lesson first; it is skippable, and once dismissed or started
   *  the offer does not come back. It heads the view, above the readouts: on a phone they and the
   *  bubble terms fill more than a screen, and an offer under them went unseen. */
  private offerLesson(): void {
    const embedded = document.documentElement.classList.contains('embed');
    if (embedded || this.state.view === 'learn' || lessonStarted() || load('pipesim:learn:offer') === 'dismissed') return;
    const start = el('button', { type: 'button', 'data-testid': 'learn-offer-start', text: t('learn.offerStart') });
    const dismiss = el('button', { type: 'button', class: 'ghost', 'data-testid': 'learn-offer-dismiss', text: t('learn.offerDismiss') });
    const offer = el('div', { class: 'learn-offer', 'data-testid': 'learn-offer', role: 'region', 'aria-label': t('tab.learn') }, [el('span', { text: t('learn.offer') }), start, dismiss]);
    const close = () => {
      save('pipesim:learn:offer', 'dismissed');
      offer.remove();
    };
    start.addEventListener('click', () => {
      close();
      this.set({ ...this.stepState(1), view: 'learn' });
    });
    dismiss.addEventListener('click', close);
    byId('readouts', this.root).before(offer);
  }

  /** Tabs that do not fit scroll sideways; a hint says so while some are out of sight. */
  private watchTabsOverflow(tabs: HTMLElement, hint: HTMLElement): void {
    const check = () => {
      const hiddenRight = tabs.scrollLeft + tabs.clientWidth < tabs.scrollWidth - 1;
      const hiddenLeft = tabs.scrollLeft > 1;
      hint.hidden = !(hiddenLeft || hiddenRight);
      tabs.dataset.more = hiddenLeft && hiddenRight ? 'both' : hiddenRight ? 'right' : hiddenLeft ? 'left' : 'none';
    };
    tabs.addEventListener('scroll', check, { passive: true });
    new ResizeObserver(check).observe(tabs);
    check();
  }

  private selectTab(view: ViewName, render = true): void {
    // The readouts would give a lesson's predictions away: they stay hidden while it is open.
    this.root.dataset.view = view;
    for (const v of VIEWS) {
      const selected = v === view;
      const tab = byId(`tab-${v}`, this.root);
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      this.panels[v].element.hidden = !selected;
      if (selected && tab.scrollIntoView && tab.parentElement!.scrollWidth > tab.parentElement!.clientWidth) tab.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    }
    if (view !== 'chunk') this.chunk.loaded?.hide();
    if (render) this.refresh();
  }

  /** The theme and palette on the document, and every view redrawn in them. */
  private restyle(): void {
    const html = document.documentElement;
    html.dataset.theme = this.state.theme;
    html.dataset.palette = this.state.palette;
    byId('theme-toggle', this.root).textContent = t(this.state.theme === 'dark' ? 'ui.themeLight' : 'ui.theme');
    this.dirty = new Set(VIEWS);
    this.refresh();
  }

  private bindHeader(): void {
    const theme = byId<HTMLButtonElement>('theme-toggle', this.root);
    const palette = byId<HTMLInputElement>('palette-toggle', this.root);
    const select = byId<HTMLSelectElement>('lang-select', this.root);
    theme.addEventListener('click', () => this.store.set({ theme: this.state.theme === 'dark' ? 'light' : 'dark' }));
    palette.checked = this.state.palette === 'cb';
    palette.addEventListener('change', () => this.store.set({ palette: palette.checked ? 'cb' : 'default' }));
    select.value = lang();
    // A new language reloads the page with ?lang=: the state is in the URL, and every view is then
    // built in the new language rather than patched string by string.
    select.addEventListener('change', () => {
      const next = select.value as Lang;
      if (!LANGS.includes(next)) return;
      save('pipesim:lang', next);
      this.address.flush();
      const q = new URLSearchParams(location.search);
      q.set('lang', next);
      location.replace('?' + q.toString().replace(/%2C/g, ',').replace(/%3D/g, '='));
    });
    theme.textContent = t(this.state.theme === 'dark' ? 'ui.themeLight' : 'ui.theme');
  }

}
