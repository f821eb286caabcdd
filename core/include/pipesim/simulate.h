#pragma once
// The engine: a dataflow (as-soon-as-possible) simulation of a schedule under a cost model.
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "pipesim/costs.h"
#include "pipesim/schedule.h"

namespace pipesim {

/// std::allocator, except that a resize leaves new elements of a plain type unwritten: the engine
/// writes every entry of a Timeline exactly once, and zeroing millions of them first would be a whole
/// extra pass over memory. Everything else (push_back, assign, copies) behaves as usual.
template <typename T>
struct UninitializedAllocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  template <typename U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;  // default-initialisation: no value for a double or an int
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    std::construct_at(p, std::forward<Args>(args)...);
  }
};

/// One value per op, aligned with Schedule::ops.
template <typename T>
using OpColumn = std::vector<T, UninitializedAllocator<T>>;

/// Start and end time of every op, aligned with Schedule::ops.
struct Timeline {
  OpColumn<double> start;
  OpColumn<double> end;
  /// The op whose output this op waited for when its rank sat idle before it, or -1 when the op
  /// started as soon as its rank was free. Explains every bubble: idle time ends when this arrives.
  OpColumn<int> waited_for;
};

/// Each rank runs its ops in list order, one at a time. An op starts when its rank is free and its
/// inputs have arrived: F after the previous stage's F of its micro-batch, B/I after the next stage's
/// backward (the last stage after its own F), W after its I, FB after both halves' inputs. An input
/// from another rank arrives `comm` later. Linear in the number of ops.
/// Throws Error if the schedule is invalid or deadlocks; a deadlock names the cycle of waiting ops.
[[nodiscard]] auto simulate(const Schedule& schedule, const Costs& costs) -> Timeline;

/// The ops whose outputs one op consumes, by the engine's rules above; -1 = none. `first` is the
/// forward input of an F or FB, else the backward input (or a W's I); `second` is an FB's backward
/// input. Exporters draw transfers from this, so they cannot disagree with the simulation.
struct OpInputs {
  int first = -1;
  int second = -1;
};

/// OpInputs of every op, aligned with Schedule::ops. The schedule must pass validate_schedule.
[[nodiscard]] auto op_inputs(const Schedule& schedule) -> std::vector<OpInputs>;

}  // namespace pipesim
