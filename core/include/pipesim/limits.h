#pragma once
// Every bound that keeps one request finite in time and memory, in one place. A request over a limit
// is refused up front, with the limit named (ErrorCode::limit_exceeded), before anything is allocated.
// The numbers are sized for a browser tab: the largest accepted run holds about 6 million ops, which
// the engine simulates in well under a second and in a few hundred megabytes of WebAssembly memory.
#include <cstddef>

namespace pipesim::limits {

inline constexpr int max_ranks = 4096;
inline constexpr int max_micro_batches = 1 << 20;  ///< per iteration, both directions together
inline constexpr int max_virtual_stages = 16;

/// Stage x micro-batch chunks of one run (ranks x micro-batches x virtual stages for the catalogue's
/// schedules). Each chunk becomes at most three ops (F, I, W), so a run has at most 3 x this many ops.
inline constexpr long long max_chunks = 1 << 21;

/// Bytes of schedule text (JSON, PyTorch actions, a pipesim Chrome trace) read for one custom schedule.
inline constexpr std::size_t max_schedule_text_bytes = std::size_t{64} << 20;

/// Bytes of a plan or workload JSON document: both are a few dozen fields.
inline constexpr std::size_t max_small_json_bytes = std::size_t{1} << 20;

/// Points of one sweep, and the chunks of all its runs together (a sweep is many runs at once).
inline constexpr std::size_t max_sweep_points = 512;
inline constexpr long long max_sweep_chunks = 4 * max_chunks;

/// A PyTorch profiler trace (profile_trace.h): bytes of one file, entries of its traceEvents, and the
/// characters kept of an annotation's name. A 100 MB trace is a few million events; the reader keeps a
/// few numbers per kernel and annotation, never the document.
inline constexpr std::size_t max_profile_trace_bytes = std::size_t{1} << 30;
inline constexpr std::size_t max_profile_trace_events = std::size_t{1} << 25;
inline constexpr std::size_t max_trace_name_chars = 200;
/// Traces of one measured pipeline: one per rank.
inline constexpr int max_profile_trace_files = max_ranks;

}  // namespace pipesim::limits
