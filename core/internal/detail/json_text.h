#pragma once
// How pipesim writes numbers into JSON and shows JSON values in error messages.
#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "pipesim/error.h"
#include "pipesim/parse.h"

namespace pipesim::detail {

/// Integral values as integers (66, not 66.0), so the contract reads like the figures.
[[nodiscard]] inline auto json_number(double v) -> nlohmann::json {
  if (std::isfinite(v) && std::floor(v) == v && std::fabs(v) < 9.0e15) return static_cast<long long>(v);
  return v;
}

/// How deep and how many values a JSON document pipesim reads may have. The deepest document it
/// understands nests five levels ({"per_rank": [{"ops": [{...}]}]}); the count is that of a 64 MiB
/// Chrome trace written by pipesim, the largest document read back. Checked while parsing, at each value
/// before it is stored, so 64 MiB of '[' or of {} costs no more than the largest real document.
inline constexpr int max_json_depth = 32;
inline constexpr std::size_t max_json_values = std::size_t{1} << 23;

/// nlohmann's SAX events, counted and passed on to its own DOM builder: nlohmann's callback parser
/// would do the counting too, but it scans an array's elements at every object that ends in it, which
/// is quadratic (300 000 ranks took 35 s); this stays linear.
class BoundedJsonSax {
 public:
  using json = nlohmann::json;
  BoundedJsonSax(json& root, std::string_view what, std::size_t max_values) : dom_(root, true), what_(what), max_values_(max_values) {}

  bool null() { return value() && dom_.null(); }
  bool boolean(bool v) { return value() && dom_.boolean(v); }
  bool number_integer(json::number_integer_t v) { return value() && dom_.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return value() && dom_.number_unsigned(v); }
  bool number_float(json::number_float_t v, const json::string_t& text) { return value() && dom_.number_float(v, text); }
  bool string(json::string_t& v) { return value() && dom_.string(v); }
  bool binary(json::binary_t& v) { return value() && dom_.binary(v); }
  bool start_object(std::size_t n) { return enter() && dom_.start_object(n); }
  bool key(json::string_t& k) { return dom_.key(k); }
  bool end_object() {
    --depth_;
    return dom_.end_object();
  }
  bool start_array(std::size_t n) { return enter() && dom_.start_array(n); }
  bool end_array() {
    --depth_;
    return dom_.end_array();
  }
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& e) {
    return dom_.parse_error(position, token, e);  // throws it, as json::parse does
  }

 private:
  bool value() {
    if (++values_ > max_values_)
      throw Error(ErrorCode::limit_exceeded, std::string(what_) + " has more than " + std::to_string(max_values_) +
                                                 " values, more than any document pipesim reads",
                  {"document.too_many_values", {{"what", std::string(what_)}, {"max", std::to_string(max_values_)}}});
    return true;
  }
  bool enter() {
    if (++depth_ > max_json_depth)
      throw Error(ErrorCode::limit_exceeded, std::string(what_) + " nests deeper than " + std::to_string(max_json_depth) +
                                                 " arrays and objects, more than any document pipesim reads",
                  {"document.too_deep", {{"what", std::string(what_)}, {"max", std::to_string(max_json_depth)}}});
    return value();
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  std::string_view what_;
  std::size_t max_values_;
  std::size_t values_ = 0;
  int depth_ = 0;
};

/// nlohmann::json::parse with those bounds: over them, Error (limit_exceeded) naming `what`; malformed
/// text throws nlohmann's own exceptions, as parse() does.
[[nodiscard]] inline auto parse_json_within(std::string_view text, std::string_view what,
                                           std::size_t max_values = max_json_values) -> nlohmann::json {
  nlohmann::json root;
  BoundedJsonSax sax(root, what, max_values);
  nlohmann::json::sax_parse(text, &sax);
  return root;
}

/// A value as an error message shows it: scalars as written (cut as quoted_input cuts a person's text),
/// arrays and objects by their type only. Dumping a hostile input would recurse without bound on deep nesting and
/// would put megabytes into a one-line message.
template <typename Json>
[[nodiscard]] auto describe_json(const Json& v) -> std::string {
  if (v.is_array() || v.is_object()) return std::string("an ") + (v.is_array() ? "array" : "object");
  return quoted_input(v.dump(-1, ' ', false, Json::error_handler_t::replace));
}

}  // namespace pipesim::detail
