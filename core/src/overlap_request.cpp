#include "pipesim/overlap_request.h"

#include "pipesim/error.h"
#include "pipesim/parse.h"
#include "pipesim/workload.h"

namespace pipesim {

namespace {

auto durations_from(const OverlapRequest& r) -> OverlapInput {
  if (!r.forward || !r.backward)
    throw Error(ErrorCode::usage, "--forward and --backward go together: give both, or neither to use a --workload");
  OverlapInput input;
  input.durations.forward = parse_forward_durations(*r.forward);
  input.durations.backward = parse_backward_durations(*r.backward);
  input.durations.pp = r.pp_comm.value_or(0);
  return input;
}

// --comm-sms turns the split on (or changes the workload's); the other two only adjust it.
auto sm_split_from(const OverlapRequest& r, std::optional<SmSplit> sms) -> std::optional<SmSplit> {
  if (!sms && !r.comm_sms) {
    if (r.total_sms || r.saturation_sms)
      throw Error(ErrorCode::usage, "--total-sms and --saturation-sms need --comm-sms, the SMs given to communication");
    return std::nullopt;
  }
  SmSplit s = sms.value_or(SmSplit{});
  s.comm_sms = r.comm_sms.value_or(s.comm_sms);
  s.total_sms = r.total_sms.value_or(s.total_sms);
  s.saturation_sms = r.saturation_sms.value_or(s.saturation_sms);
  return s;
}

}  // namespace

auto parse_compute_comm_ratio(std::string_view text) -> double {
  const std::string bad = "--ratio must be compute:comm like 1:1 or a number > 0, got '" + std::string(text) + "'";
  const auto read = [&](std::string_view part) {
    const auto v = parse_finite(part);
    if (!v || !(*v > 0)) throw Error(ErrorCode::bad_value, bad);
    return *v;
  };
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) return read(text);
  return read(text.substr(0, colon)) / read(text.substr(colon + 1));
}

auto make_overlap_input(const OverlapRequest& r) -> OverlapInput {
  const bool direct = r.forward || r.backward || r.pp_comm;
  if (direct && r.workload) throw Error(ErrorCode::usage, "--workload replaces --forward, --backward and --pp-comm: give one or the other");
  OverlapInput input = direct ? durations_from(r)
                       : r.workload ? derive_durations(parse_workload(*r.workload))
                                    : derive_durations(deepseek_v3_workload());
  input.sms = sm_split_from(r, input.sms);
  if (r.ratio) input.compute_to_comm = parse_compute_comm_ratio(*r.ratio);
  return input;
}

}  // namespace pipesim
