// <pipesim-timeline> in a Vue page (render functions, no template compiler): Vue sets a prop as a
// property when `key in el`, and onPipesimChange listens to "pipesim-change".
import { createApp, h, reactive } from 'vue';
import '/embed/pipesim-timeline.js';
import { expose, initial, onChange, onError, second } from './scenario.js';

const state = reactive({ ...initial });
createApp({
  render: () =>
    h('div', [
      h('pipesim-timeline', { id: 'a', schedule: state.schedule, ranks: state.ranks, microBatches: state.microBatches, hidden: state.hidden, lang: 'en', onPipesimChange: onChange, onPipesimError: onError }),
      h('pipesim-timeline', { id: 'b', ...second }),
    ]),
}).mount('#root');
expose((s) => Object.assign(state, s));
