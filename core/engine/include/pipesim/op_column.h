#pragma once
// The container of pipesim's per-op arrays: a schedule's ops and a timeline's columns. A large run
// holds millions of entries in each, written once and streamed from memory, so two things differ from
// std::vector's defaults:
//  - a resize leaves new elements of a plain type unwritten (the engine writes every timeline entry
//    exactly once; zeroing them first would be a whole extra pass over memory), and so it does those of
//    an aggregate with default member initialisers that opts in with resize_leaves_unwritten;
//  - a block of 2 MiB or more starts on a 2 MiB boundary, with the huge-page hint on Linux, so the
//    kernel can back all of it with 2 MiB pages: a cold run's system time is mostly page faults,
//    thousands of them for 4 KiB pages, and std::allocator's large blocks start a few bytes past a
//    page boundary (DualPipe 64 x 8192 through the CLI: 1,800-2,300 page faults, now about 250).
// Everything else (push_back, reserve, assign, copies, ==) behaves as usual.
#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace pipesim {

namespace column_memory {
/// Blocks of at least this many bytes are aligned to it (and advised for huge pages on Linux).
inline constexpr std::size_t huge_page = std::size_t{1} << 21;
/// Memory for `bytes` of column entries; release with release(), passing the same size.
[[nodiscard]] auto acquire(std::size_t bytes) -> void*;
void release(void* block, std::size_t bytes) noexcept;
}  // namespace column_memory

/// An entry type whose default member initialisers an OpColumn resize skips, because the one engine
/// that sizes such a column writes every entry before anything reads it. Opt in by specialising this
/// to true; only for an aggregate with a trivial destructor, an implicit-lifetime type, which the
/// column's raw memory then holds from the start (C++20 [intro.object]).
template <typename T>
inline constexpr bool resize_leaves_unwritten = false;

template <typename T>
struct OpColumnAllocator {
  using value_type = T;

  OpColumnAllocator() = default;
  template <typename U>
  OpColumnAllocator(const OpColumnAllocator<U>& /*other*/) noexcept {}  // NOLINT: converting, as std::allocator

  [[nodiscard]] auto allocate(std::size_t n) -> T* {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(column_memory::acquire(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept { column_memory::release(p, n * sizeof(T)); }

  template <typename U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    if constexpr (resize_leaves_unwritten<U>) {
      static_assert(std::is_aggregate_v<U> && std::is_trivially_destructible_v<U> && std::is_trivially_copyable_v<U>);
    } else {
      ::new (static_cast<void*>(p)) U;  // default-initialisation: no value for a double or an int
    }
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    std::construct_at(p, std::forward<Args>(args)...);
  }

  friend auto operator==(const OpColumnAllocator&, const OpColumnAllocator&) -> bool { return true; }
};

/// One value per op.
template <typename T>
using OpColumn = std::vector<T, OpColumnAllocator<T>>;

}  // namespace pipesim
