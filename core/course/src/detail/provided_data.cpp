// The course data of the WebAssembly build. The page's first drawing needs none of core/data/*.json
// (about 33 kB gzipped), so the module does not carry it: the page loads a file the first time a
// quiz, lesson or planner call needs it and hands it over here (wasm/bindings_course.cpp, provideCourseData).
// The native build compiles the same files in instead (core/cmake/embed_data.cmake).
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "detail/embedded.h"

namespace pipesim::detail {

namespace {

struct CourseFile {
  std::string_view name;  ///< what the caller passes to provide_course_data()
  std::optional<std::string> text;
};

auto course_files() -> std::array<CourseFile, 3>& {
  static std::array<CourseFile, 3> files{{{"quiz_bank", {}}, {"lesson_text", {}}, {"planner_text", {}}}};
  return files;
}

auto course_file(std::string_view name) -> CourseFile& {
  for (CourseFile& f : course_files())
    if (f.name == name) return f;
  throw Error(ErrorCode::unknown_name, "unknown course data '" + std::string(name) + "': expected quiz_bank, lesson_text or planner_text");
}

auto provided(std::string_view name) -> std::string_view {
  const CourseFile& f = course_file(name);
  if (!f.text)
    throw Error(ErrorCode::usage, "the course data " + std::string(name) + " (core/data/" + std::string(name) +
                                      ".json) was not provided: call provideCourseData first");
  return *f.text;
}

}  // namespace

void provide_course_data(std::string_view name, std::string text) { course_file(name).text = std::move(text); }

auto embedded_quiz_bank() -> std::string_view { return provided("quiz_bank"); }
auto embedded_lesson_text() -> std::string_view { return provided("lesson_text"); }
auto embedded_planner_text() -> std::string_view { return provided("planner_text"); }

}  // namespace pipesim::detail
