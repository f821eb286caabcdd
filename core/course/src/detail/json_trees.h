#pragma once
// The course's JSON documents as nlohmann trees, for the sources that build one into another (the
// measured pair into the chunk model's, the model and memory into the run's) and for the public
// functions that wrap them in a JsonDocument (pipesim/overlap.h, measured_chunk.h, model_stages.h,
// lesson.h, quiz.h).
#include <nlohmann/json.hpp>

#include "pipesim/course_data.h"
#include "pipesim/lesson.h"
#include "pipesim/measured_chunk.h"
#include "pipesim/model_stages.h"
#include "pipesim/overlap.h"

namespace pipesim::detail {

[[nodiscard]] auto overlap_tree(const Overlap& o) -> nlohmann::json;
[[nodiscard]] auto measured_chunk_tree(const MeasuredChunk& m, const Overlap& model) -> nlohmann::json;
[[nodiscard]] auto model_division_tree(const ModelDivision& division) -> nlohmann::json;
[[nodiscard]] auto memory_tree(const MemoryBytes& memory, bool with_curves) -> nlohmann::json;
[[nodiscard]] auto lesson_exercise_tree(const CourseData& course, const LessonRequest& request) -> nlohmann::json;

/// validate_quiz_bank (pipesim/quiz.h) on the bank already parsed, as CourseData::provide checks it.
void validate_quiz_bank_tree(const nlohmann::json& bank);

}  // namespace pipesim::detail
