// The Chrome trace event format (Perfetto, chrome://tracing) written from a Run. Reading one back is
// the engine's (core/engine/src/trace_import.cpp: a custom schedule may be a trace); detail/trace_format.h
// holds what both sides must agree on.
#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <optional>
#include <queue>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "detail/export_names.h"
#include "detail/json_text.h"
#include "detail/json_writer.h"
#include "detail/trace_format.h"
#include "pipesim/error.h"
#include "pipesim/limits.h"
#include "pipesim/export.h"
#include "pipesim/reference.h"

namespace pipesim {

namespace {

using ordered = nlohmann::ordered_json;
using nlohmann::json;

using detail::JsonWriter;
using detail::trace_generator;
using detail::compute_category;
using detail::pid_of;
// Transfers and their flow arrows share one category: viewers pair a flow event with a slice of the
// same category (Chrome DevTools requires it), and Perfetto keys a flow on (id, category, name).
constexpr const char* comm_category = "comm";

auto number(double v) -> ordered { return detail::json_number(v); }

// ---- writing ----------------------------------------------------------------------------------------

/// The trace's event list: one event per line, still one JSON array, so a person can read and grep it.
class EventList {
 public:
  explicit EventList(detail::SinkBuffer& buffer) : buffer_(buffer), out_(buffer.text()), writer_(out_) {}

  /// A writer positioned for the next event, which the caller opens and closes.
  auto next() -> JsonWriter& {
    buffer_.flush_if_full();  // between events: the text written so far goes on to the sink
    if (count_++ != 0) out_ += ",\n";
    return writer_;
  }
  [[nodiscard]] auto empty() const -> bool { return count_ == 0; }

 private:
  detail::SinkBuffer& buffer_;
  std::string& out_;
  JsonWriter writer_;
  std::size_t count_ = 0;
};

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
  if (run.timing == Timing::reference) {  // the transfers as the reference program ran them
    const Timeline replayed = simulate_reference(s, run.stage_costs, run.sends, true);
    std::vector<Transfer> out;
    out.reserve(replayed.transfers.size());
    for (const TimedTransfer& t : replayed.transfers)
      out.push_back({t.producer, t.consumer, rank_of[static_cast<std::size_t>(t.producer)],
                     rank_of[static_cast<std::size_t>(t.consumer)], t.gradient, t.start, t.end});
    return out;
  }
  const std::vector<OpInputs> inputs = op_inputs(s);
  std::vector<Transfer> out;
  // A send crosses one stage boundary, whose latency is that of the stage before it (stage_costs.h).
  const auto add = [&](int producer, int consumer, bool gradient, int boundary) {
    if (producer < 0) return;
    const int from = rank_of[static_cast<std::size_t>(producer)];
    const int to = rank_of[static_cast<std::size_t>(consumer)];
    if (from == to) return;  // same rank: no send, the engine adds no comm
    const double sent = run.timeline.end[static_cast<std::size_t>(producer)];
    const double comm = run.stage_costs.stages[static_cast<std::size_t>(boundary)].comm;
    out.push_back({producer, consumer, from, to, gradient, sent, sent + comm});
  };
  for (int i = 0; i < static_cast<int>(s.ops.size()); ++i) {
    const Op& op = s.ops[static_cast<std::size_t>(i)];
    const OpInputs in = inputs[static_cast<std::size_t>(i)];
    // F and FB: the activation from the stage before; B, I: the gradient from the stage after.
    add(in.first, i, !has_forward(op.kind), has_forward(op.kind) ? op.chunk.stage - 1 : op.chunk.stage);
    add(in.second, i, true, op.backward.stage);  // FB's backward half
  }
  return out;
}

/// The comm lanes of one rank. Transfers arrive in order of start; each takes the lowest-numbered lane
/// whose last slice ended strictly before it starts, so slices on a lane neither overlap nor touch.
/// A lane that is free for one start stays free for every later one, so ended lanes move from a heap
/// of busy lanes (by end) to a heap of free lanes (by number): O(log lanes) per transfer.
class RankLanes {
 public:
  auto take(double start, double end) -> int {
    while (!busy_.empty() && busy_.top().first < start) {
      free_.push(busy_.top().second);
      busy_.pop();
    }
    if (free_.empty()) {
      busy_.emplace(end, count_);
      return count_++;
    }
    const int lane = free_.top();
    free_.pop();
    busy_.emplace(end, lane);
    return lane;
  }
  [[nodiscard]] auto count() const -> int { return count_; }

 private:
  using Busy = std::pair<double, int>;  // (end, lane)
  std::priority_queue<Busy, std::vector<Busy>, std::greater<>> busy_;
  std::priority_queue<int, std::vector<int>, std::greater<>> free_;
  int count_ = 0;
};

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
    RankLanes rank_lanes;
    for (const Slot& slot : slots) {
      Transfer& t = transfers[slot.transfer];
      (slot.send ? t.send_lane : t.recv_lane) = rank_lanes.take(t.start, t.end);
    }
    lanes.push_back(std::max(1, rank_lanes.count()));
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

/// A metadata event ("M") naming or ordering a process or thread; `key` is "name" or "sort_index".
void metadata(EventList& events, const char* name, int pid, int tid, const char* key, const std::string& value) {
  events.next().open().text("name", name).text("ph", "M").whole("pid", pid).whole("tid", tid).open("args").text(key, value)
      .close().close();
}

void metadata(EventList& events, const char* name, int pid, int tid, const char* key, int value) {
  events.next().open().text("name", name).text("ph", "M").whole("pid", pid).whole("tid", tid).open("args").whole(key, value)
      .close().close();
}

void add_metadata(EventList& events, const std::vector<int>& comm_lanes, const Tids& tids, bool waits) {
  for (int r = 0; r < static_cast<int>(comm_lanes.size()); ++r) {
    const int pid = pid_of(r);
    if (waits) {  // the reference timing's waits, on a comm thread after the transfer lanes
      const int tid = tids.comm(r, comm_lanes[static_cast<std::size_t>(r)]);
      metadata(events, "thread_name", pid, tid, "name", "comm waits");
      metadata(events, "thread_sort_index", pid, tid, "sort_index", comm_lanes[static_cast<std::size_t>(r)] + 1);
    }
    metadata(events, "process_name", pid, tids.compute(r), "name", "rank " + std::to_string(r));
    metadata(events, "process_sort_index", pid, tids.compute(r), "sort_index", r);
    metadata(events, "thread_name", pid, tids.compute(r), "name", "compute");
    metadata(events, "thread_sort_index", pid, tids.compute(r), "sort_index", 0);
    for (int lane = 0; lane < comm_lanes[static_cast<std::size_t>(r)]; ++lane) {
      const std::string name = lane == 0 ? "comm" : "comm " + std::to_string(lane + 1);
      metadata(events, "thread_name", pid, tids.comm(r, lane), "name", name);
      metadata(events, "thread_sort_index", pid, tids.comm(r, lane), "sort_index", lane + 1);
    }
  }
}

void add_chunk(JsonWriter& args, const char* prefix, const Chunk& c) {
  const std::string p(prefix);
  args.whole(p + "mb", c.mb).whole(p + "phase", c.phase).whole(p + "stage", c.stage);
}

/// Opens a complete event ("X") over [start, end] in cost units; the caller writes its args and closes
/// both objects.
auto open_slice(EventList& events, const std::string& name, const char* category, double start, double end, double scale,
                int pid, int tid) -> JsonWriter& {
  return events.next()
      .open()
      .text("name", name)
      .text("cat", category)
      .text("ph", "X")
      .number("ts", start * scale)
      .number("dur", (end - start) * scale)
      .whole("pid", pid)
      .whole("tid", tid)
      .open("args");
}

void add_compute(EventList& events, const Run& run, double scale, const Tids& tids) {
  const Schedule& s = run.schedule;
  const std::string word = detail::phase_word(s);
  for (int r = 0; r < s.ranks(); ++r)
    for (int i = s.rank_begin[r]; i < s.rank_begin[r + 1]; ++i) {
      const auto ui = static_cast<std::size_t>(i);
      const Op& op = s.ops[ui];
      const double start = run.timeline.start[ui];
      const double end = run.timeline.end[ui];
      JsonWriter& args = open_slice(events, detail::op_name(op, word), compute_category, start, end, scale, pid_of(r), tids.compute(r));
      args.text("kind", kind_name(op.kind));
      add_chunk(args, "", op.chunk);
      if (op.kind == OpKind::FB) add_chunk(args, "b_", op.backward);
      args.whole("rank", r).whole("index", i - s.rank_begin[r]).number("start", start).number("end", end).close().close();
    }
}

/// The reference timing's waits: before each op that started later than its rank was free, one slice
/// per layer of OpWait (the receives it consumes, then receives it does not, then sends), named by
/// that layer, on the rank's "comm waits" thread. The last layer's slice names the request it ended on.
void add_waits(EventList& events, const Run& run, double scale, const Tids& tids, const std::vector<int>& lanes) {
  const Schedule& s = run.schedule;
  const std::string word = detail::phase_word(s);
  for (int r = 0; r < s.ranks(); ++r) {
    const int tid = tids.comm(r, lanes[static_cast<std::size_t>(r)]);
    for (int i = s.rank_begin[r]; i < s.rank_begin[r + 1]; ++i) {
      const OpWait& w = run.timeline.waits[static_cast<std::size_t>(i)];
      const double start = run.timeline.start[static_cast<std::size_t>(i)];
      const std::array<std::pair<const char*, double>, 3> layers = {
          {{"used receive", w.used_receive}, {"unused receive", w.unused_receive}, {"send", w.send}}};
      double at = start - w.total();
      const std::string op = detail::op_name(s.ops[static_cast<std::size_t>(i)], word);
      for (const auto& [reason, length] : layers) {
        if (length <= 0) continue;
        JsonWriter& args = open_slice(events, "wait: " + std::string(reason) + " before " + op, comm_category, at,
                                      at + length, scale, pid_of(r), tid);
        args.text("reason", reason).text("op", op).number("wait", length);
        if (w.on.action != CommAction::compute)
          args.text("ended_on", std::to_string(w.on.chunk.stage) + std::string(comm_action_name(w.on.action)) +
                                    std::to_string(w.on.chunk.mb))
              .whole("peer", w.peer);
        args.close().close();
        at += length;
      }
    }
  }
}

/// A flow event ("s" or "f"), left open for an optional binding point.
auto open_flow(EventList& events, const char* phase, const std::string& name, long long id, double ts, int pid, int tid)
    -> JsonWriter& {
  return events.next()
      .open()
      .text("name", name)
      .text("cat", comm_category)
      .text("ph", phase)
      .whole("id", id)
      .number("ts", ts)
      .whole("pid", pid)
      .whole("tid", tid);
}

/// The args of both slices of a transfer.
struct TransferArgs {
  std::string flow_name;
  std::string producer;
  std::string consumer;

  void write(JsonWriter& args, const Transfer& t, long long id) const {
    args.text("transfer", flow_name)
        .whole("from_rank", t.from)
        .whole("to_rank", t.to)
        .text("producer", producer)
        .text("consumer", consumer)
        .whole("flow", id)
        .number("start", t.start)
        .number("end", t.end)
        .close()
        .close();
  }
};

// A flow binds to the slice on top of its thread's stack when a viewer reads it (Perfetto), or to the
// slice whose closed interval holds its timestamp (chrome://tracing). Lanes keep every transfer slice
// alone on its thread over [start, end], and at equal timestamps Perfetto reads slices before flow
// events, so the "s" lands on its send and the "f" at the transfer's end on its recv.
void add_transfers(EventList& events, const Run& run, const std::vector<Transfer>& transfers, double scale,
                   const Tids& tids) {
  const Schedule& s = run.schedule;
  const std::string word = detail::phase_word(s);
  for (std::size_t k = 0; k < transfers.size(); ++k) {
    const Transfer& t = transfers[k];
    const auto id = static_cast<long long>(k) + 1;
    const TransferArgs args{t.gradient ? "gradient" : "activation",
                            detail::op_name(s.ops[static_cast<std::size_t>(t.producer)], word),
                            detail::op_name(s.ops[static_cast<std::size_t>(t.consumer)], word)};
    const int send_tid = tids.comm(t.from, t.send_lane);
    const int recv_tid = tids.comm(t.to, t.recv_lane);
    args.write(open_slice(events, "send " + args.producer + " to rank " + std::to_string(t.to), comm_category, t.start,
                          t.end, scale, pid_of(t.from), send_tid),
               t, id);
    open_flow(events, "s", args.flow_name, id, t.start * scale, pid_of(t.from), send_tid).close();
    args.write(open_slice(events, "recv " + args.producer + " from rank " + std::to_string(t.from), comm_category,
                          t.start, t.end, scale, pid_of(t.to), recv_tid),
               t, id);
    // bp "e": bind to the enclosing recv slice, not to the next slice that starts
    open_flow(events, "f", args.flow_name, id, t.end * scale, pid_of(t.to), recv_tid).text("bp", "e").close();
  }
}

auto other_data(const Run& run, double scale) -> ordered {
  const Schedule& s = run.schedule;
  const Costs& c = run.costs;
  return {{"generator", trace_generator},
          {"schedule", s.name},
          {"title", std::string(run.spec->texts.en.title)},
          {"ranks", s.ranks()},
          {"stages", s.layout.stages},
          {"directions", s.layout.directions},
          {"micro_batches", s.params.micro_batches},
          {"virtual_stages", s.params.virtual_stages},
          {"cost", {{"F", number(c.f)}, {"B", number(c.b)}, {"W", number(c.w)}, {"FB", number(c.fb)}, {"comm", number(c.comm)}}},
          {"makespan", number(run.metrics.makespan)},
          {"timing", std::string(timing_name(run.timing))},
          {"bubble_fraction", run.metrics.bubble_fraction},
          {"us_per_unit", number(scale)},
          {"time_unit", "ts and dur are microseconds: cost units x us_per_unit; args start/end are cost units"}};
}

}  // namespace

void write_chrome_trace(const Run& run, TextSink& sink, const TraceOptions& options) {
  const double scale = options.us_per_unit;
  if (!std::isfinite(scale) || scale <= 0)
    throw Error(ErrorCode::bad_value, "the trace's microseconds per cost unit must be a finite number > 0, got " + format_number(scale),
                {"trace.us_per_unit", {{"value", format_number(scale)}}});
  const Schedule& s = run.schedule;
  const std::vector<int> rank_of = rank_of_ops(s);
  std::vector<Transfer> transfers = find_transfers(run, rank_of);
  // Flow ids in the order the sends happen, which is how a person reads the trace.
  std::stable_sort(transfers.begin(), transfers.end(), [](const Transfer& a, const Transfer& b) { return a.start < b.start; });
  const std::vector<int> lanes = assign_lanes(transfers, s.ranks());
  const bool waits = run.timing == Timing::reference;
  const Tids tids = make_tids(1 + *std::max_element(lanes.begin(), lanes.end()) + (waits ? 1 : 0));
  detail::SinkBuffer buffer(sink);
  // An event per op and per transfer (each a send and a receive slice and their flow): the metadata
  // and the waits are few beside them.
  buffer.expect_records(s.ops.size() + 4 * transfers.size());
  std::string& out = buffer.text();
  out += "{\"traceEvents\":[\n";
  EventList events(buffer);
  add_metadata(events, lanes, tids, waits);
  add_compute(events, run, scale, tids);
  add_transfers(events, run, transfers, scale, tids);
  if (waits) add_waits(events, run, scale, tids, lanes);
  if (!events.empty()) out += "\n";
  // otherData is a few fields: a tree is the simplest way to write it.
  out += "],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":" + other_data(run, scale).dump() + "}\n";
  buffer.flush();
}

auto to_chrome_trace(const Run& run, const TraceOptions& options) -> std::string {
  StringSink out;
  write_chrome_trace(run, out, options);
  return out.take();
}

}  // namespace pipesim
