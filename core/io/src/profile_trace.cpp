// The PyTorch profiler trace reader: a SAX handler that keeps kernels, launches, annotations and the
// rank, and the kernel -> annotation attribution rule. The format is described in profile_trace.h.
#include "pipesim/profile_trace.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "pipesim/error.h"
#include "pipesim/limits.h"

namespace pipesim {

namespace {

enum class Category : std::uint8_t { other, kernel, launch, annotation, flow, profiler_other };

auto category_of(std::string_view cat) -> Category {
  if (cat == "kernel") return Category::kernel;
  if (cat == "cuda_runtime" || cat == "cuda_driver") return Category::launch;
  if (cat == "user_annotation") return Category::annotation;
  if (cat == "ac2g") return Category::flow;
  // Categories only the profiler writes: enough to recognise a trace with no kernels at all.
  if (cat == "cpu_op" || cat == "python_function" || cat == "gpu_memcpy" || cat == "gpu_memset" ||
      cat == "gpu_user_annotation" || cat == "cpu_instant_event" || cat == "fwdbwd")
    return Category::profiler_other;
  return Category::other;
}

auto lowercase(std::string_view s) -> std::string {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// An id that is a number or a string (Kineto writes "Spans", "Traces"): strings get negative ids.
class Interner {
 public:
  auto id(const std::string& s) -> std::int64_t {
    const auto [it, added] = ids_.try_emplace(s, -static_cast<std::int64_t>(ids_.size()) - 1);
    return it->second;
  }

 private:
  std::unordered_map<std::string, std::int64_t> ids_;
};

/// The fields of one traceEvents entry that pipesim reads.
struct RawEvent {
  std::string ph;
  std::string cat;
  std::string name;
  std::optional<std::int64_t> pid, tid, id;
  std::optional<double> ts, dur;
  bool bad_time = false;  // ts or dur present but not a number
  std::optional<std::int64_t> correlation, stream, device;
};

class Reader : public nlohmann::json_sax<nlohmann::json> {
 public:
  ProfileTrace trace;
  bool saw_events_array = false;
  bool traceevents_not_array = false;
  bool top_not_object = false;
  bool profiler_marks = false;  // schemaVersion, deviceProperties, distributedInfo, profiler categories
  bool pipesim_export = false;

  auto null() -> bool override { return value_bad_time(); }
  auto boolean(bool) -> bool override { return value_bad_time(); }
  auto number_integer(number_integer_t v) -> bool override { return number(static_cast<double>(v), v); }
  auto number_unsigned(number_unsigned_t v) -> bool override {
    return number(static_cast<double>(v), v > static_cast<number_unsigned_t>(INT64_MAX) ? std::nullopt
                                                                                        : std::optional<std::int64_t>(static_cast<std::int64_t>(v)));
  }
  auto number_float(number_float_t v, const string_t&) -> bool override { return number(v, std::nullopt); }
  auto string(string_t& s) -> bool override {
    if (depth_ == 1 && top_key_ == "traceEvents") traceevents_not_array = true;
    if (depth_ == 3 && in_event()) {
      if (key_ == "ph") event_.ph = s;
      else if (key_ == "cat") event_.cat = s;
      else if (key_ == "name") event_.name = s;
      else if (key_ == "pid") event_.pid = interner_.id(s);
      else if (key_ == "tid") event_.tid = interner_.id(s);
      else if (key_ == "ts" || key_ == "dur") event_.bad_time = true;
    } else if (depth_ == 2 && top_key_ == "otherData" && key_ == "generator" && s == "pipesim") {
      pipesim_export = true;
    }
    return true;
  }
  auto binary(binary_t&) -> bool override { return true; }

  auto start_object(std::size_t) -> bool override {
    if (depth_ == 0) top_started_ = true;
    if (depth_ == 1 && top_key_ == "traceEvents") traceevents_not_array = true;
    if (depth_ == 2 && in_events_) {
      event_ = RawEvent{};
      event_open_ = true;
    }
    ++depth_;
    if (depth_ == 4 && in_event() && key_ == "args") in_args_ = true;
    key_.clear();
    return true;
  }
  auto end_object() -> bool override {
    --depth_;
    if (depth_ == 3) in_args_ = false;
    if (depth_ == 2 && event_open_) {
      finish_event();
      event_open_ = false;
    }
    return true;
  }
  auto start_array(std::size_t) -> bool override {
    if (depth_ == 0) top_not_object = true;
    if (depth_ == 1 && top_key_ == "traceEvents") {
      in_events_ = true;
      saw_events_array = true;
    }
    if (depth_ == 3 && in_event() && (key_ == "ts" || key_ == "dur")) event_.bad_time = true;
    ++depth_;
    return true;
  }
  auto end_array() -> bool override {
    --depth_;
    if (depth_ == 1) in_events_ = false;
    return true;
  }
  auto key(string_t& k) -> bool override {
    if (depth_ == 1) {
      top_key_ = k;
      if (k == "schemaVersion" || k == "deviceProperties" || k == "distributedInfo") profiler_marks = true;
    }
    key_ = k;
    return true;
  }
  auto parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) -> bool override {
    std::string why = e.what();
    // nlohmann's text is "[json.exception.parse_error.101] parse error at line 1, column 5: ...".
    if (const auto at = why.find("] "); at != std::string::npos) why = why.substr(at + 2);
    // The parser's own detail stays English; another language words the byte and the truncation.
    const bool at_end = position + 1 >= text_size_;
    throw Error(ErrorCode::bad_import, "the profiler trace is not valid JSON (byte " + std::to_string(position) +
                                           (at_end ? ", the end of the file: is it truncated?" : "") + "): " + why,
                {at_end ? "profile_trace.truncated" : "profile_trace.not_json", {{"byte", std::to_string(position)}}});
  }

  std::size_t text_size_ = 0;

 private:
  [[nodiscard]] auto in_event() const -> bool { return in_events_ && event_open_; }

  auto value_bad_time() -> bool {
    if (depth_ == 1 && top_key_ == "traceEvents") traceevents_not_array = true;
    if (depth_ == 3 && in_event() && (key_ == "ts" || key_ == "dur")) event_.bad_time = true;
    return true;
  }

  auto number(double v, std::optional<std::int64_t> whole) -> bool {
    if (depth_ == 1) {
      if (top_key_ == "traceEvents") traceevents_not_array = true;
      if (top_key_ == "baseTimeNanoseconds" && whole) trace.base_ns = *whole;
      return true;
    }
    if (depth_ == 2 && top_key_ == "distributedInfo" && whole && *whole >= 0 && *whole <= INT32_MAX) {
      if (key_ == "rank") trace.rank = static_cast<int>(*whole);
      if (key_ == "world_size") trace.world_size = static_cast<int>(*whole);
      return true;
    }
    if (!in_event()) return true;
    if (depth_ == 3) {
      if (key_ == "ts") event_.ts = v;
      else if (key_ == "dur") event_.dur = v;
      else if (key_ == "pid") event_.pid = whole.value_or(0);
      else if (key_ == "tid") event_.tid = whole.value_or(0);
      else if (key_ == "id") event_.id = whole;
    } else if (depth_ == 4 && in_args_ && whole) {
      if (key_ == "correlation") event_.correlation = whole;
      else if (key_ == "stream") event_.stream = whole;
      else if (key_ == "device") event_.device = whole;
    }
    return true;
  }

  /// `category` is the event's cat as the profiler writes it (kernel, cuda_runtime, user_annotation).
  [[noreturn]] void refuse_event(const char* what, const char* category) const {
    const std::string index = std::to_string(trace.events - 1);
    throw Error(ErrorCode::bad_import, "traceEvents[" + index + "]: " + what + " needs a finite number ts and a finite number dur >= 0",
                {"profile_trace.event_time", {{"index", index}, {"category", category}}});
  }

  /// Times relative to the first timestamp of the file (see ProfileTrace::origin_us).
  auto relative(double ts) -> double {
    if (!origin_set_) {
      trace.origin_us = ts;
      origin_set_ = true;
    }
    return ts - trace.origin_us;
  }

  void finish_event() {
    if (++trace.events > limits::max_profile_trace_events)
      throw Error(ErrorCode::limit_exceeded,
                  "a profiler trace may hold at most " + std::to_string(limits::max_profile_trace_events) + " events (traceEvents entries)",
                  {"profile_trace.too_many_events", {{"max", std::to_string(limits::max_profile_trace_events)}}});
    const Category cat = category_of(event_.cat);
    if (cat != Category::other) profiler_marks = true;
    const bool complete = event_.ph == "X";
    const TraceThread thread{event_.pid.value_or(0), event_.tid.value_or(0)};
    const auto timed = [&](const char* what, const char* category) {
      if (event_.bad_time || !event_.ts || !event_.dur || !std::isfinite(*event_.ts) || !std::isfinite(*event_.dur) || *event_.dur < 0)
        refuse_event(what, category);
    };
    if (complete && cat == Category::kernel) {
      timed("a kernel event", "kernel");
      const double start = relative(*event_.ts);
      TraceKernel k;
      k.start = start;
      k.end = start + *event_.dur;
      k.device = event_.device.value_or(thread.pid);
      k.stream = event_.stream.value_or(thread.tid);
      k.correlation = event_.correlation.value_or(-1);
      k.communication_name = is_communication_kernel(event_.name);
      if (k.correlation < 0) kernel_at_[{thread, *event_.ts}] = trace.kernels.size();
      trace.kernels.push_back(k);
    } else if (complete && cat == Category::launch) {
      timed("a CUDA runtime event", "cuda_runtime");
      const double at = relative(*event_.ts);
      if (event_.correlation) trace.launches.push_back({*event_.correlation, thread, at});
    } else if (complete && cat == Category::annotation) {
      timed("a user_annotation event", "user_annotation");
      const double start = relative(*event_.ts);
      std::string name = event_.name.substr(0, limits::max_trace_name_chars);
      trace.annotations.push_back({std::move(name), thread, start, start + *event_.dur});
    } else if (cat == Category::flow && event_.id && event_.ts && std::isfinite(*event_.ts)) {
      if (event_.ph == "s") flow_start_[*event_.id] = {*event_.id, thread, relative(*event_.ts)};
      else if (event_.ph == "f") flow_end_.push_back({*event_.id, thread, *event_.ts});
    } else {
      if (event_.ts && std::isfinite(*event_.ts)) relative(*event_.ts);
      ++trace.ignored;
    }
  }

 public:
  /// Links kernels without args.correlation to their launch through the ac2g flows, which end at the
  /// kernel's own pid, tid and ts.
  void link_flows() {
    for (const FlowEnd& f : flow_end_) {
      const auto kernel = kernel_at_.find({f.thread, f.ts});
      if (kernel == kernel_at_.end()) continue;
      const auto start = flow_start_.find(f.id);
      if (start == flow_start_.end()) continue;
      TraceKernel& k = trace.kernels[kernel->second];
      if (k.correlation >= 0) continue;
      k.correlation = f.id;
      // The flow's start is the launch: record it under the flow's id if the runtime event lacked one.
      if (!find_launch_unsorted(f.id)) extra_launches_.push_back(start->second);
    }
    for (const TraceLaunch& l : extra_launches_) trace.launches.push_back(l);
    std::stable_sort(trace.launches.begin(), trace.launches.end(),
                     [](const TraceLaunch& a, const TraceLaunch& b) { return a.correlation < b.correlation; });
    for (const TraceKernel& k : trace.kernels)
      if (k.correlation < 0) ++trace.unlinked_kernels;
  }

 private:
  struct FlowEnd {
    std::int64_t id;
    TraceThread thread;
    double ts;
  };
  [[nodiscard]] auto find_launch_unsorted(std::int64_t id) -> bool {
    if (correlations_.empty())
      for (const TraceLaunch& l : trace.launches) correlations_.insert(l.correlation);
    return correlations_.count(id) != 0;
  }

  std::size_t depth_ = 0;
  bool top_started_ = false;
  bool in_events_ = false;
  bool event_open_ = false;
  bool in_args_ = false;
  bool origin_set_ = false;
  std::string top_key_;
  std::string key_;
  RawEvent event_;
  Interner interner_;
  std::map<std::pair<TraceThread, double>, std::size_t> kernel_at_;  // unlinked kernels by where they start
  std::unordered_map<std::int64_t, TraceLaunch> flow_start_;
  std::vector<FlowEnd> flow_end_;
  std::vector<TraceLaunch> extra_launches_;
  std::unordered_set<std::int64_t> correlations_;
};

}  // namespace

auto is_communication_kernel(std::string_view name) -> bool {
  static constexpr std::array<std::string_view, 14> words{
      "nccl",     "::ep::",     "alltoall",   "all_to_all", "all2all", "allgather", "all_gather",
      "reducescatter", "reduce_scatter", "allreduce", "all_reduce", "sendrecv", "dispatch", "combine"};
  const std::string lower = lowercase(name.substr(0, 512));
  for (std::string_view w : words)
    if (lower.find(w) != std::string::npos) return true;
  return lower.find("notify") != std::string::npos || lower.find("send") != std::string::npos ||
         lower.find("recv") != std::string::npos;
}

auto read_profile_trace(std::string_view text) -> ProfileTrace {
  if (text.size() > limits::max_profile_trace_bytes)
    throw Error(ErrorCode::limit_exceeded,
                "a profiler trace may be at most " + std::to_string(limits::max_profile_trace_bytes >> 20) + " MiB (got " +
                    std::to_string(text.size() >> 20) + " MiB)",
                {"profile_trace.too_large",
                 {{"max", std::to_string(limits::max_profile_trace_bytes >> 20)}, {"value", std::to_string(text.size() >> 20)}}});
  Reader reader;
  reader.text_size_ = text.size();
  nlohmann::json::sax_parse(text, &reader);
  const char* expected = "a PyTorch profiler trace is a JSON object with a traceEvents array (torch.profiler export_chrome_trace)";
  if (reader.top_not_object)
    throw Error(ErrorCode::bad_import, std::string("not a profiler trace: the JSON is an array; ") + expected, {"profile_trace.top_array", {}});
  if (reader.pipesim_export)
    throw Error(ErrorCode::bad_import, "this is a Chrome trace that pipesim wrote, not a PyTorch profiler trace: read it with "
                                       "`pipesim simulate --schedule-file`",
                {"profile_trace.pipesim_export", {}});
  if (reader.traceevents_not_array)
    throw Error(ErrorCode::bad_import, std::string("not a profiler trace: traceEvents is not an array; ") + expected,
                {"profile_trace.events_not_array", {}});
  if (!reader.saw_events_array)
    throw Error(ErrorCode::bad_import, std::string("not a profiler trace: no traceEvents; ") + expected, {"profile_trace.no_events", {}});
  if (!reader.profiler_marks)
    throw Error(ErrorCode::bad_import, "not a PyTorch profiler trace: no schemaVersion, distributedInfo or deviceProperties and no "
                                       "profiler event (cat kernel, cuda_runtime, user_annotation, cpu_op)",
                {"profile_trace.no_profiler_marks", {}});
  reader.link_flows();
  return std::move(reader.trace);
}

auto find_launch(const ProfileTrace& trace, std::int64_t correlation) -> const TraceLaunch* {
  const auto it = std::lower_bound(trace.launches.begin(), trace.launches.end(), correlation,
                                   [](const TraceLaunch& l, std::int64_t c) { return l.correlation < c; });
  return it != trace.launches.end() && it->correlation == correlation ? &*it : nullptr;
}

namespace {

/// The wanted annotations of each thread, by start time, to find the one around a moment.
class AnnotationIndex {
 public:
  AnnotationIndex(const ProfileTrace& trace, const std::vector<bool>& wanted) : trace_(trace) {
    for (std::size_t i = 0; i < trace.annotations.size(); ++i)
      if (wanted[i]) by_thread_[trace.annotations[i].thread].push_back(static_cast<int>(i));
    for (auto& [thread, list] : by_thread_)
      std::stable_sort(list.begin(), list.end(), [&](int a, int b) { return start(a) < start(b); });
  }

  /// The latest-starting wanted annotation on `thread` around `time`, or -1. Annotations of one kind
  /// rarely nest, so a few steps back from the last one started suffice.
  [[nodiscard]] auto around(const TraceThread& thread, double time) const -> int {
    const auto it = by_thread_.find(thread);
    if (it == by_thread_.end()) return -1;
    const std::vector<int>& list = it->second;
    auto pos = std::upper_bound(list.begin(), list.end(), time, [&](double t, int a) { return t < start(a); });
    for (int steps = 0; pos != list.begin() && steps < 16; ++steps) {
      --pos;
      if (time <= trace_.annotations[static_cast<std::size_t>(*pos)].end) return *pos;
    }
    return -1;
  }

  /// The shortest wanted annotation around `time` on any thread of `pid` other than `except`.
  [[nodiscard]] auto around_elsewhere(const TraceThread& except, double time) const -> int {
    int best = -1;
    for (const auto& [thread, list] : by_thread_) {
      if (thread.pid != except.pid || thread == except) continue;
      const int a = around(thread, time);
      if (a >= 0 && (best < 0 || length(a) < length(best))) best = a;
    }
    return best;
  }

 private:
  [[nodiscard]] auto start(int a) const -> double { return trace_.annotations[static_cast<std::size_t>(a)].start; }
  [[nodiscard]] auto length(int a) const -> double {
    const TraceAnnotation& x = trace_.annotations[static_cast<std::size_t>(a)];
    return x.end - x.start;
  }
  const ProfileTrace& trace_;
  std::map<TraceThread, std::vector<int>> by_thread_;
};

}  // namespace

auto attribute_kernels_masked(const ProfileTrace& trace, const std::vector<bool>& wanted) -> std::vector<KernelOwner> {
  const AnnotationIndex index(trace, wanted);
  std::vector<KernelOwner> owners(trace.kernels.size());
  for (std::size_t i = 0; i < trace.kernels.size(); ++i) {
    const TraceKernel& k = trace.kernels[i];
    const TraceLaunch* launch = k.correlation >= 0 ? find_launch(trace, k.correlation) : nullptr;
    if (!launch) continue;
    if (const int a = index.around(launch->thread, launch->time); a >= 0) owners[i] = {a, Attribution::launch};
    else if (const int b = index.around_elsewhere(launch->thread, launch->time); b >= 0) owners[i] = {b, Attribution::other_thread};
  }
  // Kernels with no launch at all follow the kernel before them on their stream.
  std::vector<std::size_t> order(trace.kernels.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const TraceKernel& x = trace.kernels[a];
    const TraceKernel& y = trace.kernels[b];
    if (x.device != y.device) return x.device < y.device;
    if (x.stream != y.stream) return x.stream < y.stream;
    return x.start < y.start;
  });
  for (std::size_t n = 1; n < order.size(); ++n) {
    const TraceKernel& k = trace.kernels[order[n]];
    const TraceKernel& before = trace.kernels[order[n - 1]];
    const bool no_launch = k.correlation < 0 || find_launch(trace, k.correlation) == nullptr;
    if (!no_launch || before.device != k.device || before.stream != k.stream) continue;
    const KernelOwner& prior = owners[order[n - 1]];
    if (prior.annotation >= 0) owners[order[n]] = {prior.annotation, Attribution::stream_order};
  }
  return owners;
}

auto union_of(std::vector<Interval>& intervals) -> std::vector<Interval> {
  std::sort(intervals.begin(), intervals.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
  std::vector<Interval> out;
  for (const Interval& i : intervals) {
    if (i.end <= i.start) continue;
    if (!out.empty() && i.start <= out.back().end) out.back().end = std::max(out.back().end, i.end);
    else out.push_back(i);
  }
  return out;
}

auto union_length(std::vector<Interval>& intervals) -> double {
  double total = 0;
  for (const Interval& i : union_of(intervals)) total += i.end - i.start;
  return total;
}

auto overlap_length(const std::vector<Interval>& a, const std::vector<Interval>& b) -> double {
  double total = 0;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    total += std::max(0.0, std::min(a[i].end, b[j].end) - std::max(a[i].start, b[j].start));
    if (a[i].end < b[j].end) ++i;
    else ++j;
  }
  return total;
}

}  // namespace pipesim
