#pragma once
// The course's data: core/data/quiz_bank.json, lesson_text.json and planner_text.json, parsed once and
// held by the caller, who passes it to the quiz, lesson and planner functions. There is no
// process-wide copy: the CLI and the tests take the copy compiled into the library
// (embedded_course_data); the WebAssembly course module starts with an empty value and is given each
// file by the page the first time a call needs it (provideCourseData, wasm/bindings_course.cpp).
#include <memory>
#include <string_view>

namespace pipesim {

class CourseData {
 public:
  /// No file yet: a call that needs one refuses with ErrorCode::usage, naming it.
  CourseData();

  /// Parses the text of core/data/NAME.json, NAME being "quiz_bank", "lesson_text" or "planner_text",
  /// and checks it before keeping it: the quiz bank with validate_quiz_bank; a lesson or planner text
  /// for version 1, its sections, every text in every course language, and (the lesson text) each
  /// exercise written once. Throws Error (unknown_name for another NAME, internal for a text that is
  /// not the course's data, limit_exceeded over the document bounds) and then keeps what it held.
  void provide(std::string_view name, std::string_view text);

  /// True once core/data/NAME.json was given.
  [[nodiscard]] auto has(std::string_view name) const -> bool;

  /// The parsed files, for the course library's sources (course/src/detail/course_files.h).
  struct Files;
  [[nodiscard]] auto files() const -> const Files&;

 private:
  // Shared: a copy is cheap, and a file given later is not seen by copies made before.
  std::shared_ptr<const Files> files_;
};

/// The native build's course data: core/data/*.json as compiled into the library (core/cmake/
/// embed_data.cmake), parsed and checked. A file that fails is a mistake in core/data/ (ErrorCode::internal).
/// Not in the WebAssembly build, whose module does not carry the files.
[[nodiscard]] auto embedded_course_data() -> CourseData;

}  // namespace pipesim
