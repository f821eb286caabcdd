#pragma once
// The one error type of the library: a code a program can branch on and a message a person can act
// on. Every message is one line that says what is wrong and what is allowed; the CLI prints it, the
// WebAssembly module raises it as a JavaScript error with the same text and code, and the page shows it.
#include <cstdint>
#include <cstdio>
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
};

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message, Wording wording = {})
      : std::runtime_error(printable(message)), code_(code), wording_(std::move(wording)) {}

  [[nodiscard]] auto code() const -> ErrorCode { return code_; }
  [[nodiscard]] auto wording() const -> const Wording& { return wording_; }

 private:
  // Messages quote what users typed (file names, tokens, options): control characters are written
  // as escapes so a message stays one printable line and cannot drive a terminal.
  static auto printable(const std::string& text) -> std::string {
    std::string out;
    out.reserve(text.size());
    for (const char ch : text) {
      const auto byte = static_cast<unsigned char>(ch);
      if (ch == '\n') out += "\\n";
      else if (ch == '\r') out += "\\r";
      else if (ch == '\t') out += "\\t";
      else if (byte < 0x20 || byte == 0x7f) {
        char escape[8];
        std::snprintf(escape, sizeof escape, "\\x%02x", byte);
        out += escape;
      } else out += ch;
    }
    return out;
  }

  ErrorCode code_;
  Wording wording_;
};

}  // namespace pipesim
