#pragma once
// The course data of core/data/: compiled in by core/cmake/embed_data.cmake at build time, except in
// the WebAssembly build, where the page provides it when first needed (detail/provided_data.cpp).
#include <string>
#include <string_view>

#include "pipesim/error.h"

namespace pipesim::detail {

/// Parses one of the compiled-in files as `Json` (nlohmann::json or ordered_json). A broken file is a
/// mistake in core/data/; it fails loudly at first use, and in the test suite, naming `what`.
template <typename Json>
[[nodiscard]] auto parse_embedded(std::string_view text, std::string_view what) -> Json {
  Json parsed = Json::parse(text, nullptr, false);
  if (parsed.is_discarded()) throw Error(ErrorCode::internal, std::string(what) + " is not valid JSON");
  return parsed;
}

/// core/data/quiz_bank.json, byte for byte.
[[nodiscard]] auto embedded_quiz_bank() -> std::string_view;

/// core/data/lesson_text.json, byte for byte.
[[nodiscard]] auto embedded_lesson_text() -> std::string_view;

/// core/data/planner_text.json, byte for byte.
[[nodiscard]] auto embedded_planner_text() -> std::string_view;

/// WebAssembly build only: stores the text of core/data/NAME.json (`quiz_bank`, `lesson_text` or
/// `planner_text`) for the functions above, which refuse with ErrorCode::usage until it is given.
/// A text given after its first successful use is not seen: the parsed data is kept.
void provide_course_data(std::string_view name, std::string text);

}  // namespace pipesim::detail
