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

/// Bytes of one export (SVG, CSV, Chrome trace, JSON, actions) where it is held in memory whole: the
/// WebAssembly module hands every export to JavaScript as one string. V8 (Chromium, Node) caps a string
/// at 2^29 - 24 characters, about 512 MiB, and the module's memory at 2 GiB (wasm/CMakeLists.txt,
/// MAXIMUM_MEMORY), which must also hold the run, the string while it grows and its copy for
/// JavaScript. A larger export is refused with its size (export_text); the CLI streams exports to its
/// output and has no such bound.
inline constexpr std::size_t max_export_bytes = std::size_t{256} << 20;

/// Points of one sweep, and the chunks of all its runs together (a sweep is many runs at once).
inline constexpr std::size_t max_sweep_points = 512;
inline constexpr long long max_sweep_chunks = 4 * max_chunks;

}  // namespace pipesim::limits
