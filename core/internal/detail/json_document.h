#pragma once
// The inside of a JsonDocument (pipesim/json_document.h) for the io and course sources that build one
// or compose one into another: the nlohmann value it holds, sorted (json) or in insertion order
// (ordered_json, the quiz bank's).
#include <utility>
#include <variant>

#include <nlohmann/json.hpp>

#include "pipesim/json_document.h"

namespace pipesim {

struct JsonDocument::Tree {
  std::variant<nlohmann::json, nlohmann::ordered_json> value;
};

namespace detail {

template <typename Json>
[[nodiscard]] auto document(Json value) -> JsonDocument {
  return JsonDocument(std::make_shared<const JsonDocument::Tree>(JsonDocument::Tree{std::move(value)}));
}

/// The value of a document built from a sorted nlohmann::json (every one but the quiz bank's).
[[nodiscard]] inline auto json_of(const JsonDocument& d) -> const nlohmann::json& { return std::get<nlohmann::json>(d.tree().value); }

/// The value of a document built from an ordered_json (the quiz bank and the quizzes made from it).
[[nodiscard]] inline auto ordered_json_of(const JsonDocument& d) -> const nlohmann::ordered_json& {
  return std::get<nlohmann::ordered_json>(d.tree().value);
}

}  // namespace detail

}  // namespace pipesim
