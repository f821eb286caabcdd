// Replacement global operator new/delete that count bytes. Each block carries its size in a header
// as wide as max_align_t, so the pointer handed out keeps the alignment malloc gives. Over-aligned
// blocks (the per-op arrays of large runs start on 2 MiB boundaries, pipesim/op_column.h) come from
// aligned_alloc and are counted through a small table of live blocks instead of a header.
// The benchmark is single-threaded, so plain counters are enough.
#include "heap_counter.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <new>

namespace pipesim::bench {

namespace {

constexpr std::size_t header = alignof(std::max_align_t);
HeapStats stats;

void count_allocation(std::size_t size) noexcept {
  stats.current += size;
  stats.peak = std::max(stats.peak, stats.current);
  ++stats.allocations;
}

auto counted_alloc(std::size_t size) noexcept -> void* {
  void* base = std::malloc(size + header);
  if (base == nullptr) return nullptr;
  *static_cast<std::size_t*>(base) = size;
  count_allocation(size);
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

// Over-aligned blocks not yet freed, with their sizes. A fixed table: the hooks must not allocate, and
// a run holds a handful of large columns at a time.
struct AlignedBlock {
  void* at = nullptr;
  std::size_t bytes = 0;
};
std::array<AlignedBlock, 1024> aligned_blocks;

auto counted_alloc_aligned(std::size_t size, std::align_val_t alignment) noexcept -> void* {
  const auto align = static_cast<std::size_t>(alignment);
  void* p = std::aligned_alloc(align, (std::max<std::size_t>(size, 1) + align - 1) / align * align);
  if (p == nullptr) return nullptr;
  for (AlignedBlock& b : aligned_blocks)
    if (b.at == nullptr) {
      b = {p, size};
      count_allocation(size);
      return p;
    }
  std::abort();  // more live over-aligned blocks than any run makes: the count would be wrong
}

void counted_free_aligned(void* p) noexcept {
  if (p == nullptr) return;
  for (AlignedBlock& b : aligned_blocks)
    if (b.at == p) {
      stats.current -= b.bytes;
      b = {};
      break;
    }
  std::free(p);
}

auto counted_alloc_aligned_or_throw(std::size_t size, std::align_val_t alignment) -> void* {
  if (void* p = counted_alloc_aligned(size, alignment)) return p;
  throw std::bad_alloc();
}


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

using pipesim::bench::counted_alloc_aligned;
using pipesim::bench::counted_alloc_aligned_or_throw;
using pipesim::bench::counted_free_aligned;

auto operator new(std::size_t size, std::align_val_t alignment) -> void* {
  return counted_alloc_aligned_or_throw(size, alignment);
}
auto operator new[](std::size_t size, std::align_val_t alignment) -> void* {
  return counted_alloc_aligned_or_throw(size, alignment);
}
auto operator new(std::size_t size, std::align_val_t alignment, const std::nothrow_t& /*tag*/) noexcept -> void* {
  return counted_alloc_aligned(size, alignment);
}
auto operator new[](std::size_t size, std::align_val_t alignment, const std::nothrow_t& /*tag*/) noexcept -> void* {
  return counted_alloc_aligned(size, alignment);
}
void operator delete(void* p, std::align_val_t /*alignment*/) noexcept { counted_free_aligned(p); }
void operator delete[](void* p, std::align_val_t /*alignment*/) noexcept { counted_free_aligned(p); }
void operator delete(void* p, std::size_t /*size*/, std::align_val_t /*alignment*/) noexcept { counted_free_aligned(p); }
void operator delete[](void* p, std::size_t /*size*/, std::align_val_t /*alignment*/) noexcept { counted_free_aligned(p); }
void operator delete(void* p, std::align_val_t /*alignment*/, const std::nothrow_t& /*tag*/) noexcept {
  counted_free_aligned(p);
}
void operator delete[](void* p, std::align_val_t /*alignment*/, const std::nothrow_t& /*tag*/) noexcept {
  counted_free_aligned(p);
}
