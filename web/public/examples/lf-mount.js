/* The course's mount step: first token = widget name, the rest = JSON config (invalid JSON gives {}),
   exceptions are only logged, a mounted host is flagged so it is not mounted twice. */
(function () {
  var hosts = document.querySelectorAll('.lesson-figure[data-figure]');
  for (var i = 0; i < hosts.length; i++) {
    var host = hosts[i];
    if (host.getAttribute('data-mounted')) continue;
    var spec = host.getAttribute('data-figure');
    var space = spec.indexOf(' ');
    var name = space < 0 ? spec : spec.slice(0, space);
    var cfg = {};
    try { cfg = space < 0 ? {} : JSON.parse(spec.slice(space + 1)); } catch (e) { cfg = {}; }
    var fn = window.LF.widgets[name];
    if (!fn) continue;
    try { fn(host, cfg); } catch (e) { console.warn('figure ' + name + ' failed', e); }
    host.setAttribute('data-mounted', '1');
  }
})();
