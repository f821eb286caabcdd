/* pipesim figure widget for the course site: registers "pipesim" with window.LF.register, following the
   course's figure convention. Plain ES5 and no dependencies: on first use it adds the <pipesim-timeline>
   module that sits next to this file (one ES module plus its .wasm), then mounts one element per figure.

   Lesson markdown (the config is one quote-free line of key=value pairs after the name):
     ```figure
     pipesim P=8 M=20 schedules=dualpipe,1f1b view=compare
     ```
   Why no quotes: the course writes the block into data-figure="..." through an HTML escape that leaves
   `"` alone, so a JSON config arrives cut at its first quote. JSON is still read where it arrives whole
   (a page that escapes quotes), and a config cut that way is reported in the card, never replaced by
   the defaults. The course's loader hands the widget {} whenever its own JSON.parse fails, so the widget
   reads its host's data-figure itself.

   Keys: P (ranks), M (micro-batches), V (virtual stages), schedules (comma-separated: the first is drawn,
   the others compared) or schedule, cost (F=1,B=2,W=1,FB=3), view (timeline | compare | chunk | quiz),
   lang (en | pt-BR | zh-CN; absent: the page's <html lang>, else English), caption (last: the rest of
   the line is the caption, spaces included). */
(function () {
  'use strict';
  var script = document.currentScript;
  var base = script && script.src ? script.src.replace(/[^\/]*$/, '') : './';
  var KEYS = { P: 1, M: 1, V: 1, schedules: 1, schedule: 1, cost: 1, view: 1, lang: 1, caption: 1 };
  var KEY_LIST = 'P, M, V, schedules, schedule, cost, view, lang, caption';
  var VIEWS = { timeline: 1, compare: 1, chunk: 1, quiz: 1 };
  var EXAMPLE = 'pipesim P=8 M=20 schedules=dualpipe,1f1b view=compare';

  /* The card's own words in the course's three languages, a caption per view (the element translates
     itself). */
  var TEXT = {
    en: {
      hint: 'hover a cell \u00b7 click an idle gap \u00b7 drag to pan',
      chunkHint: 'play the chunk \u00b7 move the knobs',
      quizHint: 'pick an answer',
      captions: {
        timeline: 'Each row is a GPU, time runs right. Orange: forward; green: backward; blue: weight gradient; a bordered pair: DualPipe\u2019s overlapped forward and backward. Numbers come from the pipesim engine.',
        compare: 'The schedules on one time axis, at the same ranks, micro-batches and costs: the shorter row set finishes the step sooner, and the white gaps are the bubbles each one leaves. Numbers come from the pipesim engine.',
        chunk: 'Inside one chunk: compute and communication run on separate SMs, so an overlapped forward and backward pair hides its all-to-all behind the other\u2019s computation. \u201cUse these costs\u201d draws the pipeline with the chunk\u2019s times.',
        quiz: 'Questions on the lesson, answered by the same engine that draws the schedules.'
      }
    },
    'pt-BR': {
      hint: 'passe o mouse sobre uma c\u00e9lula \u00b7 clique num intervalo ocioso \u00b7 arraste para mover',
      chunkHint: 'reproduza o chunk \u00b7 mova os controles',
      quizHint: 'escolha uma resposta',
      captions: {
        timeline: 'Cada linha \u00e9 uma GPU; o tempo corre para a direita. Laranja: forward; verde: backward; azul: gradiente dos pesos; um par com borda: o forward e o backward sobrepostos do DualPipe. Os n\u00fameros v\u00eam do motor do pipesim.',
        compare: 'Os escalonamentos num s\u00f3 eixo de tempo, com os mesmos ranks, micro-batches e custos: o que termina antes fecha o passo mais cedo, e os intervalos brancos s\u00e3o as bolhas de cada um. Os n\u00fameros v\u00eam do motor do pipesim.',
        chunk: 'Dentro de um chunk: computa\u00e7\u00e3o e comunica\u00e7\u00e3o rodam em SMs separados, ent\u00e3o um par forward e backward sobreposto esconde o all-to-all de um atr\u00e1s da computa\u00e7\u00e3o do outro. \u201cUsar estes custos\u201d desenha o pipeline com os tempos do chunk.',
        quiz: 'Perguntas sobre a li\u00e7\u00e3o, respondidas pelo mesmo motor que desenha os escalonamentos.'
      }
    },
    'zh-CN': {
      hint: '\u60ac\u505c\u683c\u5b50\u67e5\u770b\u64cd\u4f5c \u00b7 \u70b9\u51fb\u7a7a\u95f2\u95f4\u9699 \u00b7 \u62d6\u52a8\u5e73\u79fb',
      chunkHint: '\u64ad\u653e\u5757\u5185\u8fc7\u7a0b \u00b7 \u8c03\u6574\u53c2\u6570',
      quizHint: '\u9009\u62e9\u4e00\u4e2a\u7b54\u6848',
      captions: {
        timeline: '\u6bcf\u4e00\u884c\u662f\u4e00\u5f20 GPU\uff0c\u65f6\u95f4\u4ece\u5de6\u5411\u53f3\u63a8\u8fdb\u3002\u6a59\u8272\uff1a\u524d\u5411\uff1b\u7eff\u8272\uff1a\u53cd\u5411\uff1b\u84dd\u8272\uff1a\u6743\u91cd\u68af\u5ea6\uff1b\u5e26\u8fb9\u6846\u7684\u4e00\u5bf9\uff1aDualPipe \u4e2d\u76f8\u4e92\u91cd\u53e0\u7684\u524d\u5411\u4e0e\u53cd\u5411\u3002\u6570\u503c\u6765\u81ea pipesim \u5f15\u64ce\u3002',
        compare: '\u591a\u4e2a\u8c03\u5ea6\u753b\u5728\u540c\u4e00\u6761\u65f6\u95f4\u8f74\u4e0a\uff0c\u53c2\u6570\u4e0e\u4ee3\u4ef7\u76f8\u540c\uff1a\u5148\u7ed3\u675f\u7684\u8c03\u5ea6\u5148\u5b8c\u6210\u4e00\u6b65\uff0c\u767d\u8272\u7a7a\u9699\u5c31\u662f\u5404\u81ea\u7684\u6c14\u6ce1\u3002\u6570\u503c\u6765\u81ea pipesim \u5f15\u64ce\u3002',
        chunk: '\u4e00\u4e2a\u5757\u7684\u5185\u90e8\uff1a\u8ba1\u7b97\u4e0e\u901a\u4fe1\u5728\u4e0d\u540c\u7684 SM \u4e0a\u8fd0\u884c\uff0c\u56e0\u6b64\u91cd\u53e0\u7684\u524d\u5411\u4e0e\u53cd\u5411\u628a\u5404\u81ea\u7684 all-to-all \u85cf\u5728\u5bf9\u65b9\u7684\u8ba1\u7b97\u4e4b\u540e\u3002\u201c\u4f7f\u7528\u8fd9\u4e9b\u4ee3\u4ef7\u201d\u7528\u5757\u5185\u65f6\u95f4\u753b\u51fa\u6d41\u6c34\u7ebf\u3002',
        quiz: '\u5173\u4e8e\u672c\u8bfe\u7684\u95ee\u9898\uff0c\u7531\u7ed8\u5236\u8c03\u5ea6\u7684\u540c\u4e00\u4e2a\u5f15\u64ce\u4f5c\u7b54\u3002'
      }
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

  /* The config as an object, or {error}. `text` is what follows the widget's name in data-figure. */
  function parseConfig(text) {
    if (text === '') return {};
    if (text.charAt(0) === '{') {
      try {
        return JSON.parse(text);
      } catch (e) {
        // The course's escape leaves `"` alone, so the attribute ends at the config's first quote.
        if (text.indexOf('"') < 0) return { error: 'the JSON config arrived cut at its first double quote (this page does not escape " inside data-figure); write it without quotes, e.g. ' + EXAMPLE };
        return { error: 'the config is not valid JSON (' + e.message + '); or write it as key=value, e.g. ' + EXAMPLE };
      }
    }
    return parsePairs(text);
  }

  /* "P=8 M=20 schedules=dualpipe,1f1b caption=The rest of the line" to {P: 8, M: 20, ...}. */
  function parsePairs(text) {
    var cfg = {};
    var rest = text;
    while (rest !== '') {
      var token = rest.split(/\s+/)[0];
      var eq = token.indexOf('=');
      if (eq <= 0) return { error: 'config item "' + token + '" is not key=value, e.g. ' + EXAMPLE };
      var key = token.slice(0, eq);
      if (!KEYS[key]) return { error: 'unknown config key "' + key + '"; keys are ' + KEY_LIST };
      if (cfg.hasOwnProperty(key)) return { error: 'config key "' + key + '" is given twice' };
      if (key === 'caption') {
        cfg.caption = rest.slice(eq + 1);
        break;
      }
      var value = token.slice(eq + 1);
      if (value === '') return { error: 'config key "' + key + '" has no value' };
      if (key === 'P' || key === 'M' || key === 'V') cfg[key] = /^[0-9]+$/.test(value) ? Number(value) : value;
      else if (key === 'schedules') cfg[key] = value.split(',');
      else cfg[key] = value;
      rest = rest.slice(token.length).replace(/^\s+/, '');
    }
    return cfg;
  }

  /* The course swallows exceptions, so a bad config is shown in the card, never thrown. */
  function check(cfg) {
    if (cfg === null || typeof cfg !== 'object' || cfg instanceof Array) return 'config must be key=value pairs, e.g. ' + EXAMPLE;
    if (typeof cfg.error === 'string') return cfg.error;
    for (var key in cfg) if (cfg.hasOwnProperty(key) && !KEYS[key]) return 'unknown config key "' + key + '"; keys are ' + KEY_LIST;
    if (cfg.P !== undefined && !isWhole(cfg.P, 1, 256)) return 'P (ranks) must be a whole number from 1 to 256';
    if (cfg.M !== undefined && !isWhole(cfg.M, 1, 4096)) return 'M (micro-batches) must be a whole number from 1 to 4096';
    if (cfg.V !== undefined && !isWhole(cfg.V, 1, 16)) return 'V (virtual stages) must be a whole number from 1 to 16';
    if (cfg.schedules !== undefined) {
      if (!(cfg.schedules instanceof Array) || cfg.schedules.length === 0) return 'schedules must be a comma-separated list like dualpipe,1f1b';
      for (var i = 0; i < cfg.schedules.length; i++) if (typeof cfg.schedules[i] !== 'string' || cfg.schedules[i] === '') return 'schedules must be names like dualpipe,1f1b';
    }
    if (cfg.schedule !== undefined && typeof cfg.schedule !== 'string') return 'schedule must be a name like dualpipe';
    if (cfg.cost !== undefined && typeof cfg.cost !== 'string') return 'cost must look like F=1,B=2,W=1,FB=3';
    if (cfg.view !== undefined && !VIEWS[cfg.view]) return 'view must be timeline, compare, chunk or quiz';
    if (cfg.lang !== undefined && !langOf(cfg.lang)) return 'lang must be en, pt-BR or zh-CN';
    if (cfg.caption !== undefined && typeof cfg.caption !== 'string') return 'caption must be text';
    return null;
  }

  /* The host's own data-figure when it has one (the loader's cfg is {} whenever its JSON.parse failed),
     else the config a caller passed. */
  function configOf(host, given) {
    var spec = host.getAttribute && host.getAttribute('data-figure');
    if (spec === null || spec === undefined) return given || {};
    var text = spec.replace(/^\s+|\s+$/g, '');
    var name = text.split(/\s+/)[0];
    return parseConfig(text.slice(name.length).replace(/^\s+/, ''));
  }

  function hintFor(text, view) {
    return view === 'chunk' ? text.chunkHint : view === 'quiz' ? text.quizHint : text.hint;
  }

  function mount(host, given) {
    var cfg = configOf(host, given);
    var problem = check(cfg);
    if (problem) cfg = {};
    /* None named: the element draws the engine's default (the first preset, as the page starts). */
    var schedules = cfg.schedules || (cfg.schedule ? [cfg.schedule] : []);
    var state = {
      P: cfg.P || 8,
      M: cfg.M || 20,
      schedules: schedules,
      cost: cfg.cost || 'F=1,B=2,W=1,FB=3',
      view: cfg.view || (schedules.length > 1 ? 'compare' : 'timeline')
    };
    var pageLang = langOf(document.documentElement.getAttribute('lang'));
    var lang = langOf(cfg.lang) || pageLang || 'en';
    var text = TEXT[lang];
    var root = el('div', 'lf');
    root.setAttribute('lang', lang);
    var head = el('div', 'lf-head');
    head.appendChild(el('span', 'lf-label', 'PIPESIM'));
    var hint = el('span', 'lf-hint', hintFor(text, state.view));
    head.appendChild(hint);
    root.appendChild(head);
    var body = el('div', 'lf-body');
    root.appendChild(body);
    var cap = el('div', 'lf-cap', cfg.caption || text.captions[state.view]);
    root.appendChild(cap);
    host.appendChild(root);

    if (problem) {
      var err = el('div', 'lf-error', 'pipesim: ' + problem);
      err.setAttribute('role', 'alert');
      body.appendChild(err);
      return;
    }
    var element = document.createElement('pipesim-timeline');
    state._render = function () {
      if (state.schedules.length > 0) element.setAttribute('schedule', state.schedules[0]);
      element.setAttribute('ranks', String(state.P));
      element.setAttribute('micro-batches', String(state.M));
      element.setAttribute('cost', state.cost);
      element.setAttribute('view', state.view);
      if (state.schedules.length > 1) element.setAttribute('compare', state.schedules.slice(1).join(','));
      if (cfg.V) element.setAttribute('virtual-stages', String(cfg.V));
      // The element speaks the card's language.
      element.setAttribute('lang', lang);
      hint.textContent = hintFor(text, state.view);
      if (!cfg.caption) cap.textContent = text.captions[state.view];
    };
    // The element reports what it shows: "Use these costs" moves the chunk view to the timeline, and
    // the card's hint and caption follow.
    element.addEventListener('pipesim-change', function (e) {
      var detail = e.detail || {};
      if (detail.view && detail.view !== state.view && VIEWS[detail.view]) {
        state.view = detail.view;
        hint.textContent = hintFor(text, state.view);
        if (!cfg.caption) cap.textContent = text.captions[state.view];
      }
    });
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
