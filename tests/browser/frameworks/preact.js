// <pipesim-timeline> in a Preact page: Preact sets a prop as a property when the element has it.
import { h, render } from 'preact';
import '/embed/pipesim-timeline.js';
import { expose, onChange, onError, second } from './scenario.js';

const root = document.getElementById('root');
expose((s) =>
  render(
    h('div', null, [
      h('pipesim-timeline', { id: 'a', schedule: s.schedule, ranks: s.ranks, microBatches: s.microBatches, hidden: s.hidden, lang: 'en', 'onpipesim-change': onChange, 'onpipesim-error': onError }),
      h('pipesim-timeline', { id: 'b', ...second }),
    ]),
    root,
  ),
);
