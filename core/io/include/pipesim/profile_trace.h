#pragma once
// Reading a PyTorch profiler trace (torch.profiler's `export_chrome_trace`, Kineto's JSON): the GPU
// kernels, the CUDA runtime calls that launched them, the `record_function` ranges around the
// launches, and the rank. Everything else in the file is counted and dropped.
//
// The format ([K] github.com/pytorch/kineto, libkineto/src/output_json.cpp; [PD]
// github.com/deepseek-ai/profile-data, train.json): one JSON object with `traceEvents`, an array of
// Chrome-trace events. What pipesim reads of it:
//   * `ph` "X", `cat` "kernel": a kernel on a GPU; `pid` the device, `args.stream` its CUDA stream,
//     `args.correlation` the id of the runtime call that launched it;
//   * `ph` "X", `cat` "cuda_runtime" or "cuda_driver": a launch on a CPU thread (`pid`, `tid`), with the
//     same `args.correlation`;
//   * `ph` "s" / "f", `cat` "ac2g": a flow from a launch (s, at the launch's pid, tid, ts) to its
//     kernel (f, at the kernel's pid, tid, ts) sharing one `id`: the link when `args.correlation` is
//     missing;
//   * `ph` "X", `cat` "user_annotation": a `record_function` range on a CPU thread;
//   * top-level `distributedInfo.rank` and `.world_size`, and `baseTimeNanoseconds`, which newer
//     Kineto versions subtract from every `ts` (so ranks with different bases still share a clock).
// Timestamps and durations are microseconds, integers or floats. `pid` and `tid` may be numbers or
// strings (Kineto's "Spans", "Traces" rows). Unknown categories, phases and fields are tolerated.
//
// The reader streams (a SAX parse): it keeps a few numbers per kept event and never the document, so
// a trace of millions of events costs memory in proportion to its kernels and annotations only.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pipesim {

/// A CPU thread or GPU row: the trace's `pid` and `tid`, strings interned to negative ids.
struct TraceThread {
  std::int64_t pid = 0;
  std::int64_t tid = 0;
  friend auto operator==(const TraceThread&, const TraceThread&) -> bool = default;
  friend auto operator<(const TraceThread& a, const TraceThread& b) -> bool {
    return a.pid != b.pid ? a.pid < b.pid : a.tid < b.tid;
  }
};

/// One GPU kernel, in microseconds after the trace's origin_us.
struct TraceKernel {
  double start = 0;
  double end = 0;
  std::int64_t device = 0;             ///< `args.device`, else the event's pid
  std::int64_t stream = 0;             ///< `args.stream`, else the event's tid
  std::int64_t correlation = -1;       ///< `args.correlation`, else the ac2g flow's id, else -1
  bool communication_name = false;     ///< its name reads as communication (is_communication_kernel)
};

/// A CUDA runtime or driver call that launched something: where and when, by its correlation id.
struct TraceLaunch {
  std::int64_t correlation = 0;
  TraceThread thread;
  double time = 0;
};

/// A `record_function` range (cat "user_annotation") on a CPU thread.
struct TraceAnnotation {
  std::string name;  ///< cut to limits::max_trace_name_chars
  TraceThread thread;
  double start = 0;
  double end = 0;
};

/// What was kept of one trace. Times are microseconds after `origin_us`, the file's first timestamp,
/// so that differences stay exact even when the file's clock reads 1.7e15 (Unix-epoch microseconds).
struct ProfileTrace {
  double origin_us = 0;           ///< the first `ts` of the file, as written
  std::int64_t base_ns = 0;       ///< baseTimeNanoseconds, 0 when absent
  std::optional<int> rank;        ///< distributedInfo.rank
  std::optional<int> world_size;  ///< distributedInfo.world_size
  std::vector<TraceKernel> kernels;          ///< in file order
  std::vector<TraceLaunch> launches;         ///< sorted by correlation
  std::vector<TraceAnnotation> annotations;  ///< in file order
  std::size_t events = 0;                    ///< every entry of traceEvents
  std::size_t ignored = 0;                   ///< entries of other kinds (cpu_op, memcpy, metadata, ...)
  std::size_t unlinked_kernels = 0;          ///< kernels with no correlation and no flow
};

/// True when a kernel's name reads as communication: NCCL, DeepEP (`::ep::`), all-to-all, all-gather,
/// reduce-scatter, all-reduce, send/recv, and the words dispatch, combine, notify (case-insensitive).
[[nodiscard]] auto is_communication_kernel(std::string_view name) -> bool;

/// Parses one profiler trace. Throws Error (bad_import) with one line when the text is not JSON (with
/// the byte where it breaks, so a truncated file says so), is not a profiler trace (no traceEvents
/// array, a pipesim export, nothing a profiler writes), or holds a kernel, launch or annotation without
/// a finite `ts` and `dur` >= 0 (naming the event's index); limit_exceeded past
/// limits::max_profile_trace_bytes or limits::max_profile_trace_events.
[[nodiscard]] auto read_profile_trace(std::string_view text) -> ProfileTrace;

/// The launch with this correlation id, or null.
[[nodiscard]] auto find_launch(const ProfileTrace& trace, std::int64_t correlation) -> const TraceLaunch*;

/// For every kernel, the index (into trace.annotations) of the annotation it was launched under, among
/// those `wanted` accepts, or -1; and how it was found. The rule, in order:
///   1. launch: the kernel's launch (by correlation) lies inside a wanted annotation on the launching
///      thread; the innermost (latest-starting) one wins;
///   2. other thread: else inside a wanted annotation on another thread of the same process, the
///      shortest one; this is how backward kernels, launched from autograd's thread while the
///      annotated Python thread waits in `backward()`, find their range;
///   3. stream order: a kernel with no launch at all (no correlation, no flow) takes the annotation of
///      the kernel before it on its stream;
///   4. else none.
enum class Attribution : std::uint8_t { launch, other_thread, stream_order, none };
struct KernelOwner {
  int annotation = -1;
  Attribution how = Attribution::none;
};
template <class Wanted>
[[nodiscard]] auto attribute_kernels(const ProfileTrace& trace, Wanted&& wanted) -> std::vector<KernelOwner>;

/// The same with the accepted annotations given as a mask aligned with trace.annotations.
[[nodiscard]] auto attribute_kernels_masked(const ProfileTrace& trace, const std::vector<bool>& wanted)
    -> std::vector<KernelOwner>;

template <class Wanted>
auto attribute_kernels(const ProfileTrace& trace, Wanted&& wanted) -> std::vector<KernelOwner> {
  std::vector<bool> mask(trace.annotations.size());
  for (std::size_t i = 0; i < mask.size(); ++i) mask[i] = wanted(trace.annotations[i]);
  return attribute_kernels_masked(trace, mask);
}

/// Total length of the union of [start, end) intervals (sorted in place).
struct Interval {
  double start = 0;
  double end = 0;
};
[[nodiscard]] auto union_length(std::vector<Interval>& intervals) -> double;
/// The union as disjoint sorted intervals (sorted in place).
[[nodiscard]] auto union_of(std::vector<Interval>& intervals) -> std::vector<Interval>;
/// Length of the intersection of two unions given as disjoint sorted intervals.
[[nodiscard]] auto overlap_length(const std::vector<Interval>& a, const std::vector<Interval>& b) -> double;

}  // namespace pipesim
