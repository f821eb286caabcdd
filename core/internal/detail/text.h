#pragma once
// Small text helpers for the option-list formats ("F=1,B=2", "attn=1,mlp=2").
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace pipesim::detail {

[[nodiscard]] inline auto trim(std::string_view s) -> std::string_view {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

[[nodiscard]] inline auto lower(std::string_view s) -> std::string {
  std::string out;
  for (char ch : s) out += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

/// One item of a comma-separated "KEY=VALUE" list, trimmed. `has_value` is false when the item has no
/// '=' at all, so each caller can word its own "must be KEY=VALUE" message.
struct Assignment {
  std::string_view item;
  std::string_view key;
  std::string_view value;
  bool has_value = false;
};

/// Splits "a=1, b=2,,c" into its non-empty items.
[[nodiscard]] inline auto split_assignments(std::string_view text) -> std::vector<Assignment> {
  std::vector<Assignment> out;
  while (!trim(text).empty()) {
    const auto comma = text.find(',');
    const std::string_view item = trim(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string_view::npos) out.push_back({item, item, {}, false});
    else out.push_back({item, trim(item.substr(0, eq)), trim(item.substr(eq + 1)), true});
  }
  return out;
}

}  // namespace pipesim::detail
