#pragma once
// The course data of core/data/, compiled into the native library by core/cmake/embed_data.cmake
// (embedded_course_data.cpp parses it). The WebAssembly build leaves it out: the page provides it.
#include <string_view>

namespace pipesim::detail {

/// core/data/quiz_bank.json, byte for byte.
[[nodiscard]] auto embedded_quiz_bank() -> std::string_view;

/// core/data/lesson_text.json, byte for byte.
[[nodiscard]] auto embedded_lesson_text() -> std::string_view;

/// core/data/planner_text.json, byte for byte.
[[nodiscard]] auto embedded_planner_text() -> std::string_view;

}  // namespace pipesim::detail
