// The planner: a cluster and a model (JSON, as `pipesim plan --input` reads it) in, every schedule
// simulated with estimated F, B, W and all-to-all times, a ranked table and a recommendation out;
// then the search (`pipesim plan --search`: every schedule, pipeline size, virtual stages and layers
// per stage), with a progress bar, whose rows each open in the Timeline or in Compare with one link.
// This view only draws: what it shows comes from a PlannerSource (app/planner_runs.ts, which runs it
// in the background worker); each edit supersedes the plan and the search still computing.
import deepseek from '../../../core/data/plan_examples/deepseek-v3.json';
import moeOneNode from '../../../core/data/plan_examples/moe-one-node-ep.json';
import smallDense from '../../../core/data/plan_examples/small-dense.json';
import { clear, el } from '../base/dom';
import { seriesColor } from '../base/colors';
import { num, percent } from '../base/format';
import type { PlanSearchResult, ScheduleInfo } from '../engine/engine';
import type { Refusal } from '../engine/outcome';
import { lang, t, type Key } from '../i18n';
import { wordRefusal } from '../i18n/refusals';
import { searchPointLink } from '../model/plan_link';
import { PlannerForm, withValue } from './planner_form';
import { DEFAULT_INPUTS, type PlannerInputs, type ViewName } from '../state/page_state';
import { Store, type Slice } from '../state/store';

const EXAMPLES: { id: string; name: Key; input: unknown }[] = [
  { id: 'deepseek-v3', name: 'planner.example.deepseek', input: deepseek },
  { id: 'small-dense', name: 'planner.example.dense', input: smallDense },
  { id: 'moe-one-node', name: 'planner.example.moeOneNode', input: moeOneNode },
];

/** What a planner call gives the view: its value, the engine's refusal, or 'superseded' (a newer
 *  input replaced it: nothing to draw). */
export type PlannerAnswer<T> = { value: T } | { error: Refusal } | 'superseded';

/** Where the view's numbers come from (the app runs them in the worker). */
export interface PlannerSource {
  plan(input: string, lang: string): Promise<PlannerAnswer<any>>;
  search(input: string, progress: (done: number, total: number) => void): Promise<PlannerAnswer<PlanSearchResult>>;
}

export class PlannerPanel {
  readonly element: HTMLElement;
  private readonly example = el('select', { id: 'planner-example', 'data-testid': 'planner-example' });
  private readonly input = el('textarea', { id: 'planner-input', rows: 18, spellcheck: 'false', 'data-testid': 'planner-input' });
  private readonly output = el('div', { class: 'planner-output' });
  private readonly search = el('div', { class: 'planner-search', 'data-testid': 'planner-search' });
  private readonly form = new PlannerForm((path, value) => this.formEdit(path, value));
  private started = false;

  constructor(
    private readonly source: PlannerSource,
    /** Looks a schedule up in the engine's registry (its colour, title, whether it has virtual stages). */
    private readonly schedule: (name: string) => ScheduleInfo | undefined,
    /** The example chosen and the JSON as edited, kept in the page's store (the inputs show them). */
    private readonly inputs: Slice<PlannerInputs> = new Store(DEFAULT_INPUTS).slice('planner'),
  ) {
    for (const e of EXAMPLES) this.example.append(el('option', { value: e.id, text: t(e.name) }));
    this.example.addEventListener('change', () => this.load(this.example.value));
    this.input.addEventListener('input', () => {
      this.inputs.set({ input: this.input.value });
      this.form.show(this.input.value);
    });
    inputs.subscribe(() => void this.render());
    this.element = el('section', { class: 'panel', id: 'panel-planner', role: 'tabpanel', hidden: true }, [
      el('h3', { text: t('planner.title') }),
      el('p', { class: 'hint', text: t('planner.hint') }),
      el('div', { class: 'planner-grid' }, [
        el('div', { class: 'field' }, [
          el('label', { for: 'planner-example', text: t('planner.example') }),
          this.example,
          this.form.element,
          el('label', { for: 'planner-input', text: t('planner.form.advanced') }),
          this.input,
        ]),
        this.output,
      ]),
      this.search,
    ]);
  }

  update(): void {
    if (this.started) return;
    this.started = true;
    const { example, input } = this.inputs.get();
    if (!input) return this.load(example || EXAMPLES[0].id);
    this.example.value = example;
    this.input.value = input;
    this.form.show(input);
    void this.render();
  }

  private load(id: string): void {
    const e = EXAMPLES.find((x) => x.id === id) ?? EXAMPLES[0];
    this.example.value = e.id;
    this.input.value = JSON.stringify(e.input, null, 2);
    this.form.show(this.input.value);
    this.inputs.set({ example: e.id, input: this.input.value });
  }

  /** A form input changed: its field of the JSON follows (unless the JSON does not parse, whose own
   *  error stays on screen). */
  private formEdit(path: string[], value: string): void {
    const json = withValue(this.input.value, path, value);
    if (json === null) return;
    this.input.value = json;
    this.inputs.set({ input: json });
  }

  private refusal(where: HTMLElement, error: Refusal, testid: string): void {
    clear(where);
    where.append(el('div', { class: 'error', role: 'alert', 'data-testid': testid, text: `${t('error.refused')} ${wordRefusal(error.message, error.wording)}` }));
  }

  private async render(): Promise<void> {
    if (!this.started) return;
    const input = this.inputs.get().input;
    const answer = await this.source.plan(input, lang());
    if (answer === 'superseded') return;
    if ('error' in answer) {
      this.input.setAttribute('aria-invalid', 'true');
      this.refusal(this.output, answer.error, 'planner-error');
      clear(this.search);
      return;
    }
    const plan = answer.value;
    clear(this.output);
    this.input.setAttribute('aria-invalid', 'false');
    const rec = plan.recommendation;
    const best = plan.candidates.find((c: any) => c.schedule === rec.schedule);
    this.output.append(
      el('div', { class: 'recommendation', 'data-testid': 'planner-recommendation', 'data-schedule': rec.schedule }, [
        el('div', { class: 'label', text: t('planner.recommended') }),
        el('div', { class: 'value', text: best?.title ?? rec.schedule }),
        el('ul', {}, rec.reasons.map((r: string) => el('li', { text: r }))),
      ]),
      this.table(plan),
    );
    if (plan.not_applicable?.length)
      this.output.append(
        el('p', { class: 'hint', text: t('planner.notApplicable') }),
        el('ul', { class: 'hint' }, plan.not_applicable.map((n: any) => el('li', { 'data-testid': 'planner-not-applicable', 'data-schedule': n.schedule, text: `${n.schedule}: ${wordRefusal(n.reason ?? '', n.wording)}` }))),
      );
    await this.renderSearch(input);
  }

  private async renderSearch(input: string): Promise<void> {
    const bar = el('progress', { max: '100', value: '0', role: 'progressbar', 'aria-valuemin': '0', 'aria-valuemax': '100', 'aria-valuenow': '0',
                                 'aria-label': t('planner.search.progress'), 'data-testid': 'planner-search-progress' });
    const label = el('div', { class: 'hint', 'data-testid': 'planner-search-count' });
    clear(this.search);
    this.search.append(el('h4', { text: t('planner.search.title') }), el('p', { class: 'hint', text: t('planner.search.hint') }), bar, label);
    const answer = await this.source.search(input, (done, total) => {
      const percent = total > 0 ? Math.floor((100 * done) / total) : 100;
      bar.setAttribute('aria-valuenow', String(percent));
      bar.setAttribute('aria-valuetext', t('planner.search.done', { done, total }));
      bar.value = percent;
      label.textContent = t('planner.search.done', { done, total });
    });
    if (answer === 'superseded') return;
    if ('error' in answer) return this.refusal(this.search, answer.error, 'planner-search-error');
    const r = answer.value;
    label.textContent = t('planner.search.summary', { configurations: r.configurations, refused: r.refused });
    this.search.append(this.searchTable(r));
  }

  private table(plan: any): HTMLElement {
    const head = el('tr', {}, (['planner.rank', 'compare.schedule', 'planner.iteration', 'readout.bubbleFraction', 'planner.memory', 'planner.fits'] as Key[]).map((k) => el('th', { text: t(k) })));
    const rows = plan.candidates.map((c: any) => {
      const swatch = el('span', { class: 'swatch' });
      swatch.style.background = seriesColor(this.schedule(c.schedule));
      return el('tr', { 'data-schedule': c.schedule, class: c.schedule === plan.recommendation.schedule ? 'is-best' : '' }, [
        el('td', { text: String(c.rank) }),
        el('td', {}, [swatch, ' ', c.title]),
        el('td', { text: `${num(Number((c.iteration_ms / 1000).toFixed(2)))} s` }),
        el('td', { text: percent(c.bubble_fraction, 1) }),
        el('td', { text: `${num(Number(c.memory_gb.total.toFixed(1)))} / ${num(c.memory_gb.capacity)} GB` }),
        el('td', { text: c.fits ? t('planner.yes') : t('planner.no') }),
      ]);
    });
    return el('div', { class: 'table-scroll' }, [el('table', { class: 'data', 'data-testid': 'planner-table' }, [el('thead', {}, [head]), el('tbody', {}, rows)])]);
  }

  private searchTable(r: PlanSearchResult): HTMLElement {
    const keys: Key[] = ['planner.rank', 'compare.schedule', 'planner.search.pp', 'planner.search.microBatches', 'planner.search.layers',
                         'planner.iteration', 'planner.search.allreduce', 'readout.bubbleFraction', 'planner.memory', 'planner.fits', 'planner.search.open'];
    const head = el('tr', {}, keys.map((k) => el('th', { text: t(k) })));
    const extra = new URLSearchParams(location.search);
    for (const own of [...extra.keys()]) if (own !== 'lang') extra.delete(own);
    const rows = r.best.map((p, i) => {
      const info = this.schedule(p.schedule);
      const swatch = el('span', { class: 'swatch' });
      swatch.style.background = seriesColor(info);
      const name = p.pipeline ? info?.texts[lang()].title ?? p.schedule : t('planner.search.noPipeline');
      const link = (view: ViewName, text: Key) =>
        el('a', { href: searchPointLink(p, view, !!info?.uses_virtual_stages, extra), 'data-testid': `planner-open-${view}`, text: t(text) });
      const v = p.virtual_stages > 1 ? ` (v = ${p.virtual_stages})` : '';
      return el('tr', { 'data-schedule': p.schedule, 'data-pp': String(p.pp), 'data-makespan': String(p.makespan_ms), 'data-testid': 'planner-search-row' }, [
        el('td', { text: String(i + 1) }),
        el('td', {}, [...(p.pipeline ? [swatch, ' '] : []), name + v]),
        el('td', { text: String(p.pp) }),
        el('td', { text: `${p.micro_batches} × ${p.micro_batch_size}` }),
        el('td', { text: p.layers_per_stage.join(' ') }),
        el('td', { text: `${num(Number((p.iteration_ms / 1000).toFixed(2)))} s` }),
        el('td', { text: `${num(Number(p.allreduce_ms.toFixed(1)))} ms` }),
        el('td', { text: percent(p.bubble_fraction, 1) }),
        el('td', { text: `${num(Number(p.peak_gb.toFixed(1)))} GB` }),
        el('td', { text: p.fits ? t('planner.yes') : t('planner.no') }),
        el('td', { class: 'links' }, [link('timeline', 'tab.timeline'), ' · ', link('compare', 'tab.compare')]),
      ]);
    });
    return el('div', { class: 'table-scroll' }, [el('table', { class: 'data', 'data-testid': 'planner-search-table' }, [el('thead', {}, [head]), el('tbody', {}, rows)])]);
  }
}
