#include "pipesim/overlap_request.h"

#include <cstddef>
#include <string>

#include "pipesim/error.h"
#include "pipesim/language.h"
#include "pipesim/parse.h"
#include "pipesim/workload.h"

namespace pipesim {

namespace {

enum class Field : std::uint8_t { forward, backward, pp_comm, workload, comm_sms, total_sms, saturation_sms, ratio };

auto name_of(Field field, FieldNames names) -> std::string {
  static constexpr std::string_view cli[] = {"--forward",  "--backward",  "--pp-comm",         "--workload",
                                             "--comm-sms", "--total-sms", "--saturation-sms", "--ratio"};
  static constexpr std::string_view js[] = {"forward", "backward", "ppComm",        "workload",
                                            "commSms", "totalSms", "saturationSms", "ratio"};
  const auto i = static_cast<std::size_t>(field);
  return std::string(names == FieldNames::cli_options ? cli[i] : js[i]);
}

auto durations_from(const OverlapRequest& r, FieldNames names) -> OverlapInput {
  if (!r.forward || !r.backward)
    throw Error(ErrorCode::usage, name_of(Field::forward, names) + " and " + name_of(Field::backward, names) +
                                      " go together: give both, or neither to use a " +
                                      name_of(Field::workload, names),
                {"chunk.forward_backward_together", {{"forward", name_of(Field::forward, names)}, {"backward", name_of(Field::backward, names)},
                                                      {"workload", name_of(Field::workload, names)}}},
                r.forward ? "backward" : "forward");
  OverlapInput input;
  input.durations.forward = parse_forward_durations(*r.forward);
  input.durations.backward = parse_backward_durations(*r.backward);
  input.durations.pp = r.pp_comm.value_or(0);
  return input;
}

// --comm-sms turns the split on (or changes the workload's); the other two only adjust it.
auto sm_split_from(const OverlapRequest& r, std::optional<SmSplit> sms, FieldNames names) -> std::optional<SmSplit> {
  if (!sms && !r.comm_sms) {
    if (r.total_sms || r.saturation_sms)
      throw Error(ErrorCode::usage, name_of(Field::total_sms, names) + " and " +
                                        name_of(Field::saturation_sms, names) + " need " +
                                        name_of(Field::comm_sms, names) + ", the SMs given to communication",
                  {"chunk.sms_need_comm", {{"total_sms", name_of(Field::total_sms, names)}, {"saturation_sms", name_of(Field::saturation_sms, names)},
                                           {"comm_sms", name_of(Field::comm_sms, names)}}},
                  "comm_sms");
    return std::nullopt;
  }
  SmSplit s = sms.value_or(SmSplit{});
  s.comm_sms = r.comm_sms.value_or(s.comm_sms);
  s.total_sms = r.total_sms.value_or(s.total_sms);
  s.saturation_sms = r.saturation_sms.value_or(s.saturation_sms);
  return s;
}

/// The durations a workload's text gives; its refusals are about the "workload" field.
auto workload_durations(const std::string& text) -> OverlapInput {
  try {
    return derive_durations(parse_workload(text));
  } catch (const Error& e) {
    throw e.about("workload");
  }
}

}  // namespace

auto parse_compute_comm_ratio(std::string_view text, std::string_view name) -> double {
  const std::string bad =
      std::string(name) + " must be compute:comm like 1:1 or a number > 0, got '" + quoted_input(text) + "'";
  const auto read = [&](std::string_view part) {
    const auto v = parse_finite(part);
    if (!v || !(*v > 0)) throw Error(ErrorCode::bad_value, bad, {"chunk.ratio", {{"name", std::string(name)}, {"value", quoted_input(text)}}}, "ratio");
    return *v;
  };
  const auto colon = text.find(':');
  const double ratio = colon == std::string_view::npos ? read(text) : read(text.substr(0, colon)) / read(text.substr(colon + 1));
  // Past a million to one either way, communication is scaled out of the range any duration can take
  // (1:1e308 would make every transfer infinite): refused here, naming the option, not a duration.
  if (!(ratio >= 1e-6 && ratio <= 1e6))
    throw Error(ErrorCode::bad_value, std::string(name) + " must lie between 1:1000000 and 1000000:1, got '" + quoted_input(text) + "'",
                {"chunk.ratio_range", {{"name", std::string(name)}, {"value", quoted_input(text)}}}, "ratio");
  return ratio;
}

auto make_overlap_input(const OverlapRequest& r, FieldNames names) -> OverlapInput {
  const bool direct = r.forward || r.backward || r.pp_comm;
  if (direct && r.workload)
    throw Error(ErrorCode::usage, name_of(Field::workload, names) + " replaces " + name_of(Field::forward, names) +
                                      ", " + name_of(Field::backward, names) + " and " +
                                      name_of(Field::pp_comm, names) + ": give one or the other",
                {"chunk.workload_replaces", {{"workload", name_of(Field::workload, names)}, {"forward", name_of(Field::forward, names)},
                                             {"backward", name_of(Field::backward, names)}, {"pp_comm", name_of(Field::pp_comm, names)}}},
                "workload");
  OverlapInput input = direct ? durations_from(r, names)
                       : r.workload ? workload_durations(*r.workload)
                                    : derive_durations(deepseek_v3_workload());
  input.sms = sm_split_from(r, input.sms, names);
  if (r.ratio) input.compute_to_comm = parse_compute_comm_ratio(*r.ratio, name_of(Field::ratio, names));
  if (r.language) {
    try {
      input.language = std::string(known_language(*r.language));
    } catch (const Error& e) {
      throw e.about("language");
    }
  }
  return input;
}

}  // namespace pipesim
