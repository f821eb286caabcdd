#pragma once
// Writes JSON straight into text, byte for byte as nlohmann's compact dump() would: for output that
// is only ever printed, where a tree would be built just to be dumped. The Chrome trace export writes
// its events with it (millions at the registry's limits: an ordered_json per event costs several
// times the text it becomes); the course's quiz (quiz.cpp) writes its document with it, so that the
// course module carries no ordered_json (issue 14: size).
#include <algorithm>
#include <array>
#include <charconv>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "detail/json_text.h"

namespace pipesim::detail {

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : out_(out) {}

  /// An object where a value goes: the whole text, or one after a key (the caller writes any comma
  /// before an object that is not the first of its list, or opens it with open_item()).
  auto open() -> JsonWriter& {
    out_ += '{';
    first_ = true;
    return *this;
  }
  auto open(std::string_view key) -> JsonWriter& {
    name(key);
    return open();
  }
  auto close() -> JsonWriter& {
    out_ += '}';
    first_ = false;
    return *this;
  }
  /// An array under `key`, whose elements are written with item() and open_item().
  auto open_array(std::string_view key) -> JsonWriter& {
    name(key);
    out_ += '[';
    first_ = true;
    return *this;
  }
  auto close_array() -> JsonWriter& {
    out_ += ']';
    first_ = false;
    return *this;
  }
  /// An object as the next element of the open array.
  auto open_item() -> JsonWriter& {
    separate();
    return open();
  }
  /// A string as the next element of the open array.
  auto item(std::string_view value) -> JsonWriter& {
    separate();
    quoted(value);
    return *this;
  }
  auto text(std::string_view key, std::string_view value) -> JsonWriter& {
    name(key);
    quoted(value);
    return *this;
  }
  auto whole(std::string_view key, long long value) -> JsonWriter& {
    name(key);
    std::array<char, 24> digits{};
    const auto end = std::to_chars(digits.data(), digits.data() + digits.size(), value).ptr;
    out_.append(digits.data(), end);
    return *this;
  }
  /// A time or cost as the JSON contract writes it: integral values as integers (json_number).
  auto number(std::string_view key, double value) -> JsonWriter& {
    const nlohmann::json n = json_number(value);
    if (n.is_number_integer()) return whole(key, n.get<long long>());
    name(key);
    out_ += n.dump();
    return *this;
  }

 private:
  void separate() {
    if (!first_) out_ += ',';
    first_ = false;
  }
  void name(std::string_view key) {
    separate();
    quoted(key);
    out_ += ':';
  }
  /// Names and labels are plain ASCII and go out as they are; anything else takes nlohmann's own
  /// escaping (and its UTF-8 check), so the bytes stay those of dump().
  void quoted(std::string_view value) {
    const bool plain = std::all_of(value.begin(), value.end(), [](char ch) {
      const auto byte = static_cast<unsigned char>(ch);
      return byte >= 0x20 && byte < 0x7f && ch != '"' && ch != '\\';
    });
    if (!plain) {
      out_ += nlohmann::json(std::string(value)).dump();
      return;
    }
    out_ += '"';
    out_ += value;
    out_ += '"';
  }

  std::string& out_;
  bool first_ = true;
};

}  // namespace pipesim::detail
