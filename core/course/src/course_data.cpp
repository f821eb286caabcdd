#include "pipesim/course_data.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>

#include "detail/course_files.h"
#include "detail/i18n.h"
#include "detail/json_text.h"
#include "detail/json_trees.h"
#include "pipesim/error.h"
#include "pipesim/lesson.h"
#include "pipesim/parse.h"
#include "pipesim/quiz.h"

namespace pipesim {

namespace {

constexpr const char* file_names = "quiz_bank, lesson_text or planner_text";
constexpr std::string_view lesson_file = "lesson text: core/data/lesson_text.json";
constexpr std::string_view planner_file = "planner text: core/data/planner_text.json";

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

[[noreturn]] void refuse_text(std::string_view what, std::string_view why) {
  throw Error(ErrorCode::internal, std::string(what) + " is not the course's file: " + std::string(why));
}

// A text every reader can pick any course language from: an object with one of them as a key holds
// them all, each a text (detail::is_text, what detail::pick asks), with the same {placeholders} in
// each (a language missing one, or naming another, would print a hole or fail in fill()); other
// objects and arrays hold texts, and other values are data (a statement's source). `where` is the
// path to `node`, extended in place.
void check_texts(const nlohmann::json& node, std::string_view what, std::string& where) {
  const std::size_t length = where.size();
  if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      ((where += '[') += std::to_string(i)) += ']';
      check_texts(node[i], what, where);
      where.resize(length);
    }
  } else if (node.is_object()) {
    const auto& members = node.get_ref<const nlohmann::json::object_t&>();
    if (std::none_of(members.begin(), members.end(), [](const auto& member) { return is_language(member.first); })) {
      for (const auto& [key, value] : members) {
        ((where += '.') += key);
        check_texts(value, what, where);
        where.resize(length);
      }
      return;
    }
    const auto names = [](const std::set<std::string>& placeholders) {
      std::string out;
      for (const std::string& name : placeholders) out += (out.empty() ? "{" : ", {") + name + "}";
      return out.empty() ? std::string("none") : out;
    };
    std::set<std::string> first_names;
    for (const std::string_view lang : detail::course_languages) {
      const auto it = members.find(std::string(lang));
      if (it == members.end() || !detail::is_text(it->second))
        refuse_text(what, where + " has no " + std::string(lang) + " text: every text is in every course language (" +
                              language_list() + "), each a non-empty string");
      std::set<std::string> lang_names = detail::placeholders(it->second.get_ref<const std::string&>());
      if (lang == detail::course_languages.front()) {
        first_names = std::move(lang_names);
      } else if (lang_names != first_names) {
        refuse_text(what, where + ": its " + std::string(lang) + " text names " + names(lang_names) + ", its " +
                              std::string(detail::course_languages.front()) + " text " + names(first_names));
      }
    }
  }
}

// A course text file (lesson_text.json, planner_text.json): version 1, and each of `sections` an object
// of texts in every course language. Checked when it is given, so that a file its readers cannot use is
// refused with the reason instead of failing every later call.
void check_text_file(const nlohmann::json& file, std::string_view what, std::initializer_list<const char*> sections) {
  if (!file.is_object()) refuse_text(what, "the top level must be an object");
  if (file.value("version", nlohmann::json()) != 1) refuse_text(what, "its \"version\" must be 1");
  for (const char* section : sections) {
    std::string where = section;
    if (!file.contains(where) || !file[where].is_object()) refuse_text(what, "no \"" + where + "\" section");
    check_texts(file[where], what, where);
  }
}

// Every exercise, as the page's lesson view asks for them: a file of the right shape can still lack a
// text one of them reads. In one language and at the request's defaults (the default costs): the shape
// check has seen every text in all of them with the same placeholders, and an exercise reads the same
// keys in each, whatever its costs.
void try_lessons(const CourseData& course, std::string_view what) {
  LessonRequest request;
  for (request.exercise = 1; request.exercise <= lesson_exercises; ++request.exercise) {
    // Only what the data can cause is the file's fault (a key missing, a value of the wrong type, a
    // placeholder without a value: nlohmann's errors and the course's own "course data:" ones); any
    // other failure is pipesim's and propagates as it is.
    try {
      (void)lesson_exercise(course, request);
    } catch (const nlohmann::json::exception& e) {
      refuse_text(what, "exercise " + std::to_string(request.exercise) + ": " + e.what());
    } catch (const Error& e) {
      if (std::string_view(e.what()).rfind("course data:", 0) != 0) throw;
      refuse_text(what, "exercise " + std::to_string(request.exercise) + ": " + e.what());
    }
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
    auto lesson_text = parse_file(text, lesson_file);
    check_text_file(lesson_text, lesson_file, {"common", "exercise_1", "exercise_2", "exercise_3", "exercise_4"});
    next.lesson_text = std::move(lesson_text);
  } else if (name == "planner_text") {
    auto planner_text = parse_file(text, planner_file);
    check_text_file(planner_text, planner_file, {"reasons", "counts", "text", "json"});
    next.planner_text = std::move(planner_text);
  } else {
    throw Error(ErrorCode::unknown_name, "unknown course data '" + quoted_input(name) + "': expected " + file_names, {}, "name");
  }
  CourseData trial;
  trial.files_ = std::make_shared<const Files>(std::move(next));
  if (name == "lesson_text") try_lessons(trial, lesson_file);
  files_ = std::move(trial.files_);
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
