// Reading back a Chrome trace that pipesim wrote (core/io/src/export_trace.cpp writes it): the engine
// reads it because a custom schedule may be given as one (custom.cpp). detail/trace_format.h holds the
// facts the writer and this reader share.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "detail/json_fields.h"
#include "detail/trace_format.h"
#include "detail/trace_import.h"
#include "pipesim/error.h"
#include "pipesim/limits.h"
#include "pipesim/op.h"

namespace pipesim {

namespace {

using nlohmann::json;
using detail::compute_category;
using detail::pid_of;
using detail::rank_of_pid;
using detail::trace_generator;

constexpr const char* not_ours =
    "this Chrome trace was not written by pipesim (otherData.generator is not \"pipesim\"); pipesim reads back "
    "only traces from `simulate --format chrome-trace`";

/// A whole number in [lo, hi] at `key` of otherData.
/// `fallback` when absent; nullopt: required.
auto other_whole(const json& other, const char* key, int lo, int hi, std::optional<int> fallback) -> int {
  return detail::whole_field(other, key, lo, hi, fallback, [&] {
    return detail::FieldPlace{std::string("pipesim trace: otherData.") + key, {{"at_kind", "trace_other_data"}}};
  });
}

/// The wording of rule `key` said at traceEvents[position] (PLACES' trace_event in web/src/i18n/refusals.ts).
auto at_event(std::size_t position, std::string key, std::vector<std::pair<std::string, std::string>> values = {}) -> Wording {
  values.emplace_back("at_kind", "trace_event");
  values.emplace_back("at", std::to_string(position));
  return {std::move(key), std::move(values)};
}

/// One compute event of the trace, before it is put in its rank's order.
struct ComputeEvent {
  double ts = 0;
  long long index = 0;  ///< the op's index on its rank; file position when absent
  json op;
};

/// The contract's op object for a compute event's args: an FB's forward half becomes f_mb, f_phase,
/// f_stage. Fields are copied as found; custom.cpp checks them like any JSON schedule.
auto contract_op(const json& args, const std::string& where, std::size_t position) -> json {
  const auto kind = args.find("kind");
  if (kind == args.end() || !kind->is_string())
    throw Error(ErrorCode::bad_import, where + ": args.kind must be \"F\", \"B\", \"I\", \"W\" or \"FB\"",
                at_event(position, "trace_import.kind"));
  json op = {{"op", *kind}};
  const bool pair = parse_kind(kind->get<std::string>()) == OpKind::FB;
  for (const char* field : {"mb", "phase", "stage"}) {
    if (const auto it = args.find(field); it != args.end()) op[std::string(pair ? "f_" : "") + field] = *it;
    const std::string backward = std::string("b_") + field;
    if (const auto it = args.find(backward); pair && it != args.end()) op[backward] = *it;
  }
  return op;
}

auto read_compute_event(const json& event, std::size_t position, int ranks, std::vector<std::vector<ComputeEvent>>& out)
    -> void {
  const std::string where = "pipesim trace: traceEvents[" + std::to_string(position) + "]";
  const auto pid = event.find("pid");
  if (pid == event.end() || !pid->is_number_integer() || pid->get<long long>() < pid_of(0) ||
      pid->get<long long>() > pid_of(ranks - 1))
    throw Error(ErrorCode::bad_import, where + ": pid must be a rank's process id, rank + 1, from " + std::to_string(pid_of(0)) +
                                           " to " + std::to_string(pid_of(ranks - 1)),
                at_event(position, "trace_import.pid", {{"min", std::to_string(pid_of(0))}, {"max", std::to_string(pid_of(ranks - 1))}}));
  const auto ts = event.find("ts");
  if (ts == event.end() || !ts->is_number())
    throw Error(ErrorCode::bad_import, where + ": ts must be a number", at_event(position, "trace_import.ts"));
  const auto args = event.find("args");
  if (args == event.end() || !args->is_object())
    throw Error(ErrorCode::bad_import, where + ": a compute event needs its args object", at_event(position, "trace_import.args"));
  const auto index = args->find("index");
  const long long order = index != args->end() && index->is_number_integer() ? index->get<long long>()
                                                                             : static_cast<long long>(position);
  out[static_cast<std::size_t>(rank_of_pid(pid->get<long long>()))].push_back({ts->get<double>(), order, contract_op(*args, where, position)});
}

}  // namespace

namespace detail {

auto is_chrome_trace(const json& j) -> bool { return j.is_object() && j.contains("traceEvents"); }

auto schedule_json_from_trace(const json& trace) -> json {
  const auto other = trace.find("otherData");
  if (other == trace.end() || !other->is_object() || !other->contains("generator") ||
      (*other)["generator"] != trace_generator)
    throw Error(ErrorCode::bad_import, not_ours, {"trace_import.not_ours", {}});
  const auto events = trace.find("traceEvents");
  if (!events->is_array())
    throw Error(ErrorCode::bad_import, "pipesim trace: traceEvents must be an array of events", {"trace_import.events_array", {}});
  const int ranks = other_whole(*other, "ranks", 1, limits::max_ranks, std::nullopt);
  std::vector<std::vector<ComputeEvent>> per_rank(static_cast<std::size_t>(ranks));
  for (std::size_t k = 0; k < events->size(); ++k) {
    const json& event = (*events)[k];
    if (!event.is_object())
      throw Error(ErrorCode::bad_import, "pipesim trace: traceEvents[" + std::to_string(k) + "] is not an object; every event is one",
                  {"trace_import.event_not_object", {{"event", std::to_string(k)}}});
    if (event.value("ph", json()) == "X" && event.value("cat", json()) == compute_category)
      read_compute_event(event, k, ranks, per_rank);
  }
  json out = {{"micro_batches", other_whole(*other, "micro_batches", 1, 1 << 20, std::nullopt)},
              {"directions", other_whole(*other, "directions", 1, 2, 1)},
              {"stages", other_whole(*other, "stages", 1, 1 << 20, std::nullopt)},
              {"ranks", ranks},
              {"per_rank", json::array()}};
  for (auto& ops : per_rank) {
    // Run order is time order; ops of zero duration share a timestamp, so their index decides.
    std::stable_sort(ops.begin(), ops.end(), [](const ComputeEvent& a, const ComputeEvent& b) {
      return a.ts != b.ts ? a.ts < b.ts : a.index < b.index;
    });
    json listed = json::array();
    for (ComputeEvent& e : ops) listed.push_back(std::move(e.op));
    out["per_rank"].push_back({{"ops", std::move(listed)}});
  }
  return out;
}

}  // namespace detail

}  // namespace pipesim
