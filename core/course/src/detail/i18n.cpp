#include "detail/i18n.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "pipesim/error.h"

namespace pipesim::detail {

auto check_language(std::string_view lang) -> std::string {
  try {
    return std::string(known_language(lang));
  } catch (const Error& e) {
    throw e.about("lang");  // the course's calls all take the language as their "lang" field
  }
}

namespace {

template <typename Json>
auto pick_from(const Json& texts, std::string_view lang, std::string_view where) -> std::string {
  const std::string key(lang);
  if (!texts.is_object() || !texts.contains(key) || !is_text(texts[key]))
    throw Error(ErrorCode::internal, "course data: " + std::string(where) + " has no '" + key + "' text");
  return texts[key].template get<std::string>();
}

// Calls on_text(piece) for each run of literal text and on_name(name) for each {name} of `text`, in
// order: the one reading of a placeholder, for fill() and placeholders().
template <typename OnText, typename OnName>
void scan_placeholders(std::string_view text, OnText&& on_text, OnName&& on_name) {
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t open = text.find('{', i);
    if (open == std::string_view::npos) break;
    const std::size_t close = text.find('}', open);
    if (close == std::string_view::npos) break;
    on_text(text.substr(i, open - i));
    on_name(std::string(text.substr(open + 1, close - open - 1)));
    i = close + 1;
  }
  on_text(text.substr(i));
}

}  // namespace

auto is_text(const nlohmann::json& value) -> bool {
  return value.is_string() && !value.get_ref<const std::string&>().empty();
}

auto pick(const nlohmann::json& texts, std::string_view lang, std::string_view where) -> std::string {
  return pick_from(texts, lang, where);
}

auto fill(std::string_view text, const std::map<std::string, std::string>& values) -> std::string {
  std::string out;
  scan_placeholders(
      text, [&](std::string_view piece) { out.append(piece); },
      [&](const std::string& name) {
        const auto it = values.find(name);
        if (it == values.end()) throw Error(ErrorCode::internal, "course data: no value for placeholder {" + name + "}");
        out += it->second;
      });
  return out;
}

auto placeholders(std::string_view text) -> std::set<std::string> {
  std::set<std::string> names;
  scan_placeholders(text, [](std::string_view) {}, [&](std::string name) { names.insert(std::move(name)); });
  return names;
}

auto decimal(double value, int decimals, std::string_view lang) -> std::string {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  std::string out(buffer);
  if (out == "-0" || (out.rfind("-0.", 0) == 0 && out.find_first_not_of("-0.") == std::string::npos)) out.erase(0, 1);
  if (lang == "pt-BR") std::replace(out.begin(), out.end(), '.', ',');
  return out;
}

auto percent(double fraction, int decimals, std::string_view lang) -> std::string {
  return decimal(fraction * 100, decimals, lang) + "%";
}

auto gigabytes(double bytes, std::string_view lang) -> std::string {
  const double gb = bytes / 1e9;
  return decimal(gb, gb < 10 ? 2 : 1, lang) + " GB";
}

namespace {

auto is_wide(char32_t c) -> bool {
  return (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF) || (c >= 0xAC00 && c <= 0xD7A3) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) ||
         (c >= 0xFFE0 && c <= 0xFFE6);
}

}  // namespace

auto columns(std::string_view s) -> std::size_t {
  std::size_t width = 0;
  for (std::size_t i = 0; i < s.size();) {
    const auto lead = static_cast<unsigned char>(s[i]);
    const std::size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    char32_t c = length == 1 ? lead : lead & (0xFF >> (length + 1));
    for (std::size_t k = 1; k < length && i + k < s.size(); ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    width += is_wide(c) ? 2 : 1;
    i += length;
  }
  return width;
}

auto billions(double count, int decimals, std::string_view lang) -> std::string {
  std::string out = decimal(count / 1e9, decimals, lang);
  // 70.000B reads as 70B; trailing zeros of the fraction carry no information here.
  if (out.find_first_of(".,") != std::string::npos) {
    out.erase(out.find_last_not_of('0') + 1);
    if (out.back() == '.' || out.back() == ',') out.pop_back();
  }
  return out + "B";
}

}  // namespace pipesim::detail
