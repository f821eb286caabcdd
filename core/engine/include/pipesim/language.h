#pragma once
// The languages pipesim speaks (the page, the CLI's --lang, the course) and a value given in each.
#include <array>
#include <string>
#include <string_view>

#include "pipesim/error.h"

namespace pipesim {

/// Every text pipesim shows exists in these languages, in this order (course-and-users.md §4).
inline constexpr std::array<std::string_view, 3> languages = {"en", "pt-BR", "zh-CN"};

/// "en, pt-BR, zh-CN": the list as a refusal names it.
[[nodiscard]] inline auto language_list() -> std::string {
  std::string out;
  for (std::string_view l : languages) out += (out.empty() ? "" : ", ") + std::string(l);
  return out;
}

/// The entry of `languages` equal to `language` (static storage), or empty if there is none.
[[nodiscard]] inline auto find_language(std::string_view language) -> std::string_view {
  for (std::string_view l : languages)
    if (l == language) return l;
  return {};
}

/// Whether `language` is one of `languages`.
[[nodiscard]] inline auto is_language(std::string_view language) -> bool { return !find_language(language).empty(); }

/// `language` if it is one of `languages`; throws Error(unknown_name) listing them otherwise, the
/// one refusal of an unknown language on every surface.
inline auto known_language(std::string_view language) -> std::string_view {
  if (const std::string_view known = find_language(language); !known.empty()) return known;
  throw Error(ErrorCode::unknown_name, "unknown language '" + std::string(language) + "'; languages are " + language_list(),
              {"language.unknown", {{"name", std::string(language)}, {"known", language_list()}}});
}

/// A value written once per language of `languages`, set by name: {.en = ..., .pt_br = ..., .zh_cn = ...}.
template <class T>
struct Translated {
  T en;
  T pt_br;
  T zh_cn;

  /// The value in `language`; known_language()'s Error for any other.
  [[nodiscard]] auto in(std::string_view language) const -> const T& {
    const std::string_view known = known_language(language);
    return known == languages[0] ? en : known == languages[1] ? pt_br : zh_cn;
  }
};

}  // namespace pipesim
