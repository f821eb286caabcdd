#pragma once
// Large runs stream tens of megabytes of ops and times. On Linux, asking for transparent huge pages
// on those arrays before they are first written replaces thousands of 4 KiB page faults (most of a
// big run's system time) with a few 2 MiB ones. Elsewhere (WebAssembly, other systems) it does nothing.
#include <cstddef>
#include <cstdint>

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#endif

namespace pipesim::detail {

/// Advises the kernel to back [data, data + bytes) with huge pages; only the 2 MiB-aligned interior
/// is advised, so neighbouring allocations are never affected (OpColumn starts large blocks on a
/// 2 MiB boundary, so for them that interior is all but the last partial page). A hint: failure
/// changes nothing.
inline void prefer_huge_pages([[maybe_unused]] const void* data, [[maybe_unused]] std::size_t bytes) {
#if defined(__linux__) && !defined(__EMSCRIPTEN__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t huge = std::uintptr_t{1} << 21;
  if (bytes < huge) return;
  const auto begin = (reinterpret_cast<std::uintptr_t>(data) + huge - 1) & ~(huge - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(huge - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#endif
}

}  // namespace pipesim::detail
