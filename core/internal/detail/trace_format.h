#pragma once
// What pipesim's Chrome traces say about themselves, stated once for the writer (io's export_trace.cpp)
// and the reader (the engine's trace_import.cpp, a custom schedule given as a trace).
namespace pipesim::detail {

/// otherData.generator of every trace pipesim writes; only such traces are read back.
inline constexpr const char* trace_generator = "pipesim";
/// The category of the compute slices, one per op: the events a reader turns back into ops.
inline constexpr const char* compute_category = "compute";
/// Process ids start at 1: rank r is pid r + 1 (still named "rank r" and sorted by r). Perfetto's
/// maintainers advise against pid 0, which the kernel gives its idle task; the reader undoes this.
constexpr auto pid_of(int rank) -> int { return rank + 1; }
constexpr auto rank_of_pid(long long pid) -> long long { return pid - 1; }

}  // namespace pipesim::detail
