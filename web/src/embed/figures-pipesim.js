/* pipesim figure widget for the course site: registers "pipesim" with window.LF.register, following the
   course's figure convention. Plain ES5 and no dependencies: on first use it adds the <pipesim-timeline>
   module that sits next to this file (one ES module plus its .wasm), then mounts one element per figure.

   Lesson markdown:
     ```figure
     pipesim
     {"P": 8, "M": 20, "schedules": ["1f1b", "dualpipe"]}
     ```
   Config keys: P (ranks), M (micro-batches), schedules (the first is drawn, the others compared),
   cost ("F=1,B=2,W=1,FB=3"), view ("timeline" | "compare" | "chunk"), V (virtual stages), lang
   ("en" | "pt-BR" | "zh-CN"; absent: the page's <html lang>, else English), caption. */
(function () {
  'use strict';
  var script = document.currentScript;
  var base = script && script.src ? script.src.replace(/[^\/]*$/, '') : './';
  var KEYS = { P: 1, M: 1, V: 1, schedules: 1, schedule: 1, cost: 1, view: 1, lang: 1, caption: 1 };

  /* The card's own words in the course's three languages (the element translates itself). */
  var TEXT = {
    en: {
      hint: 'hover a cell \u00b7 click an idle gap \u00b7 drag to pan',
      caption: 'Each row is a GPU, time runs right. Orange: forward; green: backward; blue: weight gradient; a bordered pair: DualPipe\u2019s overlapped forward and backward. Numbers come from the pipesim engine.'
    },
    'pt-BR': {
      hint: 'passe o mouse sobre uma c\u00e9lula \u00b7 clique num intervalo ocioso \u00b7 arraste para mover',
      caption: 'Cada linha \u00e9 uma GPU; o tempo corre para a direita. Laranja: forward; verde: backward; azul: gradiente dos pesos; um par com borda: o forward e o backward sobrepostos do DualPipe. Os n\u00fameros v\u00eam do motor do pipesim.'
    },
    'zh-CN': {
      hint: '\u60ac\u505c\u683c\u5b50\u67e5\u770b\u64cd\u4f5c \u00b7 \u70b9\u51fb\u7a7a\u95f2\u95f4\u9699 \u00b7 \u62d6\u52a8\u5e73\u79fb',
      caption: '\u6bcf\u4e00\u884c\u662f\u4e00\u5f20 GPU\uff0c\u65f6\u95f4\u4ece\u5de6\u5411\u53f3\u63a8\u8fdb\u3002\u6a59\u8272\uff1a\u524d\u5411\uff1b\u7eff\u8272\uff1a\u53cd\u5411\uff1b\u84dd\u8272\uff1a\u6743\u91cd\u68af\u5ea6\uff1b\u5e26\u8fb9\u6846\u7684\u4e00\u5bf9\uff1aDualPipe \u4e2d\u76f8\u4e92\u91cd\u53e0\u7684\u524d\u5411\u4e0e\u53cd\u5411\u3002\u6570\u503c\u6765\u81ea pipesim \u5f15\u64ce\u3002'
    }
  };

  /* "pt", "pt-BR", "zh", "zh-Hans-CN", "en-GB"... to a key of TEXT, or null. */
  function langOf(value) {
    if (typeof value !== 'string' || !value) return null;
    var v = value.toLowerCase();
    if (v.indexOf('pt') === 0) return 'pt-BR';
    if (v.indexOf('zh') === 0) return 'zh-CN';
    if (v.indexOf('en') === 0) return 'en';
    return null;
  }

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
    var pageLang = langOf(document.documentElement.getAttribute('lang'));
    var lang = langOf(cfg.lang) || pageLang || 'en';
    var text = TEXT[lang];
    var root = el('div', 'lf');
    root.setAttribute('lang', lang);
    var head = el('div', 'lf-head');
    head.appendChild(el('span', 'lf-label', 'PIPESIM'));
    head.appendChild(el('span', 'lf-hint', text.hint));
    root.appendChild(head);
    var body = el('div', 'lf-body');
    root.appendChild(body);
    var cap = el('div', 'lf-cap', cfg.caption || text.caption);
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
      // The element speaks the card's language: the figure's own, else the page's when it is one the
      // element speaks other than English (English is the element's default anyway).
      var elementLang = langOf(cfg.lang) ? cfg.lang : pageLang && pageLang !== 'en' ? pageLang : cfg.lang;
      if (elementLang) element.setAttribute('lang', elementLang);
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
