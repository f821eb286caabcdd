// Replacement global operator new/delete that count bytes. Each block carries its size in a header
// as wide as max_align_t, so the pointer handed out keeps the alignment malloc gives. Over-aligned
// new (align_val_t) is left to the library: nothing in pipesim allocates over-aligned types.
// The benchmark is single-threaded, so plain counters are enough.
#include "heap_counter.h"

#include <algorithm>
#include <cstdlib>
#include <new>

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
