// <pipesim-timeline> in a React 19 page: React sets a prop as a property when the element has it,
// and "onpipesim-change" listens to that event.
import { createElement as h } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import '/embed/pipesim-timeline.js';
import { expose, onChange, onError, second } from './scenario.js';

const root = createRoot(document.getElementById('root'));
expose((s) =>
  flushSync(() =>
    root.render(
      h('div', null,
        h('pipesim-timeline', { id: 'a', schedule: s.schedule, ranks: s.ranks, microBatches: s.microBatches, hidden: s.hidden, lang: 'en', 'onpipesim-change': onChange, 'onpipesim-error': onError }),
        h('pipesim-timeline', { id: 'b', ...second }),
      ),
    ),
  ),
);
