#include "pipesim/json_document.h"

#include "detail/json_document.h"

namespace pipesim {

JsonDocument::JsonDocument() : JsonDocument(std::make_shared<const detail::TreeOf<nlohmann::json>>(nlohmann::json())) {}

JsonDocument::JsonDocument(std::shared_ptr<const Tree> tree) : tree_(std::move(tree)) {}

auto JsonDocument::dump(int indent) const -> std::string { return tree_->dump(indent); }

auto operator==(const JsonDocument& a, const JsonDocument& b) -> bool {
  const nlohmann::json* sorted_a = a.tree_->sorted();
  const nlohmann::json* sorted_b = b.tree_->sorted();
  if (sorted_a != nullptr && sorted_b != nullptr) return *sorted_a == *sorted_b;
  // One or both in insertion order: compared as sorted values (key order ignored, as documented).
  return nlohmann::json::parse(a.dump()) == nlohmann::json::parse(b.dump());
}

}  // namespace pipesim
