// What each framework page renders, through that framework's own way of passing props and listening
// to events: element #a driven by the app's state (schedule, ranks, microBatches, hidden), element
// #b in Chinese with fixed settings. window.setState changes the state as an app would; every
// pipesim-change and pipesim-error of #a lands in window.events.
export const initial = { schedule: 'dualpipe', ranks: 8, microBatches: 20, hidden: false };
export const second = { schedule: '1f1b', ranks: 4, microBatches: 8, lang: 'zh-CN' };

window.events = [];
export const onChange = (e) => window.events.push({ type: 'change', schedule: e.detail.schedule, makespan: e.detail.summary?.makespan ?? null });
export const onError = (e) => window.events.push({ type: 'error', code: e.detail.code, message: e.detail.message });

/** Lets the test drive the app: `update` re-renders with the merged state. */
export function expose(update) {
  let state = { ...initial };
  window.setState = (partial) => {
    state = { ...state, ...partial };
    update(state);
  };
  update(state);
}
