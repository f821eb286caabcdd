// The planner: a cluster and a model (JSON, as `pipesim plan --input` reads it) in, every schedule
// simulated with estimated F, B, W and all-to-all times, a ranked table and a recommendation out.
// It runs in the background worker (a plan simulates every schedule at the planned sizes); each edit
// supersedes the plan still computing.
import deepseek from '../../../core/data/plan_examples/deepseek-v3.json';
import moeOneNode from '../../../core/data/plan_examples/moe-one-node-ep.json';
import smallDense from '../../../core/data/plan_examples/small-dense.json';
import { clear, el } from '../base/dom';
import { seriesColor } from '../base/colors';
import { num, percent } from '../base/format';
import { Lane, SUPERSEDED, type Background } from '../engine/background';
import { EngineError, type ScheduleInfo } from '../engine/engine';
import { lang, t, type Key } from '../i18n';
import { wordRefusal } from '../i18n/refusals';
import { DEFAULT_INPUTS, type PlannerInputs } from '../state/page_state';
import { Store, type Slice } from '../state/store';

const EXAMPLES: { id: string; name: Key; input: unknown }[] = [
  { id: 'deepseek-v3', name: 'planner.example.deepseek', input: deepseek },
  { id: 'small-dense', name: 'planner.example.dense', input: smallDense },
  { id: 'moe-one-node', name: 'planner.example.moeOneNode', input: moeOneNode },
];

export class PlannerPanel {
  readonly element: HTMLElement;
  private readonly example = el('select', { id: 'planner-example', 'data-testid': 'planner-example' });
  private readonly input = el('textarea', { id: 'planner-input', rows: 18, spellcheck: 'false', 'data-testid': 'planner-input' });
  private readonly output = el('div', { class: 'planner-output' });
  private started = false;
  private readonly plans: Lane;

  constructor(
    background: Background,
    /** Looks a schedule up in the engine's registry (its colour). */
    private readonly schedule: (name: string) => ScheduleInfo | undefined,
    /** The example chosen and the JSON as edited, kept in the page's store (the inputs show them). */
    private readonly inputs: Slice<PlannerInputs> = new Store(DEFAULT_INPUTS).slice('planner'),
  ) {
    this.plans = new Lane(background);
    for (const e of EXAMPLES) this.example.append(el('option', { value: e.id, text: t(e.name) }));
    this.example.addEventListener('change', () => this.load(this.example.value));
    this.input.addEventListener('input', () => this.inputs.set({ input: this.input.value }));
    inputs.subscribe(() => void this.render());
    this.element = el('section', { class: 'panel', id: 'panel-planner', role: 'tabpanel', hidden: true }, [
      el('h3', { text: t('planner.title') }),
      el('p', { class: 'hint', text: t('planner.hint') }),
      el('div', { class: 'planner-grid' }, [
        el('div', { class: 'field' }, [
          el('label', { for: 'planner-example', text: t('planner.example') }),
          this.example,
          el('label', { for: 'planner-input', text: t('planner.input') }),
          this.input,
        ]),
        this.output,
      ]),
    ]);
  }

  update(): void {
    if (this.started) return;
    this.started = true;
    const { example, input } = this.inputs.get();
    if (!input) return this.load(example || EXAMPLES[0].id);
    this.example.value = example;
    this.input.value = input;
    void this.render();
  }

  private load(id: string): void {
    const e = EXAMPLES.find((x) => x.id === id) ?? EXAMPLES[0];
    this.example.value = e.id;
    this.input.value = JSON.stringify(e.input, null, 2);
    this.inputs.set({ example: e.id, input: this.input.value });
  }

  private async render(): Promise<void> {
    let plan: any;
    try {
      plan = await this.plans.begin().run('plan', { input: this.inputs.get().input, lang: lang() });
      if (plan === SUPERSEDED) return;
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      clear(this.output);
      this.input.setAttribute('aria-invalid', 'true');
      this.output.append(el('div', { class: 'error', role: 'alert', 'data-testid': 'planner-error', text: `${t('error.refused')} ${wordRefusal(e.message, e.wording)}` }));
      return;
    }
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
  }

  private table(plan: any): HTMLElement {
    const head = el('tr', {}, (['planner.rank', 'compare.schedule', 'planner.iteration', 'readout.bubbleFraction', 'planner.memory', 'planner.fits'] as Key[]).map((k) => el('th', { text: t(k) })));
    const rows = plan.candidates.map((c: any) => {
      const swatch = el('span', { class: 'swatch' });
      swatch.style.background = seriesColor(this.schedule(c.schedule));
      return el('tr', { 'data-schedule': c.schedule, class: c.schedule === plan.recommendation.schedule ? 'is-best' : '' }, [
        el('td', { text: String(c.rank) }),
        el('td', {}, [swatch, ' ', c.title]),
        el('td', { text: `${num(Number((c.makespan_ms / 1000).toFixed(2)))} s` }),
        el('td', { text: percent(c.bubble_fraction, 1) }),
        el('td', { text: `${num(Number(c.memory_gb.total.toFixed(1)))} / ${num(c.memory_gb.capacity)} GB` }),
        el('td', { text: c.fits ? t('planner.yes') : t('planner.no') }),
      ]);
    });
    return el('div', { class: 'table-scroll' }, [el('table', { class: 'data', 'data-testid': 'planner-table' }, [el('thead', {}, [head]), el('tbody', {}, rows)])]);
  }
}
