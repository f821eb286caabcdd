#pragma once
// Counts the bytes the program holds on the heap, by replacing the global operator new and delete
// (heap_counter.cpp). The benchmark reads bytes per op from it: exact and repeatable, unlike RSS,
// which moves with the allocator's arenas and whatever the process touched before.
#include <cstddef>

namespace pipesim::bench {

struct HeapStats {
  std::size_t current = 0;      ///< bytes allocated through operator new and not yet freed
  std::size_t peak = 0;         ///< the most `current` has been since the last reset_heap_peak()
  std::size_t allocations = 0;  ///< calls of operator new since the program started
};

[[nodiscard]] auto heap_stats() -> HeapStats;

/// Starts a new peak window: from now on `peak` is the most held from the current level on.
void reset_heap_peak();

}  // namespace pipesim::bench
