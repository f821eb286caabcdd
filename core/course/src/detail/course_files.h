#pragma once
// What a CourseData holds (pipesim/course_data.h), for the quiz, lesson and planner sources: each file
// parsed, or absent until given.
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "pipesim/course_data.h"

namespace pipesim {

struct CourseData::Files {
  // Read by key, like the other files (one nlohmann flavour for reading: issue 14, the course module's
  // size); its text is kept for quiz_bank(), which gives the bank in the file's own key order.
  std::optional<nlohmann::json> quiz_bank;
  std::string quiz_bank_text;
  std::optional<nlohmann::json> lesson_text;
  std::optional<nlohmann::json> planner_text;
};

namespace detail {

/// core/data/quiz_bank.json, lesson_text.json, planner_text.json of `course`; Error (usage) naming the
/// file when it was not given.
[[nodiscard]] auto quiz_bank_of(const CourseData& course) -> const nlohmann::json&;
[[nodiscard]] auto lesson_text_of(const CourseData& course) -> const nlohmann::json&;
[[nodiscard]] auto planner_text_of(const CourseData& course) -> const nlohmann::json&;

}  // namespace detail

}  // namespace pipesim
