#pragma once
// What a CourseData holds (pipesim/course_data.h), for the quiz, lesson and planner sources: each file
// parsed, or absent until given.
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "pipesim/course_data.h"

namespace pipesim {

struct CourseData::Files {
  // The bank keeps the file's key order, so exports read like the course's own quiz.json.
  std::optional<nlohmann::ordered_json> quiz_bank;
  std::optional<nlohmann::json> lesson_text;
  std::optional<nlohmann::json> planner_text;
};

namespace detail {

/// core/data/quiz_bank.json, lesson_text.json, planner_text.json of `course`; Error (usage) naming the
/// file when it was not given.
[[nodiscard]] auto quiz_bank_of(const CourseData& course) -> const nlohmann::ordered_json&;
[[nodiscard]] auto lesson_text_of(const CourseData& course) -> const nlohmann::json&;
[[nodiscard]] auto planner_text_of(const CourseData& course) -> const nlohmann::json&;

}  // namespace detail

}  // namespace pipesim
