#include "pipesim/course_data.h"

#include <string>
#include <utility>

#include "detail/course_files.h"
#include "detail/json_text.h"
#include "detail/json_trees.h"
#include "pipesim/error.h"
#include "pipesim/parse.h"
#include "pipesim/quiz.h"

namespace pipesim {

namespace {

constexpr const char* file_names = "quiz_bank, lesson_text or planner_text";

/// A course file parsed, named in the message when it is not JSON. Read like every document pipesim
/// reads (parse_json_within: its depth and value-count bounds), so that the course module compiles one
/// parser, the one the planner's input is read with, instead of a second (issue 14: size).
auto parse_file(std::string_view text, std::string_view what) -> nlohmann::json {
  try {
    return detail::parse_json_within(text, what);
  } catch (const nlohmann::json::exception&) {
    throw Error(ErrorCode::internal, std::string(what) + " is not valid JSON");
  }
}

template <typename Json>
auto given(const std::optional<Json>& file, std::string_view name) -> const Json& {
  if (!file)
    throw Error(ErrorCode::usage, "the course data " + std::string(name) + " (core/data/" + std::string(name) +
                                      ".json) was not provided: call provideCourseData first");
  return *file;
}

}  // namespace

CourseData::CourseData() : files_(std::make_shared<const Files>()) {}

void CourseData::provide(std::string_view name, std::string_view text) {
  Files next = *files_;
  if (name == "quiz_bank") {
    auto bank = parse_file(text, "quiz bank: core/data/quiz_bank.json");
    // Checked here, so that a broken bank fails loudly when given instead of rendering a half-empty quiz.
    detail::validate_quiz_bank_tree(bank);
    next.quiz_bank = std::move(bank);
    next.quiz_bank_text = std::string(text);
  } else if (name == "lesson_text") {
    next.lesson_text = parse_file(text, "lesson text: core/data/lesson_text.json");
  } else if (name == "planner_text") {
    next.planner_text = parse_file(text, "planner text: core/data/planner_text.json");
  } else {
    throw Error(ErrorCode::unknown_name, "unknown course data '" + quoted_input(name) + "': expected " + file_names, {}, "name");
  }
  files_ = std::make_shared<const Files>(std::move(next));
}

auto CourseData::has(std::string_view name) const -> bool {
  if (name == "quiz_bank") return files_->quiz_bank.has_value();
  if (name == "lesson_text") return files_->lesson_text.has_value();
  if (name == "planner_text") return files_->planner_text.has_value();
  return false;
}

auto CourseData::files() const -> const Files& { return *files_; }

namespace detail {

auto quiz_bank_of(const CourseData& course) -> const nlohmann::json& {
  return given(course.files().quiz_bank, "quiz_bank");
}
auto lesson_text_of(const CourseData& course) -> const nlohmann::json& {
  return given(course.files().lesson_text, "lesson_text");
}
auto planner_text_of(const CourseData& course) -> const nlohmann::json& {
  return given(course.files().planner_text, "planner_text");
}

}  // namespace detail

}  // namespace pipesim
