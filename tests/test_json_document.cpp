// pipesim::JsonDocument (pipesim/json_document.h): how io and course hand out JSON without a JSON
// library in their headers. Its text must be nlohmann's, byte for byte, as the CLI and the module
// printed it when those functions returned nlohmann::json.
#include <catch2/catch.hpp>

#include <string>

#include "detail/json_document.h"
#include "detail/json_writer.h"
#include "helpers.h"

using nlohmann::json;
using nlohmann::ordered_json;
using pipesim::JsonDocument;
using pipesim::detail::document;

TEST_CASE("a JsonDocument prints its tree as nlohmann does, compact and indented") {
  const json tree = {{"makespan", 66}, {"bubble", 0.125}, {"ranks", {0, 1}}, {"name", "dualpipe"}, {"none", nullptr}};
  const JsonDocument doc = document(tree);
  CHECK(doc.dump() == tree.dump());
  CHECK(doc.dump(2) == tree.dump(2));
  CHECK(doc.dump() == R"({"bubble":0.125,"makespan":66,"name":"dualpipe","none":null,"ranks":[0,1]})");
}

TEST_CASE("a document made from an ordered_json keeps its keys in insertion order") {
  const ordered_json tree = {{"lesson", "19"}, {"title", "t"}, {"answer", 1}};
  CHECK(document(tree).dump() == R"({"lesson":"19","title":"t","answer":1})");
}

TEST_CASE("an empty JsonDocument is null") { CHECK(JsonDocument().dump() == "null"); }

TEST_CASE("documents compare as JSON values: 1 equals 1.0, key order aside, a different value differs") {
  CHECK(document(json{{"a", 1}}) == document(json{{"a", 1.0}}));
  CHECK(document(ordered_json{{"b", 2}, {"a", 1}}) == document(json{{"a", 1}, {"b", 2}}));
  CHECK_FALSE(document(json{{"a", 1}}) == document(json{{"a", 2}}));
}

TEST_CASE("nlohmann::json j = document reads the document's value back, keys in its order") {
  const json tree = {{"x", {1.5, -2}}, {"y", "z"}};
  const json back = document(tree);
  CHECK(back == tree);
  const ordered_json ordered = document(ordered_json{{"b", 2}, {"a", 1}});
  CHECK(ordered.dump() == R"({"b":2,"a":1})");
}

TEST_CASE("a document written as text prints as nlohmann prints the same value, compact and at every indent") {
  // Keys in writing order, nesting, empty lists and objects, and strings holding what the layout
  // treats as structure outside them (braces, commas, colons, escaped quotes and backslashes).
  std::string text;
  pipesim::detail::JsonWriter out(text);
  out.open().text("lesson", "19").whole("count", -3).open_array("empty").close_array().open("none").close();
  out.open_array("questions");
  out.open_item().text("q", "a {b}, [c]: \"d\" \\ e").open_array("options").item("x").item("y, z").close_array().close();
  out.open_item().number("cost", 2.5).number("whole", 4.0).text("unicode", "流水线 ✓\n\t").close();
  out.close_array().close();
  const JsonDocument doc = pipesim::detail::text_document(text);
  const ordered_json same = ordered_json::parse(text);
  for (const int indent : {-1, 0, 1, 2, 4}) CHECK(doc.dump(indent) == same.dump(indent));
  CHECK(text == same.dump());
  CHECK(doc == document(same));
}
