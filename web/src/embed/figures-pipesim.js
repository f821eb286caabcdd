/* pipesim figure widget for the course site: registers "pipesim" with window.LF.register, following the
   course's figure convention. Plain ES5 and no dependencies: on first use it adds the <pipesim-timeline>
   module that sits next to this file (one ES module plus its .wasm), then mounts one element per figure.

   Lesson markdown:
     ```figure
     pipesim
     {"P": 8, "M": 20, "schedules": ["1f1b", "dualpipe"]}
     ```
   Config keys: P (ranks), M (micro-batches), schedules (the first is drawn, the others compared),
   cost ("F=1,B=2,W=1,FB=3"), view ("timeline" | "compare" | "chunk"), V (virtual stages), lang. */
(function () {
  'use strict';
  var script = document.currentScript;
  var base = script && script.src ? script.src.replace(/[^\/]*$/, '') : './';
  var KEYS = { P: 1, M: 1, V: 1, schedules: 1, schedule: 1, cost: 1, view: 1, lang: 1, caption: 1 };

  function loadElement() {
    if (window.customElements && window.customElements.get('pipesim-timeline')) return;
    if (document.querySelector('script[data-pipesim-element]')) return;
    var s = document.createElement('script');
    s.type = 'module';
    s.src = base + 'pipesim-timeline.js';
    s.setAttribute('data-pipesim-element', '');
    document.head.appendChild(s);
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text) node.textContent = text;
    return node;
  }

  function isWhole(v, lo, hi) {
    return typeof v === 'number' && Math.floor(v) === v && v >= lo && v <= hi;
  }

  /* The course swallows exceptions, so a bad config is shown in the card, never thrown. */
  function check(cfg) {
    if (cfg === null || typeof cfg !== 'object' || cfg instanceof Array) return 'config must be a JSON object';
    for (var key in cfg) if (cfg.hasOwnProperty(key) && !KEYS[key]) return 'unknown config key "' + key + '"; keys are P, M, V, schedules, cost, view, lang, caption';
    if (cfg.P !== undefined && !isWhole(cfg.P, 1, 256)) return 'P (ranks) must be a whole number from 1 to 256';
    if (cfg.M !== undefined && !isWhole(cfg.M, 1, 4096)) return 'M (micro-batches) must be a whole number from 1 to 4096';
    if (cfg.V !== undefined && !isWhole(cfg.V, 1, 16)) return 'V (virtual stages) must be a whole number from 1 to 16';
    if (cfg.schedules !== undefined) {
      if (!(cfg.schedules instanceof Array) || cfg.schedules.length === 0) return 'schedules must be a non-empty list like ["1f1b", "dualpipe"]';
      for (var i = 0; i < cfg.schedules.length; i++) if (typeof cfg.schedules[i] !== 'string') return 'schedules must be names like "dualpipe"';
    }
    if (cfg.cost !== undefined && typeof cfg.cost !== 'string') return 'cost must be a string like "F=1,B=2,W=1,FB=3"';
    return null;
  }

  function mount(host, cfg) {
    cfg = cfg || {};
    var state = {
      P: cfg.P || 8,
      M: cfg.M || 20,
      schedules: cfg.schedules || (cfg.schedule ? [cfg.schedule] : ['dualpipe']),
      cost: cfg.cost || 'F=1,B=2,W=1,FB=3',
      view: cfg.view || (cfg.schedules && cfg.schedules.length > 1 ? 'compare' : 'timeline')
    };
    var root = el('div', 'lf');
    var head = el('div', 'lf-head');
    head.appendChild(el('span', 'lf-label', 'PIPESIM'));
    head.appendChild(el('span', 'lf-hint', 'hover a cell · click an idle gap · drag to pan'));
    root.appendChild(head);
    var body = el('div', 'lf-body');
    root.appendChild(body);
    var cap = el('div', 'lf-cap', cfg.caption ||
      'Each row is a GPU, time runs right. Orange: forward; green: backward; blue: weight gradient; a bordered pair: DualPipe\u2019s overlapped forward and backward. Numbers come from the pipesim engine.');
    root.appendChild(cap);
    host.appendChild(root);

    var problem = check(cfg);
    if (problem) {
      var err = el('div', 'lf-error', 'pipesim: ' + problem);
      err.setAttribute('role', 'alert');
      body.appendChild(err);
      return;
    }
    var element = document.createElement('pipesim-timeline');
    state._render = function () {
      element.setAttribute('schedule', state.schedules[0]);
      element.setAttribute('ranks', String(state.P));
      element.setAttribute('micro-batches', String(state.M));
      element.setAttribute('cost', state.cost);
      element.setAttribute('view', state.view);
      if (state.schedules.length > 1) element.setAttribute('compare', state.schedules.slice(1).join(','));
      if (cfg.V) element.setAttribute('virtual-stages', String(cfg.V));
      if (cfg.lang) element.setAttribute('lang', cfg.lang);
    };
    state._render();
    body.appendChild(element);
    loadElement();
  }

  function register() {
    if (window.LF && typeof window.LF.register === 'function') {
      window.LF.register({ pipesim: mount });
      return true;
    }
    return false;
  }

  if (!register()) {
    document.addEventListener('DOMContentLoaded', function () {
      if (!register() && window.console) console.warn('pipesim: window.LF is missing, the widget was not registered');
    });
  }
})();
