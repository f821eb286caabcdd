#include "pipesim/json_document.h"

#include "detail/json_document.h"

namespace pipesim {

JsonDocument::JsonDocument() : JsonDocument(std::make_shared<const detail::TreeOf<nlohmann::json>>(nlohmann::json())) {}

JsonDocument::JsonDocument(std::shared_ptr<const Tree> tree) : tree_(std::move(tree)) {}

auto JsonDocument::dump(int indent) const -> std::string { return tree_->dump(indent); }

// Compact JSON laid out as nlohmann's dump(indent) lays out a tree: each member and element on a
// line of its own, `indent` spaces a level, ": " after a key, empty objects and arrays kept as {} and [].
auto detail::TextTree::dump(int indent) const -> std::string {
  if (indent < 0) return text;
  std::string out;
  int level = 0;
  const auto new_line = [&] { out.append("\n").append(static_cast<std::size_t>(level * indent), ' '); };
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    out += ch;
    if (in_string) {
      if (ch == '\\') out += text[++i];  // an escaped character, '"' included
      else if (ch == '"') in_string = false;
      continue;
    }
    switch (ch) {
      case '"': in_string = true; break;
      case '{':
      case '[':
        if (i + 1 < text.size() && (text[i + 1] == '}' || text[i + 1] == ']')) {
          out += text[++i];
        } else {
          ++level;
          new_line();
        }
        break;
      case '}':
      case ']':
        out.pop_back();
        --level;
        new_line();
        out += ch;
        break;
      case ',': new_line(); break;
      case ':': out += ' '; break;
      default: break;
    }
  }
  return out;
}

auto operator==(const JsonDocument& a, const JsonDocument& b) -> bool {
  const nlohmann::json* sorted_a = a.tree_->sorted();
  const nlohmann::json* sorted_b = b.tree_->sorted();
  if (sorted_a != nullptr && sorted_b != nullptr) return *sorted_a == *sorted_b;
  // One or both in insertion order: compared as sorted values (key order ignored, as documented).
  return nlohmann::json::parse(a.dump()) == nlohmann::json::parse(b.dump());
}

}  // namespace pipesim
