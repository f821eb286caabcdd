/* A stand-in for the course's window.LF (site/lesson-figures.js): a registry of widgets. */
(function () {
  var widgets = {};
  window.LF = {
    register: function (entries) {
      for (var name in entries) if (entries.hasOwnProperty(name)) widgets[name] = entries[name];
    },
    widgets: widgets
  };
})();
