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

  Wording();
  // Out of line too (error.cpp): a throw site destroys its Wording temporaries with one call.
  Wording(const Wording& other);
  Wording(Wording&& other) noexcept;
  auto operator=(const Wording& other) -> Wording&;
  auto operator=(Wording&& other) noexcept -> Wording&;
  ~Wording();
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
  /// Out of line (error.cpp), like the copies and the destructor: some 250 refusals throw an Error,
  /// and each site inlining the escaping, the moves and the destruction of its Wording was kilobytes of
  /// the page's engine module (issue 14).
  Error(ErrorCode code, const std::string& message, Wording wording = {}, std::string field = {});
  Error(const Error& other);
  Error(Error&& other) noexcept;
  auto operator=(const Error& other) -> Error&;
  auto operator=(Error&& other) noexcept -> Error&;
  ~Error() override;

  [[nodiscard]] auto code() const -> ErrorCode { return code_; }
  [[nodiscard]] auto wording() const -> const Wording& { return wording_; }
  [[nodiscard]] auto field() const -> const std::string& { return field_; }

  /// The same refusal, about `field` unless it already names a more precise one.
  [[nodiscard]] auto about(std::string field) const -> Error;

  /// The same refusal inside one part of a larger input: its message prefixed with `prefix`
  /// ("stage 2: "), its wording told the part's kind and index (params "at_kind", "at": "stage",
  /// "2"), so another language words the place as well as the rule.
  [[nodiscard]] auto within(const std::string& prefix, std::string kind, std::string index) const -> Error;

 private:
  // Messages quote what users typed (file names, tokens, options): control characters are written
  // as escapes so a message stays one printable line and cannot drive a terminal (error.cpp).
  static auto printable(const std::string& text) -> std::string;

  ErrorCode code_;
  Wording wording_;
  std::string field_;
};

}  // namespace pipesim
