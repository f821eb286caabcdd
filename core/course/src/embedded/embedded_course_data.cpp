// The native build's course data (pipesim/course_data.h). A folder of its own: the WebAssembly build,
// which does not carry core/data/*.json, leaves this folder out (core/CMakeLists.txt).
#include "detail/embedded.h"
#include "pipesim/course_data.h"

namespace pipesim {

auto embedded_course_data() -> CourseData {
  CourseData course;
  course.provide("quiz_bank", detail::embedded_quiz_bank());
  course.provide("lesson_text", detail::embedded_lesson_text());
  course.provide("planner_text", detail::embedded_planner_text());
  return course;
}

}  // namespace pipesim
