#include "pipesim/json_document.h"

#include "detail/json_document.h"

namespace pipesim {

JsonDocument::JsonDocument() : JsonDocument(std::make_shared<const Tree>()) {}

JsonDocument::JsonDocument(std::shared_ptr<const Tree> tree) : tree_(std::move(tree)) {}

auto JsonDocument::dump(int indent) const -> std::string {
  return std::visit([indent](const auto& value) { return value.dump(indent); }, tree_->value);
}

auto operator==(const JsonDocument& a, const JsonDocument& b) -> bool {
  if (a.tree_->value.index() == b.tree_->value.index()) return a.tree_->value == b.tree_->value;
  // One sorted, one in insertion order: compared as sorted values.
  return nlohmann::json::parse(a.dump()) == nlohmann::json::parse(b.dump());
}

}  // namespace pipesim
