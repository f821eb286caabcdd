// The control panel: preset, schedule, sizes and costs, each a slider plus a number field.
// Every edit reports at once; values go to the engine as typed, so it can say what it refuses.
// Sliders offer only what runs: a size slider steps through the values the schedule accepts (the
// engine's own checks), cost sliders move in tenths, and a cost the schedule has no op for is disabled
// with the reason. A refusal is shown at the field it is about, over the layout rather than in it.
import { clear, el } from '../base/dom';
import { EngineError, type Engine, type ScheduleInfo } from '../engine/engine';
import { num } from '../base/format';
import { lang, t, type Key } from '../i18n';
import { scheduleTitle } from '../model/describe';
import { matchingPreset, presetFrom, type Preset } from './presets';
import { StageCostTable } from '../views/stage_cost_table';
import { CUSTOM_IN_URL_LIMIT, formatCost, scaledStageCost, type AppState, type CostValues } from '../state/page_state';

/** Per-stage presets over the costs on screen: where a real model is heavier. */
const STAGE_PRESETS: { id: string; name: Key; stages: string[]; factor: number }[] = [
  { id: 'ends', name: 'control.stagePresetEnds', stages: ['first', 'last'], factor: 1.5 },
  { id: 'head', name: 'control.stagePresetHead', stages: ['last'], factor: 2 },
];

type Change = (patch: Partial<AppState>) => void;

/** Longest schedule text written into the box: a textarea given megabytes freezes the page for seconds,
 *  so a larger imported file is simulated without being shown. */
const CUSTOM_SHOWN_LIMIT = 256 * 1024;

interface SliderField {
  root: HTMLElement;
  range: HTMLInputElement;
  input: HTMLInputElement;
  note?: HTMLElement;
  /** The engine's refusal of this field, over the layout under the input (it moves nothing). */
  refusal: HTMLElement;
  /** Why the field is disabled, when it does not apply to the schedule. */
  reason: HTMLElement;
}

/** Cost sliders move in tenths: the values a person would type. */
const COST_STEP = 0.1;

function sliderField(id: string, labelKey: Key, min: number, max: number, step: number, hintKey?: Key): SliderField {
  const range = el('input', { type: 'range', min, max, step, 'aria-labelledby': `${id}-label`, 'data-testid': `${id}-range` });
  const input = el('input', { type: 'number', id, min, step: 'any', 'data-testid': id, inputmode: 'decimal', 'aria-describedby': `${id}-refusal` });
  const note = el('div', { class: 'note', hidden: true });
  const refusal = el('div', { class: 'refusal', id: `${id}-refusal`, 'data-testid': `${id}-refusal`, hidden: true });
  const reason = el('div', { class: 'hint reason', 'data-testid': `${id}-reason`, hidden: true });
  const root = el('div', { class: 'field' }, [
    el('label', { for: id, id: `${id}-label`, 'data-i18n': labelKey, text: t(labelKey) }),
    el('div', { class: 'row' }, [range, input]),
    hintKey ? el('div', { class: 'hint', 'data-i18n': hintKey, text: t(hintKey) }) : null,
    reason,
    note,
    refusal,
  ]);
  return { root, range, input, note, refusal, reason };
}

/** The whole number `text` stands for, or `fallback` while it is half-typed or refused. */
function whole(text: string, fallback: number): number {
  const v = Number(text);
  return text.trim() !== '' && Number.isInteger(v) && v >= 1 ? v : fallback;
}

/** The index of the offered value nearest `value` (the first of two as near). */
function nearestIndex(values: number[], value: number): number {
  let best = 0;
  values.forEach((v, k) => {
    if (Math.abs(v - value) < Math.abs(values[best] - value)) best = k;
  });
  return best;
}

function setIfIdle(input: HTMLInputElement, value: string): void {
  if (document.activeElement !== input && input.value !== value) input.value = value;
}

export class Controls {
  private readonly preset = el('select', { id: 'preset', 'data-testid': 'preset' });
  private readonly schedule = el('select', { id: 'schedule', 'data-testid': 'schedule' });
  private readonly about = el('div', { class: 'schedule-about' });
  private readonly ranks = sliderField('ranks', 'control.ranks', 1, 32, 1, 'control.ranksHint');
  private readonly microBatches = sliderField('micro-batches', 'control.microBatches', 1, 128, 1, 'control.microBatchesHint');
  private readonly custom = el('textarea', { id: 'custom-schedule', 'data-testid': 'custom-schedule', rows: 8, spellcheck: 'false' });
  private readonly customTooLong = el('div', { class: 'note', hidden: true, text: t('control.customTooLong') });
  private readonly customNotShown = el('div', { class: 'note', hidden: true, 'data-testid': 'custom-not-shown' });
  /** A file refused before it is read: larger than a custom schedule may be, or unreadable. */
  private readonly customFileError = el('div', { class: 'error', role: 'alert', hidden: true, 'data-testid': 'custom-file-error' });
  private readonly customFile = el('input', { type: 'file', accept: '.json,.txt,.csv,application/json,text/plain', 'data-testid': 'custom-file', id: 'custom-file' });
  private readonly customField = el('div', { class: 'field' }, [
    el('label', { for: 'custom-schedule', 'data-i18n': 'control.custom', text: t('control.custom') }),
    this.custom,
    el('div', { class: 'hint', 'data-i18n': 'control.customHint', text: t('control.customHint') }),
    this.customTooLong,
    this.customNotShown,
    el('label', { for: 'custom-file', class: 'hint', 'data-i18n': 'control.customFile', text: t('control.customFile') }),
    this.customFile,
    this.customFileError,
  ]);
  private readonly virtualStages = sliderField('virtual-stages', 'control.virtualStages', 1, 8, 1, 'control.virtualStagesHint');
  private readonly costs: Record<keyof CostValues, SliderField> = {
    F: sliderField('cost-f', 'control.costF', 0, 6, COST_STEP),
    B: sliderField('cost-b', 'control.costB', 0, 12, COST_STEP),
    W: sliderField('cost-w', 'control.costW', 0, 6, COST_STEP),
    FB: sliderField('cost-fb', 'control.costFB', 0, 18, COST_STEP, 'control.costFBHint'),
    comm: sliderField('cost-comm', 'control.costComm', 0, 4, COST_STEP),
  };
  /** The largest value each size slider offers. */
  private static readonly SIZE_LIMITS = { ranks: 32, microBatches: 128, virtualStages: 8 } as const;
  /** The values each size slider steps through now, from the engine, and the settings they are for. */
  private readonly offered: Record<'ranks' | 'microBatches' | 'virtualStages', { key: string; values: number[] }> = {
    ranks: { key: '', values: [] },
    microBatches: { key: '', values: [] },
    virtualStages: { key: '', values: [] },
  };
  private readonly stageCost = el('input', { type: 'text', id: 'stage-cost', 'data-testid': 'stage-cost', spellcheck: 'false', placeholder: 'last:F=2,B=4' });
  private readonly stagePreset = el('select', { id: 'stage-preset', 'data-testid': 'stage-preset', 'aria-label': t('control.stagePreset') });
  /** The per-stage table over the same entries as the text field (the text stays the advanced input). */
  private readonly stageTable = new StageCostTable((stageCost) => {
    this.stageCost.value = stageCost;
    this.onChange({ stageCost });
  });
  /** The schedule's stage count, from core (the last accepted run's summary.stages); 0 before the first run. */
  private stages = 0;
  private readonly rankSpeed = el('input', { type: 'text', id: 'rank-speed', 'data-testid': 'rank-speed', spellcheck: 'false', placeholder: '3:0.5' });
  private readonly timing = el('select', { id: 'timing', 'data-testid': 'timing' });
  private readonly sends = el('select', { id: 'sends', 'data-testid': 'sends' });
  private readonly sendsField = el('div', { class: 'field' }, [
    el('label', { for: 'sends', 'data-i18n': 'control.sends', text: t('control.sends') }),
    this.sends,
  ]);
  private state: AppState | null = null;
  /** The cost setting the F&B note was written for; any other change hides it. */
  private noteFor = '';
  /** The costs last read from the cost text: the sliders show them while it is malformed. */
  private acceptedCosts: CostValues | null = null;
  /** The schedule whose summary `about` shows. */
  private aboutFor = '';

  constructor(
    private readonly host: HTMLElement,
    private readonly engine: Engine,
    private readonly onChange: Change,
  ) {
    this.build();
  }

  private build(): void {
    clear(this.host);
    const heading = (key: Key) => el('h2', { 'data-i18n': key, text: t(key) });
    this.host.append(
      heading('control.setup'),
      el('div', { class: 'field' }, [el('label', { for: 'preset', 'data-i18n': 'control.preset', text: t('control.preset') }), this.preset]),
      el('div', { class: 'field' }, [el('label', { for: 'schedule', 'data-i18n': 'control.schedule', text: t('control.schedule') }), this.schedule, this.about]),
      this.customField,
      this.ranks.root,
      this.microBatches.root,
      this.virtualStages.root,
      heading('control.costs'),
      el('p', { class: 'hint', 'data-i18n': 'control.costsHint', text: t('control.costsHint') }),
      ...Object.values(this.costs).map((f) => f.root),
      el('div', { class: 'field' }, [
        el('label', { for: 'stage-cost', 'data-i18n': 'control.stageCost', text: t('control.stageCost') }),
        this.stagePreset,
        this.stageTable.element,
        this.stageCost,
        el('div', { class: 'hint', 'data-i18n': 'control.stageCostHint', text: t('control.stageCostHint') }),
      ]),
      el('div', { class: 'field' }, [
        el('label', { for: 'rank-speed', 'data-i18n': 'control.rankSpeed', text: t('control.rankSpeed') }),
        this.rankSpeed,
        el('div', { class: 'hint', 'data-i18n': 'control.rankSpeedHint', text: t('control.rankSpeedHint') }),
      ]),
      el('div', { class: 'field' }, [
        el('label', { for: 'timing', 'data-i18n': 'control.timing', text: t('control.timing') }),
        this.timing,
        el('div', { class: 'hint', 'data-i18n': 'control.timingHint', text: t('control.timingHint') }),
      ]),
      this.sendsField,
    );
    this.fillSelects();

    this.preset.addEventListener('change', () => {
      const p = this.presets().find((x) => x.id === this.preset.value);
      if (p) this.onChange({ ...p.state });
    });
    this.schedule.addEventListener('change', () => this.onChange({ schedule: this.schedule.value }));
    this.timing.addEventListener('change', () => this.onChange({ timing: this.timing.value }));
    this.sends.addEventListener('change', () => this.onChange({ sends: this.sends.value }));
    this.custom.addEventListener('input', () => this.onChange({ custom: this.custom.value }));
    // Import: a pipesim Chrome trace, the JSON contract or PyTorch actions, read as the custom schedule.
    // Its size is checked before any of it is read: a file of gigabytes is refused at once.
    this.customFile.addEventListener('change', async () => {
      const file = this.customFile.files?.[0];
      if (!file) return;
      this.customFileError.hidden = true;
      const limit = this.engine.limits().maxScheduleTextBytes;
      let text: string;
      try {
        if (file.size > limit) throw new Error(t('control.fileTooLarge', { size: file.size.toLocaleString(lang()), limit: limit.toLocaleString(lang()) }));
        text = await file.text();
      } catch (e) {
        this.customFileError.hidden = false;
        this.customFileError.textContent = `${t('error.refused')} ${e instanceof Error ? e.message : String(e)}`;
        return;
      }
      this.custom.value = text.length <= CUSTOM_SHOWN_LIMIT ? text : '';
      this.onChange({ custom: text });
    });
    this.bindInteger(this.ranks, 'ranks');
    this.bindInteger(this.microBatches, 'microBatches');
    this.bindInteger(this.virtualStages, 'virtualStages');
    for (const key of Object.keys(this.costs) as (keyof CostValues)[]) this.bindCost(key);
    this.rankSpeed.addEventListener('input', () => this.onChange({ rankSpeed: this.rankSpeed.value }));
    this.stageCost.addEventListener('input', () => this.onChange({ stageCost: this.stageCost.value }));
    this.stagePreset.addEventListener('change', () => {
      const preset = STAGE_PRESETS.find((p) => p.id === this.stagePreset.value);
      const cost = this.costValues(this.state?.cost ?? '');
      this.onChange({ stageCost: preset ? scaledStageCost(cost, preset.stages, preset.factor) : '' });
      this.stagePreset.value = '';
    });
  }

  /** Core's presets, named in the page's language. */
  private presets(): Preset[] {
    return this.engine.presets.map(presetFrom);
  }

  private fillSelects(): void {
    clear(this.preset);
    this.preset.append(el('option', { value: '', text: t('preset.custom') }));
    for (const p of this.presets()) this.preset.append(el('option', { value: p.id, text: p.name }));
    clear(this.stagePreset);
    this.stagePreset.append(el('option', { value: '', text: t('control.stagePreset') }));
    for (const p of STAGE_PRESETS) this.stagePreset.append(el('option', { value: p.id, text: t(p.name) }));
    clear(this.schedule);
    for (const s of this.engine.schedules) this.schedule.append(el('option', { value: s.name, text: scheduleTitle(s) }));
    clear(this.timing);
    this.timing.append(
      el('option', { value: 'dataflow', text: t('control.timingDataflow') }),
      el('option', { value: 'reference', text: t('control.timingReference') }),
    );
    clear(this.sends);
    for (const [value, key] of [
      ['rendezvous', 'control.sendsRendezvous'],
      ['eager', 'control.sendsEager'],
      ['async', 'control.sendsAsync'],
    ] as [string, Key][])
      this.sends.append(el('option', { value, text: t(key) }));
  }

  /** A size slider offers the values the schedule accepts (offerSizes): as its own min, max and step
   *  when they are evenly spaced (they are for every catalogued schedule), else by index. */
  private bindInteger(field: SliderField, key: 'ranks' | 'microBatches' | 'virtualStages'): void {
    field.range.addEventListener('input', () => {
      const values = this.offered[key].values;
      const value = field.range.dataset.mode === 'index' ? values[Number(field.range.value)] : Number(field.range.value);
      if (value === undefined) return;
      field.input.value = String(value);
      this.onChange({ [key]: String(value) });
    });
    field.input.addEventListener('input', () => this.onChange({ [key]: field.input.value.trim() }));
  }

  /** Points the size slider `key` at the values the schedule accepts with the other sizes as set. */
  private offerSizes(key: 'ranks' | 'microBatches' | 'virtualStages', field: SliderField, state: AppState, info: ScheduleInfo | undefined): void {
    const request = {
      schedule: state.schedule,
      ranks: whole(state.ranks, 8),
      microBatches: whole(state.microBatches, 20),
      virtualStages: info?.uses_virtual_stages ? whole(state.virtualStages, 2) : 1,
      cost: 'F=1,B=2,W=1,FB=3', // sizes do not depend on costs
    };
    const cacheKey = JSON.stringify({ ...request, [key]: 0 });
    const offer = this.offered[key];
    if (offer.key !== cacheKey) {
      offer.key = cacheKey;
      try {
        offer.values = this.engine.acceptedValues(request, key, Controls.SIZE_LIMITS[key]);
      } catch {
        offer.values = []; // an unknown schedule: the error box says which are known
      }
    }
    const values = offer.values;
    field.range.disabled = values.length === 0;
    if (values.length === 0) return;
    const at = nearestIndex(values, whole(state[key], values[0]));
    const gap = values.length > 1 ? values[1] - values[0] : 1;
    const even = values.every((v, k) => v === values[0] + k * gap);
    // Bounds before the value: a range input clamps a value to the bounds it has when it is set.
    field.range.dataset.mode = even ? 'value' : 'index';
    field.range.min = String(even ? values[0] : 0);
    field.range.max = String(even ? values.at(-1)! : values.length - 1);
    field.range.step = String(even ? gap : 1);
    field.range.value = String(even ? values[at] : at);
    field.range.setAttribute('aria-valuetext', String(values[at]));
  }

  /** Disables each cost the schedule on screen has no op for, saying why: a schedule that never splits
   *  its backward ignores W, and one that never overlaps a pair ignores F&B. */
  showApplicable(kinds: ReadonlySet<string>): void {
    const rules: [keyof CostValues, boolean, Key][] = [
      ['W', kinds.has('W'), 'control.noW'],
      ['FB', kinds.has('FB'), 'control.noFB'],
    ];
    for (const [key, applies, reasonKey] of rules) {
      const field = this.costs[key];
      field.range.disabled = !applies;
      field.input.disabled = !applies;
      field.reason.hidden = applies;
      field.reason.textContent = applies ? '' : t(reasonKey);
    }
  }

  /** F&B must stay within [max(F,B), F+B]: when a slider moves F or B, F&B follows and says so.
   *  Typed text goes to the engine as typed, so half-typed numbers never drag F&B along. */
  private bindCost(key: keyof CostValues): void {
    const field = this.costs[key];
    const apply = (raw: string, follow: boolean) => {
      if (!this.state) return;
      const current = this.costValues(this.state.cost);
      const value = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(value)) {
        // Let the engine word the refusal: pass the text through unchanged.
        const text = this.state.cost.replace(new RegExp(`(^|,)${key}=[^,]*`, 'i'), `$1${key}=${raw.trim() || 'empty'}`);
        this.onChange({ cost: text.includes(`${key}=`) ? text : `${text},${key}=${raw.trim() || 'empty'}` });
        return;
      }
      const noCredit = Math.abs(current.FB - this.engine.costBounds(current.F, current.B).fbMax) < 1e-9;
      const next: CostValues = { ...current, [key]: value };
      let note: string | undefined;
      if (follow && (key === 'F' || key === 'B')) {
        const { fbMin: lo, fbMax: hi } = this.engine.costBounds(next.F, next.B);
        if (noCredit) next.FB = hi;
        else if (next.FB < lo || next.FB > hi) {
          next.FB = Math.min(hi, Math.max(lo, next.FB));
          note = t('control.fbAdjusted', { lo: num(lo), hi: num(hi) });
        }
      }
      this.costs.FB.note!.hidden = !note;
      if (note) this.costs.FB.note!.textContent = note;
      this.noteFor = note ? formatCost(next) : '';
      this.onChange({ cost: formatCost(next) });
    };
    field.range.addEventListener('input', () => {
      field.input.value = field.range.value;
      apply(field.range.value, true);
    });
    field.input.addEventListener('input', () => apply(field.input.value, false));
  }

  /** The costs `text` writes, as the engine's parser reads them (also when a value is out of its
   *  bounds: the refusal is shown at its field); for malformed text, the costs last read, so the
   *  sliders stay where they were. */
  private costValues(text: string): CostValues {
    try {
      this.acceptedCosts = this.engine.readCosts(text);
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
    }
    return this.acceptedCosts ?? this.engine.parseCosts(''); // '' reads as the default costs
  }

  /** Shows `state` without disturbing a field the user is typing in. */
  sync(state: AppState): void {
    this.state = state;
    const preset = matchingPreset(this.presets(), state);
    this.preset.value = preset ? preset.id : '';
    // A name the engine does not know selects nothing: the error box says what the known ones are.
    this.schedule.value = state.schedule;
    if (this.schedule.value !== state.schedule) this.schedule.selectedIndex = -1;
    const info: ScheduleInfo | undefined = this.engine.schedule(state.schedule);
    this.describeSchedule(info);
    const isCustom = !!info?.takes_text;
    this.virtualStages.root.hidden = !info?.uses_virtual_stages || isCustom;
    this.ranks.root.hidden = isCustom;
    this.microBatches.root.hidden = isCustom;
    this.customField.hidden = !isCustom;
    // The even-count hints are about schedules fed from both ends.
    const twoWay = !!info?.two_way;
    this.ranks.root.querySelector<HTMLElement>('.hint')!.hidden = !twoWay;
    this.microBatches.root.querySelector<HTMLElement>('.hint')!.hidden = !twoWay;
    const shown = state.custom.length <= CUSTOM_SHOWN_LIMIT ? state.custom : '';
    if (isCustom && document.activeElement !== this.custom && this.custom.value !== shown) this.custom.value = shown;
    this.customNotShown.hidden = !isCustom || shown === state.custom;
    if (!this.customNotShown.hidden) this.customNotShown.textContent = t('control.customNotShown', { size: Math.ceil(state.custom.length / 1024) });
    this.customTooLong.hidden = !isCustom || state.custom.length <= CUSTOM_IN_URL_LIMIT;
    for (const [field, key] of [
      [this.ranks, 'ranks'],
      [this.microBatches, 'microBatches'],
      [this.virtualStages, 'virtualStages'],
    ] as [SliderField, 'ranks' | 'microBatches' | 'virtualStages'][]) {
      setIfIdle(field.input, state[key]);
      if (!isCustom && !field.root.hidden) this.offerSizes(key, field, state, info);
    }
    const c = this.costValues(state.cost);
    // Bounds before values: a range input clamps a value to the bounds it has when it is set.
    const bounds = this.engine.costBounds(c.F, c.B);
    this.costs.FB.range.min = String(bounds.fbMin);
    this.costs.FB.range.max = String(bounds.fbMax);
    for (const key of Object.keys(this.costs) as (keyof CostValues)[]) {
      const field = this.costs[key];
      setIfIdle(field.input, String(c[key]));
      field.range.value = String(c[key]);
    }
    if (state.cost !== this.noteFor) this.costs.FB.note!.hidden = true;
    setIfIdle(this.rankSpeed, state.rankSpeed);
    this.timing.value = state.timing;
    this.sends.value = state.sends;
    this.sendsField.hidden = state.timing !== 'reference';
    setIfIdle(this.stageCost, state.stageCost);
    this.stageTable.update(state.stageCost, this.stages, c);
  }

  /** The schedule's stage count at these settings, as core counts stages (a run's summary.stages):
   *  the per-stage table's rows. */
  showStages(stages: number): void {
    if (stages === this.stages) return;
    this.stages = stages;
    if (this.state) this.stageTable.update(this.state.stageCost, stages, this.costValues(this.state.cost));
  }

  /** The chosen schedule's summary and rules, rewritten only when the schedule changes (every slider
   *  move syncs the controls, and a rebuilt block would cost a layout each time). */
  private describeSchedule(info: ScheduleInfo | undefined): void {
    const name = info?.name ?? '';
    if (this.aboutFor === name && this.about.firstChild) return;
    this.aboutFor = name;
    clear(this.about);
    if (!info) return;
    const { summary, constraints } = info.texts[lang()];
    this.about.append(el('div', { text: summary }), el('div', { class: 'rules', text: t('control.rules', { rules: constraints }) }));
  }

  /** Marks the field a refusal is about (the engine names it: `field`), for screen readers and the
   *  eye, and shows the refusal at that field as `worded` in the page's language. */
  markInvalid(refusal: { field?: string } | null, worded: string | null = null): void {
    const about = refusal?.field ?? '';
    const flag = (field: SliderField, bad: boolean) => {
      field.input.setAttribute('aria-invalid', String(bad));
      field.refusal.hidden = !bad;
      field.refusal.textContent = bad ? worded : '';
    };
    flag(this.ranks, about === 'ranks');
    this.rankSpeed.setAttribute('aria-invalid', String(about === 'rank_speed'));
    this.stageCost.setAttribute('aria-invalid', String(about === 'stage_cost' || about === 'model_stages'));
    this.stageTable.showRefusal(about === 'stage_cost' ? worded : null);
    flag(this.microBatches, about === 'micro_batches');
    flag(this.virtualStages, about === 'virtual_stages');
    this.custom.setAttribute('aria-invalid', String(refusal !== null && !!this.state && !!this.engine.schedule(this.state.schedule)?.takes_text));
    for (const key of Object.keys(this.costs) as (keyof CostValues)[]) flag(this.costs[key], about === `cost.${key}`);
  }


}
