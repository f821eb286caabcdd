#pragma once
// The inside of a JsonDocument (pipesim/json_document.h) for the io and course sources that build one
// or compose one into another: the nlohmann value it holds, sorted (json) or in insertion order
// (ordered_json: the quiz bank, whose key order is the course site's), or the compact text of a
// document written with detail::JsonWriter (the course's quiz: no tree is built to be dumped).
//
// A Tree is an interface with one implementation per flavour rather than a variant of both: visiting a
// variant compiles both flavours' writers into every module that prints a document, and the engine
// module, which never builds an ordered one, carried ordered_json's serializer (issue 14: size). A
// module now links the writer of a flavour only where a document of it is built.
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

#include "pipesim/error.h"
#include "pipesim/json_document.h"

namespace pipesim {

struct JsonDocument::Tree {
  Tree() = default;
  Tree(const Tree&) = delete;
  auto operator=(const Tree&) -> Tree& = delete;
  virtual ~Tree() = default;
  [[nodiscard]] virtual auto dump(int indent) const -> std::string = 0;
  /// The value when it is a sorted nlohmann::json, else nullptr.
  [[nodiscard]] virtual auto sorted() const -> const nlohmann::json* = 0;
};

namespace detail {

template <typename Json>
struct TreeOf final : JsonDocument::Tree {
  explicit TreeOf(Json v) : value(std::move(v)) {}
  [[nodiscard]] auto dump(int indent) const -> std::string override { return value.dump(indent); }
  [[nodiscard]] auto sorted() const -> const nlohmann::json* override {
    if constexpr (std::is_same_v<Json, nlohmann::json>) return &value;
    else return nullptr;
  }
  Json value;
};

template <typename Json>
[[nodiscard]] auto document(Json value) -> JsonDocument {
  return JsonDocument(std::make_shared<const TreeOf<Json>>(std::move(value)));
}

/// A document kept as the compact text nlohmann's dump() would give (written with JsonWriter, keys in
/// the order written); dump(indent) lays it out as nlohmann's dump(indent) would.
struct TextTree final : JsonDocument::Tree {
  explicit TextTree(std::string compact) : text(std::move(compact)) {}
  [[nodiscard]] auto dump(int indent) const -> std::string override;
  [[nodiscard]] auto sorted() const -> const nlohmann::json* override { return nullptr; }
  std::string text;
};

[[nodiscard]] inline auto text_document(std::string compact) -> JsonDocument {
  return JsonDocument(std::make_shared<const TextTree>(std::move(compact)));
}

/// The value of a document built from a sorted nlohmann::json (every one but the quizzes').
[[nodiscard]] inline auto json_of(const JsonDocument& d) -> const nlohmann::json& {
  const nlohmann::json* value = d.tree().sorted();
  if (value == nullptr) throw Error(ErrorCode::internal, "internal: a document in insertion order read as a sorted one");
  return *value;
}

}  // namespace detail

}  // namespace pipesim
