#pragma once
// The one error type of the library: a code a program can branch on and a message a person can act
// on. Every message is one line that says what is wrong and what is allowed; the CLI prints it, the
// WebAssembly module raises it as a JavaScript error with the same text and code, and the page shows it.
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pipesim {

/// What kind of input was refused. Stable names (code_name) cross to JavaScript and the CLI.
enum class ErrorCode : std::uint8_t {
  usage,             ///< the call itself: unknown command or option, a missing or misplaced argument
  bad_value,         ///< a value that is malformed or out of its range (a cost, a size, a field)
  unknown_name,      ///< a name outside its list (schedule, language, cost key, format)
  limit_exceeded,    ///< a request over a resource limit, refused before any work is done
  schedule_rule,     ///< a schedule that does not accept these parameters (DualPipe needs even ranks)
  bad_import,        ///< an imported or pasted schedule, plan or workload that cannot be read
  invalid_schedule,  ///< a schedule whose ops break the engine's rules (a missing or repeated op)
  deadlock,          ///< a schedule whose ranks wait on each other in a cycle
  io,                ///< a file that cannot be read or written
  internal,          ///< a broken invariant of pipesim itself: a bug to report
};

inline constexpr int error_code_count = 10;

[[nodiscard]] constexpr auto code_name(ErrorCode code) -> std::string_view {
  switch (code) {
    case ErrorCode::usage: return "usage";
    case ErrorCode::bad_value: return "bad_value";
    case ErrorCode::unknown_name: return "unknown_name";
    case ErrorCode::limit_exceeded: return "limit_exceeded";
    case ErrorCode::schedule_rule: return "schedule_rule";
    case ErrorCode::bad_import: return "bad_import";
    case ErrorCode::invalid_schedule: return "invalid_schedule";
    case ErrorCode::deadlock: return "deadlock";
    case ErrorCode::io: return "io";
    case ErrorCode::internal: return "internal";
  }
  return "internal";
}

/// A refusal in a form any language can word: a stable key naming the rule ("dualpipe.even_ranks")
/// and the values the message quotes ({"ranks", "7"}). The English message stays the CLI's text; a
/// page words the same refusal from its own catalogue by the key. Empty for errors without one.
struct Wording {
  std::string key;
  std::vector<std::pair<std::string, std::string>> params;

  Wording() = default;
  /// As a refusal writes it: `{"dualpipe.even_ranks", {{"ranks", std::to_string(r)}}}`. Built out of
  /// line (error.cpp) from views the site's full expression keeps alive: a site then holds no string
  /// or vector building of its own, which over some 250 refusals was 60 KB of the page's engine module.
  Wording(const char* key, std::initializer_list<std::pair<std::string_view, std::string_view>> params = {});
  Wording(std::string key, std::initializer_list<std::pair<std::string_view, std::string_view>> params);
  /// A key and values a program put together (a rule's values with their place added).
  Wording(std::string key, std::vector<std::pair<std::string, std::string>> params);
};

class Error : public std::runtime_error {
 public:
  /// `field` names the input the refusal is about, by the JSON report's names: "ranks",
  /// "micro_batches", "virtual_stages", "schedule", "cost.F" (one per cost key: F, B, W, FB, comm),
  /// "stage_cost", "rank_speed", "model_stages", "custom_schedule"; empty when it is about no one field.
  Error(ErrorCode code, const std::string& message, Wording wording = {}, std::string field = {})
      : std::runtime_error(printable(message)), code_(code), wording_(std::move(wording)), field_(std::move(field)) {}

  [[nodiscard]] auto code() const -> ErrorCode { return code_; }
  [[nodiscard]] auto wording() const -> const Wording& { return wording_; }
  [[nodiscard]] auto field() const -> const std::string& { return field_; }

  /// The same refusal, about `field` unless it already names a more precise one.
  [[nodiscard]] auto about(std::string field) const -> Error {
    Error out = *this;
    if (out.field_.empty()) out.field_ = std::move(field);
    return out;
  }

  /// The same refusal inside one part of a larger input: its message prefixed with `prefix`
  /// ("stage 2: "), its wording told the part's kind and index (params "at_kind", "at": "stage",
  /// "2"), so another language words the place as well as the rule.
  [[nodiscard]] auto within(const std::string& prefix, std::string kind, std::string index) const -> Error {
    Wording w = wording_;
    if (!w.key.empty()) {
      w.params.emplace_back("at_kind", std::move(kind));
      w.params.emplace_back("at", std::move(index));
    }
    return Error(code_, prefix + what(), std::move(w), field_);
  }

 private:
  // Messages quote what users typed (file names, tokens, options): control characters are written
  // as escapes so a message stays one printable line and cannot drive a terminal. That covers C0
  // controls and DEL (\x1b), C1 controls (U+0080 to U+009F: U+009B is a terminal's CSI), the bidi
  // controls that reorder what a terminal shows (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to
  // U+2069: written \u202e), and bytes that are no UTF-8 (\xff), since a terminal may read a lone
  // 0x9b as CSI too.
  static auto printable(const std::string& text) -> std::string {
    std::string out;
    out.reserve(text.size());
    const auto escape = [&](const char* format, unsigned value) {
      char buffer[12];
      std::snprintf(buffer, sizeof buffer, format, value);
      out += buffer;
    };
    for (std::size_t i = 0; i < text.size();) {
      const auto byte = static_cast<unsigned char>(text[i]);
      if (byte < 0x80) {
        if (text[i] == '\n') out += "\\n";
        else if (text[i] == '\r') out += "\\r";
        else if (text[i] == '\t') out += "\\t";
        else if (byte < 0x20 || byte == 0x7f) escape("\\x%02x", byte);
        else out += text[i];
        ++i;
        continue;
      }
      const std::size_t length = utf8_length(text, i);
      if (length == 0) {
        escape("\\x%02x", byte);
        ++i;
        continue;
      }
      const unsigned cp = code_point(text, i, length);
      if (cp <= 0x9f || cp == 0x61c || cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
          (cp >= 0x2066 && cp <= 0x2069))
        escape("\\u%04x", cp);
      else
        out.append(text, i, length);
      i += length;
    }
    return out;
  }

  /// The length of the well-formed UTF-8 sequence at `i` (2 to 4 bytes), or 0 when there is none.
  static auto utf8_length(const std::string& text, std::size_t i) -> std::size_t {
    const auto at = [&](std::size_t k) { return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u; };
    const unsigned b0 = at(i);
    const auto continuation = [&](std::size_t k) { return (at(k) & 0xc0u) == 0x80u; };
    std::size_t length = 0;
    unsigned lo = 0x80, hi = 0xbf;  // the allowed range of the second byte
    if (b0 >= 0xc2 && b0 <= 0xdf) length = 2;
    else if (b0 >= 0xe0 && b0 <= 0xef) {
      length = 3;
      if (b0 == 0xe0) lo = 0xa0;       // no overlong forms
      else if (b0 == 0xed) hi = 0x9f;  // no surrogates
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      length = 4;
      if (b0 == 0xf0) lo = 0x90;
      else if (b0 == 0xf4) hi = 0x8f;  // nothing past U+10FFFF
    } else return 0;
    if (at(i + 1) < lo || at(i + 1) > hi) return 0;
    for (std::size_t k = 2; k < length; ++k)
      if (!continuation(i + k)) return 0;
    return length;
  }

  static auto code_point(const std::string& text, std::size_t i, std::size_t length) -> unsigned {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
    if (length == 2) return (b(0) & 0x1fu) << 6 | (b(1) & 0x3fu);
    if (length == 3) return (b(0) & 0x0fu) << 12 | (b(1) & 0x3fu) << 6 | (b(2) & 0x3fu);
    return (b(0) & 0x07u) << 18 | (b(1) & 0x3fu) << 12 | (b(2) & 0x3fu) << 6 | (b(3) & 0x3fu);
  }

  ErrorCode code_;
  Wording wording_;
  std::string field_;
};

}  // namespace pipesim
