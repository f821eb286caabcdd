#pragma once
// A fixed-size table that starts zero-filled, for the engine's per-chunk state of a large run (millions
// of entries). The engine reads each entry before it first writes it, which is the costly case for
// fresh memory: every page faults twice, once to map the shared zero page and once more to copy it on
// the first write (measured through the CLI on DualPipe 64x8192: 28.1 ms with the pages left to
// faults, 25.0 populated in one call, 24.5 populated as huge pages).
// On Linux the table is therefore mapped directly, advised for huge pages and populated writable in
// one call: the kernel hands the pages out zeroed and no pass of the program writes the zeros.
// Small tables, and every table elsewhere (WebAssembly, other systems), come from new[], which
// zeroes them (and which the benchmark's heap counter sees).
#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>

#include "detail/huge_pages.h"

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#endif

namespace pipesim::detail {

template <typename T>
class ZeroedArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "zero bytes must be a valid T and nothing may need destroying");

 public:
  explicit ZeroedArray(std::size_t n) : size_(n) {
    if (n == 0) return;
    if (n > static_cast<std::size_t>(-1) / sizeof(T) / 2) throw std::bad_alloc();
    allocate(n * sizeof(T));
  }
  ZeroedArray(const ZeroedArray&) = delete;
  auto operator=(const ZeroedArray&) -> ZeroedArray& = delete;
  ~ZeroedArray() { release(); }

  [[nodiscard]] auto operator[](std::size_t i) -> T& { return data_[i]; }
  [[nodiscard]] auto operator[](std::size_t i) const -> const T& { return data_[i]; }
  [[nodiscard]] auto size() const -> std::size_t { return size_; }

 private:
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  static constexpr std::size_t small_table = std::size_t{1} << 16;  // below this, the heap is cheaper

  void allocate(std::size_t bytes) {
    if (bytes < small_table) return allocate_on_heap(bytes);
    mapped_bytes_ = bytes;
    mapping_ = mmap(nullptr, mapped_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping_ == MAP_FAILED) {
      mapping_ = nullptr;
      throw std::bad_alloc();
    }
    // Both are hints: a kernel that refuses them leaves the faults to do the same work.
    prefer_huge_pages(mapping_, bytes);
#if defined(MADV_POPULATE_WRITE)
    madvise(mapping_, bytes, MADV_POPULATE_WRITE);
#endif
    data_ = static_cast<T*>(mapping_);
  }
  void release() {
    if (mapping_ != nullptr) munmap(mapping_, mapped_bytes_);
    else ::operator delete[](data_);
  }
  void* mapping_ = nullptr;
  std::size_t mapped_bytes_ = 0;
#else
  void allocate(std::size_t bytes) { allocate_on_heap(bytes); }
  void release() { ::operator delete[](data_); }
#endif

  // Raw bytes zeroed by memset (new T[n]() would construct entry by entry); T is an implicit-lifetime
  // type, so the zero bytes are its objects.
  void allocate_on_heap(std::size_t bytes) {
    data_ = static_cast<T*>(::operator new[](bytes));
    std::memset(static_cast<void*>(data_), 0, bytes);
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace pipesim::detail
