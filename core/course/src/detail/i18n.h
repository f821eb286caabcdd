#pragma once
// The course languages and the few helpers the quiz, the lesson and the planner need to speak them:
// picking a language out of a keyed text, filling {name} placeholders, writing numbers the local way
// and measuring text for terminal tables.
#include <array>
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "pipesim/language.h"

namespace pipesim::detail {

/// Every course string exists in these languages (course-and-users.md §4: en and zh at launch; the
/// lesson also had a Brazilian Portuguese version).
inline constexpr const auto& course_languages = pipesim::languages;

/// Returns `lang` if it is a course language; throws Error listing them otherwise.
[[nodiscard]] auto check_language(std::string_view lang) -> std::string;

/// Whether `value` is a text a reader can show: a non-empty string.
[[nodiscard]] auto is_text(const nlohmann::json& value) -> bool;

/// The `lang` entry of a {"en": ..., "pt-BR": ..., "zh-CN": ...} object. Throws Error (naming
/// `where`) when the entry is missing or not a non-empty string: a bug in core/data/.
[[nodiscard]] auto pick(const nlohmann::json& texts, std::string_view lang, std::string_view where) -> std::string;

/// Replaces each {name} of `text` by `values[name]`. A placeholder without a value is a bug in the
/// data or the caller, so it throws Error naming it rather than printing a hole.
[[nodiscard]] auto fill(std::string_view text, const std::map<std::string, std::string>& values) -> std::string;

/// The names of the {name} placeholders of `text`, as fill() reads them.
[[nodiscard]] auto placeholders(std::string_view text) -> std::set<std::string>;

/// `value` with exactly `decimals` digits after the separator; pt-BR writes a decimal comma.
[[nodiscard]] auto decimal(double value, int decimals, std::string_view lang) -> std::string;

/// `fraction` as a percentage with `decimals` digits: 0.6957 -> "69.6%" (pt-BR "69,6%").
[[nodiscard]] auto percent(double fraction, int decimals, std::string_view lang) -> std::string;

/// A byte count in GB (10^9 bytes), three significant digits from 1 GB up: "17.5 GB", "3.41 GB".
[[nodiscard]] auto gigabytes(double bytes, std::string_view lang) -> std::string;

/// Display width of UTF-8 text in a terminal: one column per code point, two for East Asian wide
/// ones (CJK, Hangul, full-width forms; the arrows are narrow), so that Chinese tables line up.
[[nodiscard]] auto columns(std::string_view text) -> std::size_t;

/// A large count in billions with `decimals` digits: 8.75e9 -> "8.75B".
[[nodiscard]] auto billions(double count, int decimals, std::string_view lang) -> std::string;

}  // namespace pipesim::detail
