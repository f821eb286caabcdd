#include "pipesim/op_column.h"

#include <algorithm>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

#include "detail/huge_pages.h"

#ifndef __EMSCRIPTEN__
#include <unistd.h>
#endif

namespace pipesim::column_memory {

namespace {

constexpr std::align_val_t huge_alignment{huge_page};

#ifndef __EMSCRIPTEN__
// Large blocks freed, kept for the next request of the same size. A process that runs one size again
// and again (the bench, a sweep's repeats, the planner, a test) otherwise pays on every run for fresh
// pages: a page fault and the kernel's zeroing of each page on first touch, which was 65% of a
// reference-timing run of DualPipe 64 x 8192 (its communication program and its messages are written
// once each, so nearly every byte written was a fresh page). Reused only at the exact size, so what a
// run gets back is what it would have asked for; the oldest released first when the kept bytes would
// pass the limit. A long-running process keeps at most that much: 160 MiB, about what the largest
// runs' columns take at once (a reference-timing run of DualPipe 64 x 8192 with the dataflow run
// beside it, as the bench alternates them), and never more than an eighth of the machine's memory.
// WebAssembly's allocator reuses freed memory with no kernel work, so it keeps none here.
// The machine's memory in bytes (0 when the system does not say: then nothing is kept).
auto physical_memory() -> std::size_t {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  return pages > 0 && page_size > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page_size) : 0;
}

class BlockCache {
 public:
  auto take(std::size_t bytes) -> void* {
    const std::lock_guard lock(mutex_);
    for (auto it = blocks_.rbegin(); it != blocks_.rend(); ++it)
      if (it->second == bytes) {
        void* block = it->first;
        blocks_.erase(std::next(it).base());
        kept_ -= bytes;
        return block;
      }
    return nullptr;
  }
  /// Keeps `block`, or says no (false) when it alone is over the limit.
  auto keep(void* block, std::size_t bytes) -> bool {
    if (bytes > limit) return false;
    const std::lock_guard lock(mutex_);
    while (kept_ + bytes > limit) {
      ::operator delete(blocks_.front().first, huge_alignment);
      kept_ -= blocks_.front().second;
      blocks_.erase(blocks_.begin());
    }
    blocks_.emplace_back(block, bytes);
    kept_ += bytes;
    return true;
  }
  /// Releases every block kept: memory is short.
  void clear() noexcept {
    const std::lock_guard lock(mutex_);
    for (const auto& [block, bytes] : blocks_) ::operator delete(block, huge_alignment);
    blocks_.clear();
    kept_ = 0;
  }

 private:
  static constexpr std::size_t most_kept = std::size_t{160} << 20;
  const std::size_t limit = std::min(most_kept, physical_memory() / 8);
  std::mutex mutex_;
  std::vector<std::pair<void*, std::size_t>> blocks_;  // oldest first
  std::size_t kept_ = 0;
};

// Never destroyed: a column freed during static destruction still finds it (and the blocks it holds
// stay reachable, so leak checkers do not count them).
auto cache() -> BlockCache& {
  static BlockCache* const blocks = new BlockCache;
  return *blocks;
}
#endif

}  // namespace

// Aligned in WebAssembly too, though it has no huge pages: there the large runs measured faster with
// it (DualPipe 64 x 8192 through simulateJson: 13.8 M ops/s unaligned, 15.8 aligned), at the price of
// at most 2 MiB of linear memory per large column.
auto acquire(std::size_t bytes) -> void* {
  if (bytes < huge_page) return ::operator new(bytes);
#ifndef __EMSCRIPTEN__
  if (void* reused = cache().take(bytes)) return reused;
  void* block = nullptr;
  try {
    block = ::operator new(bytes, huge_alignment);
  } catch (const std::bad_alloc&) {
    cache().clear();  // what is kept for later must not make this request fail
    block = ::operator new(bytes, huge_alignment);
  }
#else
  void* block = ::operator new(bytes, huge_alignment);
#endif
  detail::prefer_huge_pages(block, bytes);  // before anything touches it
  return block;
}

void release(void* block, std::size_t bytes) noexcept {
  if (bytes < huge_page) {
    ::operator delete(block);
    return;
  }
#ifndef __EMSCRIPTEN__
  try {
    if (cache().keep(block, bytes)) return;
  } catch (...) {
    // No room to note it (out of memory): released as without the cache.
  }
#endif
  ::operator delete(block, huge_alignment);
}

}  // namespace pipesim::column_memory
