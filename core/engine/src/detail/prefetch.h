#pragma once
// Cache-line prefetch hints for the engines' streams. A rank runs its ops in order, so each per-op
// array, its own rows of a chunk table and its communication program are streams it walks forward;
// but 64 ranks interleave, far more streams than the hardware prefetchers follow. Asking for the next
// line of a stream as one entry is touched keeps those accesses from stalling on memory. The address
// is only a hint (no access is made through it, so it may lie past the end); WebAssembly has no
// prefetch, and the builtin compiles to nothing there.
#include <cstdint>

namespace pipesim::detail {

inline constexpr std::uintptr_t cache_line = 64;

/// Hints that the cache line `lines_ahead` lines past `at` will soon be written.
template <typename T>
[[gnu::always_inline]] inline void prefetch_for_writing(const T* at, std::uintptr_t lines_ahead = 1) {
  __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(at) + lines_ahead * cache_line), 1);
}

/// Hints that the cache line `lines_ahead` lines past `at` will soon be read.
template <typename T>
[[gnu::always_inline]] inline void prefetch_for_reading(const T* at, std::uintptr_t lines_ahead = 1) {
  __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(at) + lines_ahead * cache_line), 0);
}

}  // namespace pipesim::detail
