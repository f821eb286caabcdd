#pragma once
// One request form for the chunk model, shared by the CLI and the WebAssembly module: each field is
// what a user typed, absent when not given. make_overlap_input() applies the rules in one place.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "pipesim/overlap.h"

namespace pipesim {

struct OverlapRequest {
  std::optional<std::string> forward;   ///< "attn=..,dispatch=..,mlp=..,combine=.."
  std::optional<std::string> backward;  ///< "combine=..,mlp_b=..,mlp_w=..,dispatch=..,attn_b=..,attn_w=.."
  std::optional<double> pp_comm;        ///< one chunk's pipeline send, with forward/backward
  std::optional<std::string> workload;  ///< workload JSON text (replaces the three above)
  std::optional<int> comm_sms;          ///< turns the SM split on, or changes the workload's
  std::optional<int> total_sms;
  std::optional<int> saturation_sms;
  std::optional<std::string> ratio;     ///< compute:comm, "1:1", "3:2" or a number > 0
  std::optional<std::string> language;  ///< the derivation's words: "en" (default), "pt-BR", "zh-CN"
};

/// How refusals name the request's fields: as the CLI's options (`--comm-sms`) or as the keys of the
/// WebAssembly module's request object (`commSms`), so each user reads the names they typed.
enum class FieldNames : std::uint8_t { cli_options, js_keys };

/// Durations given directly, else derived from the workload, else DeepSeek-V3's workload; then the
/// SM split and the ratio. Throws Error naming the conflicting or malformed field.
[[nodiscard]] auto make_overlap_input(const OverlapRequest& request, FieldNames names = FieldNames::cli_options)
    -> OverlapInput;

/// Reads "1:1", "3:2" or a plain number as compute / communication; a refusal calls the field `name`.
[[nodiscard]] auto parse_compute_comm_ratio(std::string_view text, std::string_view name = "--ratio") -> double;

}  // namespace pipesim
