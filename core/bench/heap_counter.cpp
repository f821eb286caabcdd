// Replacement global operator new/delete that count bytes. Each block carries its size in a header
// as wide as max_align_t, so the pointer handed out keeps the alignment malloc gives. Over-aligned
// new (align_val_t) is left to the library: nothing in pipesim allocates over-aligned types.
// The engine maps its large zero-filled tables directly (detail/zeroed_array.h); mmap and munmap are
// stood in for below so that those count too. glibc's malloc maps through its own internal calls,
// not these, so no block is counted twice.
// The benchmark is single-threaded, so plain counters are enough.
#include "heap_counter.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace pipesim::bench {

namespace {

constexpr std::size_t header = alignof(std::max_align_t);
HeapStats stats;

auto counted_alloc(std::size_t size) noexcept -> void* {
  void* base = std::malloc(size + header);
  if (base == nullptr) return nullptr;
  *static_cast<std::size_t*>(base) = size;
  stats.current += size;
  stats.peak = std::max(stats.peak, stats.current);
  ++stats.allocations;
  return static_cast<char*>(base) + header;
}

void counted_free(void* p) noexcept {
  if (p == nullptr) return;
  void* base = static_cast<char*>(p) - header;
  stats.current -= *static_cast<std::size_t*>(base);
  std::free(base);
}

auto counted_alloc_or_throw(std::size_t size) -> void* {
  if (void* p = counted_alloc(size)) return p;
  throw std::bad_alloc();
}

#if defined(__linux__)
// Anonymous mappings made through mmap() and not yet unmapped. A fixed table: the hook must not
// allocate, and the engine holds one or two mappings at a time.
struct Mapping {
  void* at = nullptr;
  std::size_t bytes = 0;
};
std::array<Mapping, 64> mappings;

void count_mapping(void* at, std::size_t bytes) noexcept {
  for (Mapping& m : mappings)
    if (m.at == nullptr) {
      m = {at, bytes};
      stats.current += bytes;
      stats.peak = std::max(stats.peak, stats.current);
      ++stats.allocations;
      return;
    }
  std::abort();  // more live mappings than any run makes: the count would be wrong
}

void uncount_mapping(void* at) noexcept {
  for (Mapping& m : mappings)
    if (m.at == at) {
      stats.current -= m.bytes;
      m = {};
      return;
    }
}
#endif

}  // namespace

auto heap_stats() -> HeapStats { return stats; }

void reset_heap_peak() { stats.peak = stats.current; }

}  // namespace pipesim::bench

using pipesim::bench::counted_alloc;
using pipesim::bench::counted_alloc_or_throw;
using pipesim::bench::counted_free;

auto operator new(std::size_t size) -> void* { return counted_alloc_or_throw(size); }
auto operator new[](std::size_t size) -> void* { return counted_alloc_or_throw(size); }
auto operator new(std::size_t size, const std::nothrow_t& /*tag*/) noexcept -> void* { return counted_alloc(size); }
auto operator new[](std::size_t size, const std::nothrow_t& /*tag*/) noexcept -> void* { return counted_alloc(size); }
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t /*size*/) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t /*size*/) noexcept { counted_free(p); }
void operator delete(void* p, const std::nothrow_t& /*tag*/) noexcept { counted_free(p); }
void operator delete[](void* p, const std::nothrow_t& /*tag*/) noexcept { counted_free(p); }

#if defined(__linux__)
extern "C" auto mmap(void* at, std::size_t bytes, int protection, int flags, int fd, off_t offset) -> void* {
  void* mapped = reinterpret_cast<void*>(syscall(SYS_mmap, at, bytes, protection, flags, fd, offset));
  if (mapped != MAP_FAILED && (flags & MAP_ANONYMOUS) != 0) pipesim::bench::count_mapping(mapped, bytes);
  return mapped;
}

extern "C" auto munmap(void* at, std::size_t bytes) -> int {
  pipesim::bench::uncount_mapping(at);
  return static_cast<int>(syscall(SYS_munmap, at, bytes));
}
#endif
