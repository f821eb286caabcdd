#pragma once
// A JSON document as pipesim::io and pipesim::course return it (the run report, the catalogue, the
// chunk model, the lesson, the quiz): an opaque, immutable value, so that no public header needs a JSON
// library. What the CLI and the WebAssembly module do with it is print it, so it gives its text; a
// program that reads it with nlohmann/json itself converts it: `nlohmann::json j = document;`.
#include <memory>
#include <string>

namespace pipesim {

class JsonDocument {
 public:
  struct Tree;  // the parsed value, defined in the library's sources (detail/json_document.h)

  JsonDocument();  // null
  explicit JsonDocument(std::shared_ptr<const Tree> tree);

  /// The text, byte for byte what nlohmann's dump(indent) writes: compact with -1, else `indent`
  /// spaces a level (the CLI prints dump(2)). Keys in the document's own order.
  [[nodiscard]] auto dump(int indent = -1) const -> std::string;

  /// The same JSON value (nlohmann's equality: 1 == 1.0, key order ignored).
  friend auto operator==(const JsonDocument& a, const JsonDocument& b) -> bool;

  [[nodiscard]] auto tree() const -> const Tree& { return *tree_; }

 private:
  std::shared_ptr<const Tree> tree_;
};

/// The conversion hook of any JSON library that looks up to_json(json&, value) by argument-dependent
/// lookup and has Json::parse (nlohmann/json does): it parses the document's text.
template <typename Json>
void to_json(Json& j, const JsonDocument& document) {
  j = Json::parse(document.dump());
}

}  // namespace pipesim
