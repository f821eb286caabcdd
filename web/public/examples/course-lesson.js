/* The lesson loads after the figure files have registered: render its markdown, then mount. */
(function () {
  var lesson = document.getElementById('lesson');
  lesson.innerHTML = window.courseSite.renderMarkdown(document.getElementById('lesson-md').textContent);
  window.courseSite.mountLessonFigures(lesson);
})();
