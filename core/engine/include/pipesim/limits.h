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

/// Ops of one run, counted as they are laid out: ranks x the stages each rank holds (two on a V such
/// as ZB-V and DualPipeV, one per virtual stage when looped) x micro-batches x the ops of a chunk (F, B;
/// or F, I, W), before any op is allocated (ScheduleBuilder, and a custom schedule while it is read).
/// ZB-H1 2048 x 1024 is exactly at the limit.
inline constexpr long long max_ops = 3LL << 21;  // 6,291,456

/// Bytes of schedule text (JSON, PyTorch actions, a pipesim Chrome trace) read for one custom schedule.
inline constexpr std::size_t max_schedule_text_bytes = std::size_t{64} << 20;

/// Bytes of a plan or workload JSON document: both are a few dozen fields.
inline constexpr std::size_t max_small_json_bytes = std::size_t{1} << 20;

/// Bytes of one export (SVG, CSV, Chrome trace, JSON, actions) where it is held in memory whole: the
/// WebAssembly module hands every export to JavaScript as one string. V8 (Chromium, Node) caps a string
/// at 2^29 - 24 characters, about 512 MiB, and the module's memory at 2 GiB (wasm/CMakeLists.txt,
/// MAXIMUM_MEMORY), which must also hold the run, the string while it grows and its copy for
/// JavaScript. A larger export is refused with its size (export_text); the CLI streams exports to its
/// output and has no such bound.
inline constexpr std::size_t max_export_bytes = std::size_t{256} << 20;

/// Points of one sweep, and the chunks of all its runs together (a sweep is many runs at once).
inline constexpr std::size_t max_sweep_points = 512;
inline constexpr long long max_sweep_chunks = 1LL << 23;  ///< ranks x micro-batches x virtual stages, summed

/// A PyTorch profiler trace (profile_trace.h): bytes of one file, entries of its traceEvents, and the
/// characters kept of an annotation's name. A 100 MB trace is a few million events; the reader keeps a
/// few numbers per kernel and annotation, never the document.
inline constexpr std::size_t max_profile_trace_bytes = std::size_t{1} << 30;
inline constexpr std::size_t max_profile_trace_events = std::size_t{1} << 25;
inline constexpr std::size_t max_trace_name_chars = 200;
/// Traces of one measured pipeline: one per rank.
inline constexpr int max_profile_trace_files = max_ranks;

}  // namespace pipesim::limits
