/* The course site's path from a lesson's markdown to a mounted figure, rebuilt step by step as its
   site/lesson.html and site/lesson-figures.js take it (tests/browser/course.test.mjs runs it):
   1. a ```figure fence's text, trimmed, goes through the page's HTML escape (a div's textContent read
      back as innerHTML: &, < and > are escaped, the double quote is not),
   2. into '<div class="lesson-figure" data-figure="' + escaped + '"></div>', parsed as HTML,
   3. the loader splits data-figure on white space: the first word names the widget, the rest is
      JSON.parse'd ({} when that fails), and the registered function is called with (host, config);
      an exception is only logged and leaves the host unmounted.
   window.LF.register is how figure files add widgets; the theme is data-theme on <html>, from
   prefers-color-scheme at load, flipped by the toggle. */
(function () {
  'use strict';
  var figures = {};

  function escapeHtml(text) {
    var div = document.createElement('div');
    div.textContent = text;
    return div.innerHTML;
  }

  /* Paragraphs and fenced blocks: all this example needs of the course's markdown renderer. */
  function renderMarkdown(markdown) {
    var lines = markdown.split('\n');
    var out = '';
    var paragraph = [];
    var fence = null;
    var code = [];
    function flush() {
      if (paragraph.length) out += '<p>' + escapeHtml(paragraph.join(' ')) + '</p>';
      paragraph = [];
    }
    for (var i = 0; i < lines.length; i++) {
      var line = lines[i];
      if (fence !== null) {
        if (/^```\s*$/.test(line)) {
          var raw = code.join('\n');
          if (fence === 'figure') out += '<div class="lesson-figure" data-figure="' + escapeHtml(raw.trim()) + '"></div>';
          else out += '<pre><code>' + escapeHtml(raw) + '</code></pre>';
          fence = null;
          code = [];
        } else code.push(line);
        continue;
      }
      var open = /^```(\w*)/.exec(line);
      if (open) {
        flush();
        fence = open[1];
      } else if (line.trim() === '') flush();
      else paragraph.push(line.trim());
    }
    flush();
    return out;
  }

  function mountLessonFigures(root) {
    var hosts = (root || document).querySelectorAll('.lesson-figure[data-figure]');
    for (var i = 0; i < hosts.length; i++) {
      var host = hosts[i];
      if (host.dataset.lfMounted) continue;
      var spec = (host.dataset.figure || '').trim();
      var name = spec.split(/\s+/)[0];
      var rest = spec.slice(name.length).trim();
      var cfg = {};
      if (rest) {
        try { cfg = JSON.parse(rest); } catch (e) { /* the course carries on with {} */ }
      }
      var widget = figures[name];
      if (!widget) continue;
      try {
        widget(host, cfg);
        host.dataset.lfMounted = '1';
      } catch (e) {
        console.warn('lesson figure "' + name + '" failed:', e);
      }
    }
  }

  window.LF = {
    register: function (entries) {
      for (var k in entries) if (Object.prototype.hasOwnProperty.call(entries, k)) figures[k] = entries[k];
    }
  };
  window.LESSON_FIGURES = figures;
  window.courseSite = { escapeHtml: escapeHtml, renderMarkdown: renderMarkdown, mountLessonFigures: mountLessonFigures };

  var root = document.documentElement;
  root.setAttribute('data-theme', window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
  document.addEventListener('DOMContentLoaded', function () {
    var toggle = document.getElementById('theme-toggle');
    if (toggle) toggle.addEventListener('click', function () {
      root.setAttribute('data-theme', root.getAttribute('data-theme') === 'light' ? 'dark' : 'light');
    });
  });
})();
