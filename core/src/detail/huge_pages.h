#pragma once
// Large runs stream tens of megabytes of ops and times. On Linux, asking for transparent huge pages
// on those arrays before they are first written replaces thousands of 4 KiB page faults (most of a
// big run's system time) with a few 2 MiB ones. Elsewhere (WebAssembly, other systems) it does nothing.
#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#endif

namespace pipesim::detail {

/// Advises the kernel to back [data, data + bytes) with huge pages; only the 2 MiB-aligned interior
/// is advised, so neighbouring allocations are never affected. A hint: failure changes nothing.
inline void prefer_huge_pages([[maybe_unused]] const void* data, [[maybe_unused]] std::size_t bytes) {
#if defined(__linux__) && !defined(__EMSCRIPTEN__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t huge = std::uintptr_t{1} << 21;
  if (bytes < 2 * huge) return;
  const auto begin = (reinterpret_cast<std::uintptr_t>(data) + huge - 1) & ~(huge - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(huge - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#endif
}

/// reserve(n) with the huge-page hint, for a vector about to be filled (it must be empty).
template <typename T>
void reserve_large(std::vector<T>& v, std::size_t n) {
  v.reserve(n);
  prefer_huge_pages(v.data(), v.capacity() * sizeof(T));
}

/// `v` holding n copies of `value`, allocated with the huge-page hint before it is written.
template <typename T>
void assign_large(std::vector<T>& v, std::size_t n, const T& value) {
  std::vector<T>().swap(v);
  reserve_large(v, n);
  v.assign(n, value);
}

}  // namespace pipesim::detail
