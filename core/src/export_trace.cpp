// The Chrome trace event format (Perfetto, chrome://tracing) written from a Run, and read back.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "detail/export_names.h"
#include "detail/trace_import.h"
#include "pipesim/error.h"
#include "pipesim/export.h"

namespace pipesim {

namespace {

using ordered = nlohmann::ordered_json;
using nlohmann::json;

constexpr const char* generator = "pipesim";
constexpr const char* compute_category = "compute";
// Transfers and their flow arrows share one category: viewers pair a flow event with a slice of the
// same category (Chrome DevTools requires it), and Perfetto keys a flow on (id, category, name).
constexpr const char* comm_category = "comm";

// Integral values print as integers (3000, not 3000.0), like the JSON contract.
auto number(double v) -> ordered {
  if (std::isfinite(v) && std::floor(v) == v && std::fabs(v) < 9.0e15) return static_cast<long long>(v);
  return v;
}

// ---- names ------------------------------------------------------------------------------------------

// ---- transfers --------------------------------------------------------------------------------------

/// One input that crosses ranks: sent when its producer ends, arriving `comm` later.
struct Transfer {
  int producer = -1;
  int consumer = -1;
  int from = 0;  ///< sender rank
  int to = 0;    ///< receiver rank
  bool gradient = false;
  double start = 0;
  double end = 0;
  int send_lane = 0;
  int recv_lane = 0;
};

auto rank_of_ops(const Schedule& s) -> std::vector<int> {
  std::vector<int> out(s.ops.size());
  for (int r = 0; r < s.ranks(); ++r)
    for (int i = s.rank_begin[r]; i < s.rank_begin[r + 1]; ++i) out[static_cast<std::size_t>(i)] = r;
  return out;
}

auto find_transfers(const Run& run, const std::vector<int>& rank_of) -> std::vector<Transfer> {
  const Schedule& s = run.schedule;
  const std::vector<OpInputs> inputs = op_inputs(s);
  std::vector<Transfer> out;
  const auto add = [&](int producer, int consumer, bool gradient) {
    if (producer < 0) return;
    const int from = rank_of[static_cast<std::size_t>(producer)];
    const int to = rank_of[static_cast<std::size_t>(consumer)];
    if (from == to) return;  // same rank: no send, the engine adds no comm
    const double sent = run.timeline.end[static_cast<std::size_t>(producer)];
    out.push_back({producer, consumer, from, to, gradient, sent, sent + run.costs.comm});
  };
  for (int i = 0; i < static_cast<int>(s.ops.size()); ++i) {
    const OpKind kind = s.ops[static_cast<std::size_t>(i)].kind;
    const OpInputs in = inputs[static_cast<std::size_t>(i)];
    add(in.first, i, !has_forward(kind));  // F and FB: the activation; B, I: the gradient
    add(in.second, i, true);               // FB's backward half
  }
  return out;
}

/// Puts each rank's transfer slices on lanes (threads) where none overlaps or touches another, because
/// slices of one thread must nest and a flow binds to the slice that encloses its timestamp. Returns
/// the number of lanes of each rank (at least 1, so every rank shows its communication thread).
auto assign_lanes(std::vector<Transfer>& transfers, int ranks) -> std::vector<int> {
  struct Slot {
    std::size_t transfer;
    bool send;
  };
  std::vector<std::vector<Slot>> per_rank(static_cast<std::size_t>(ranks));
  for (std::size_t t = 0; t < transfers.size(); ++t) {
    per_rank[static_cast<std::size_t>(transfers[t].from)].push_back({t, true});
    per_rank[static_cast<std::size_t>(transfers[t].to)].push_back({t, false});
  }
  std::vector<int> lanes;
  for (auto& slots : per_rank) {
    std::stable_sort(slots.begin(), slots.end(), [&](const Slot& a, const Slot& b) {
      return transfers[a.transfer].start < transfers[b.transfer].start;
    });
    std::vector<double> lane_end;
    for (const Slot& slot : slots) {
      Transfer& t = transfers[slot.transfer];
      auto lane = std::find_if(lane_end.begin(), lane_end.end(), [&](double e) { return t.start > e; });
      if (lane == lane_end.end()) lane = lane_end.insert(lane_end.end(), t.end);
      *lane = t.end;
      (slot.send ? t.send_lane : t.recv_lane) = static_cast<int>(lane - lane_end.begin());
    }
    lanes.push_back(std::max(1, static_cast<int>(lane_end.size())));
  }
  return lanes;
}

// ---- events -----------------------------------------------------------------------------------------

/// Thread ids unique over the whole trace (some viewers merge equal tids of different processes) and
/// never 0 (Perfetto reserves it for the idle thread): rank r's thread k is r * stride + k + 1, so
/// with one comm lane rank 0 has tids 1, 2 and rank 1 has 11, 12.
struct Tids {
  int stride = 10;
  [[nodiscard]] auto compute(int rank) const -> int { return rank * stride + 1; }
  [[nodiscard]] auto comm(int rank, int lane) const -> int { return rank * stride + 2 + lane; }
};

auto make_tids(int threads_per_rank) -> Tids {
  Tids tids;
  while (tids.stride <= threads_per_rank) tids.stride *= 10;
  return tids;
}

auto metadata(const char* name, int pid, int tid, ordered args) -> ordered {
  return {{"name", name}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", std::move(args)}};
}

void add_metadata(std::vector<ordered>& events, const std::vector<int>& comm_lanes, const Tids& tids) {
  for (int r = 0; r < static_cast<int>(comm_lanes.size()); ++r) {
    events.push_back(metadata("process_name", r, tids.compute(r), {{"name", "rank " + std::to_string(r)}}));
    events.push_back(metadata("process_sort_index", r, tids.compute(r), {{"sort_index", r}}));
    events.push_back(metadata("thread_name", r, tids.compute(r), {{"name", "compute"}}));
    events.push_back(metadata("thread_sort_index", r, tids.compute(r), {{"sort_index", 0}}));
    for (int lane = 0; lane < comm_lanes[static_cast<std::size_t>(r)]; ++lane) {
      const std::string name = lane == 0 ? "comm" : "comm " + std::to_string(lane + 1);
      events.push_back(metadata("thread_name", r, tids.comm(r, lane), {{"name", name}}));
      events.push_back(metadata("thread_sort_index", r, tids.comm(r, lane), {{"sort_index", lane + 1}}));
    }
  }
}

void add_chunk(ordered& args, const char* prefix, const Chunk& c) {
  const std::string p(prefix);
  args[p + "mb"] = c.mb;
  args[p + "phase"] = c.phase;
  args[p + "stage"] = c.stage;
}

/// A complete event ("X") over [start, end] in cost units.
auto slice(const std::string& name, const char* category, double start, double end, double scale, int pid, int tid,
           ordered args) -> ordered {
  return {{"name", name},           {"cat", category},  {"ph", "X"},   {"ts", number(start * scale)},
          {"dur", number((end - start) * scale)}, {"pid", pid}, {"tid", tid}, {"args", std::move(args)}};
}

void add_compute(std::vector<ordered>& events, const Run& run, double scale, const Tids& tids) {
  const Schedule& s = run.schedule;
  const std::string word = detail::phase_word(s);
  for (int r = 0; r < s.ranks(); ++r)
    for (int i = s.rank_begin[r]; i < s.rank_begin[r + 1]; ++i) {
      const auto ui = static_cast<std::size_t>(i);
      const Op& op = s.ops[ui];
      ordered args = {{"kind", std::string(kind_name(op.kind))}};
      add_chunk(args, "", op.chunk);
      if (op.kind == OpKind::FB) add_chunk(args, "b_", op.backward);
      args["rank"] = r;
      args["index"] = i - s.rank_begin[r];
      args["start"] = number(run.timeline.start[ui]);
      args["end"] = number(run.timeline.end[ui]);
      events.push_back(slice(detail::op_name(op, word), compute_category, run.timeline.start[ui], run.timeline.end[ui], scale, r,
                             tids.compute(r), std::move(args)));
    }
}

auto flow(const char* phase, const std::string& name, long long id, double ts, int pid, int tid) -> ordered {
  return {{"name", name}, {"cat", comm_category}, {"ph", phase}, {"id", id}, {"ts", number(ts)}, {"pid", pid}, {"tid", tid}};
}

// A flow binds to the slice on top of its thread's stack when a viewer reads it (Perfetto), or to the
// slice whose closed interval holds its timestamp (chrome://tracing). Lanes keep every transfer slice
// alone on its thread over [start, end], and at equal timestamps Perfetto reads slices before flow
// events, so the "s" lands on its send and the "f" at the transfer's end on its recv.
void add_transfers(std::vector<ordered>& events, const Run& run, const std::vector<Transfer>& transfers, double scale,
                   const Tids& tids) {
  const Schedule& s = run.schedule;
  const std::string word = detail::phase_word(s);
  for (std::size_t k = 0; k < transfers.size(); ++k) {
    const Transfer& t = transfers[k];
    const auto id = static_cast<long long>(k) + 1;
    const std::string what = detail::op_name(s.ops[static_cast<std::size_t>(t.producer)], word);
    const std::string flow_name = t.gradient ? "gradient" : "activation";
    const ordered args = {{"transfer", flow_name},
                          {"from_rank", t.from},
                          {"to_rank", t.to},
                          {"producer", what},
                          {"consumer", detail::op_name(s.ops[static_cast<std::size_t>(t.consumer)], word)},
                          {"flow", id},
                          {"start", number(t.start)},
                          {"end", number(t.end)}};
    const int send_tid = tids.comm(t.from, t.send_lane);
    const int recv_tid = tids.comm(t.to, t.recv_lane);
    events.push_back(slice("send " + what + " to rank " + std::to_string(t.to), comm_category, t.start, t.end, scale,
                           t.from, send_tid, args));
    events.push_back(flow("s", flow_name, id, t.start * scale, t.from, send_tid));
    events.push_back(slice("recv " + what + " from rank " + std::to_string(t.from), comm_category, t.start, t.end, scale,
                           t.to, recv_tid, args));
    ordered arrival = flow("f", flow_name, id, t.end * scale, t.to, recv_tid);
    arrival["bp"] = "e";  // bind to the enclosing recv slice, not to the next slice that starts
    events.push_back(std::move(arrival));
  }
}

auto other_data(const Run& run, double scale) -> ordered {
  const Schedule& s = run.schedule;
  const Costs& c = run.costs;
  return {{"generator", generator},
          {"schedule", s.name},
          {"title", std::string(run.spec->title)},
          {"ranks", s.ranks()},
          {"stages", s.layout.stages},
          {"directions", s.layout.directions},
          {"micro_batches", s.params.micro_batches},
          {"virtual_stages", s.params.virtual_stages},
          {"cost", {{"F", number(c.f)}, {"B", number(c.b)}, {"W", number(c.w)}, {"FB", number(c.fb)}, {"comm", number(c.comm)}}},
          {"makespan", number(run.metrics.makespan)},
          {"bubble_fraction", run.metrics.bubble_fraction},
          {"us_per_unit", number(scale)},
          {"time_unit", "ts and dur are microseconds: cost units x us_per_unit; args start/end are cost units"}};
}

// ---- import -----------------------------------------------------------------------------------------

constexpr const char* not_ours =
    "this Chrome trace was not written by pipesim (otherData.generator is not \"pipesim\"); pipesim reads back "
    "only traces from `simulate --format chrome-trace`";

/// A whole number in [lo, hi] at `key` of otherData.
/// `fallback` when absent; nullopt: required.
auto other_whole(const json& other, const char* key, int lo, int hi, std::optional<int> fallback) -> int {
  const auto it = other.find(key);
  if (it == other.end()) {
    if (fallback) return *fallback;
    throw Error(std::string("pipesim trace: otherData.") + key + " is missing");
  }
  if (!it->is_number_integer() || *it < lo || *it > hi)
    throw Error(std::string("pipesim trace: otherData.") + key + " must be a whole number from " + std::to_string(lo) +
                " to " + std::to_string(hi));
  return it->get<int>();
}

/// One compute event of the trace, before it is put in its rank's order.
struct ComputeEvent {
  double ts = 0;
  long long index = 0;  ///< the op's index on its rank; file position when absent
  json op;
};

/// The contract's op object for a compute event's args: an FB's forward half becomes f_mb, f_phase,
/// f_stage. Fields are copied as found; custom.cpp checks them like any JSON schedule.
auto contract_op(const json& args, const std::string& where) -> json {
  const auto kind = args.find("kind");
  if (kind == args.end() || !kind->is_string())
    throw Error(where + ": args.kind must be \"F\", \"B\", \"I\", \"W\" or \"FB\"");
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
  if (pid == event.end() || !pid->is_number_integer() || *pid < 0 || *pid >= ranks)
    throw Error(where + ": pid must be a rank from 0 to " + std::to_string(ranks - 1));
  const auto ts = event.find("ts");
  if (ts == event.end() || !ts->is_number()) throw Error(where + ": ts must be a number");
  const auto args = event.find("args");
  if (args == event.end() || !args->is_object()) throw Error(where + ": a compute event needs its args object");
  const auto index = args->find("index");
  const long long order = index != args->end() && index->is_number_integer() ? index->get<long long>()
                                                                             : static_cast<long long>(position);
  out[static_cast<std::size_t>(pid->get<int>())].push_back({ts->get<double>(), order, contract_op(*args, where)});
}

}  // namespace

auto to_chrome_trace(const Run& run, const TraceOptions& options) -> std::string {
  const double scale = options.us_per_unit;
  if (!std::isfinite(scale) || scale <= 0)
    throw Error("the trace's microseconds per cost unit must be a finite number > 0, got " + format_number(scale));
  const Schedule& s = run.schedule;
  const std::vector<int> rank_of = rank_of_ops(s);
  std::vector<Transfer> transfers = find_transfers(run, rank_of);
  // Flow ids in the order the sends happen, which is how a person reads the trace.
  std::stable_sort(transfers.begin(), transfers.end(), [](const Transfer& a, const Transfer& b) { return a.start < b.start; });
  const std::vector<int> lanes = assign_lanes(transfers, s.ranks());
  const Tids tids = make_tids(1 + *std::max_element(lanes.begin(), lanes.end()));
  std::vector<ordered> events;
  events.reserve(s.ops.size() + 4 * transfers.size() + 8 * lanes.size());
  add_metadata(events, lanes, tids);
  add_compute(events, run, scale, tids);
  add_transfers(events, run, transfers, scale, tids);
  // One event per line: still one JSON object, but a person can read and grep it.
  std::string out = "{\"traceEvents\":[\n";
  for (std::size_t k = 0; k < events.size(); ++k) out += events[k].dump() + (k + 1 < events.size() ? ",\n" : "\n");
  out += "],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":" + other_data(run, scale).dump() + "}\n";
  return out;
}

namespace detail {

auto is_chrome_trace(const json& j) -> bool { return j.is_object() && j.contains("traceEvents"); }

auto schedule_json_from_trace(const json& trace) -> json {
  const auto other = trace.find("otherData");
  if (other == trace.end() || !other->is_object() || !other->contains("generator") ||
      (*other)["generator"] != generator)
    throw Error(not_ours);
  const auto events = trace.find("traceEvents");
  if (!events->is_array()) throw Error("pipesim trace: traceEvents must be an array of events");
  const int ranks = other_whole(*other, "ranks", 1, 4096, std::nullopt);
  std::vector<std::vector<ComputeEvent>> per_rank(static_cast<std::size_t>(ranks));
  for (std::size_t k = 0; k < events->size(); ++k) {
    const json& event = (*events)[k];
    if (!event.is_object())
      throw Error("pipesim trace: traceEvents[" + std::to_string(k) + "] is not an object; every event is one");
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
