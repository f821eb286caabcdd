#pragma once
// Closed forms shared by more than one schedule. A schedule's own bubble formula is in its file,
// next to its op order (core/engine/src/schedules/); this holds only the pieces several of them use.
#include <string>
#include <utility>

#include "detail/spec_helpers.h"
#include "pipesim/registry.h"

namespace pipesim::detail {

/// (p-1)(F+B): the fill and drain of a pipeline without zero-bubble splitting, GPipe's and 1F1B's.
/// GPipe's phases are separate chains, so each send adds its latency once per hop: exact with comm
/// too (`with_comm`). 1F1B's steady state also waits on round trips when comm > 0, so there the
/// closed form needs comm = 0.
inline auto fill_drain_formula(int p, const Costs& c, bool with_comm, std::string source) -> Formula {
  const double value = (p - 1) * (c.f + c.b + (with_comm ? 2 * c.comm : 0));
  const std::string numbers = "(" + std::to_string(p) + "-1)(" + num(c.f) + "+" + num(c.b) +
                              (with_comm ? "+2*" + num(c.comm) : "") + ") = " + num(value);
  return Formula{with_comm ? "(PP-1)(F+B+2comm)" : "(PP-1)(F+B)",
                 numbers,
                 value,
                 with_comm || exact_when_no_comm(c),
                 with_comm ? "exact on every rank" : "exact on every rank when comm = 0",
                 std::move(source)};
}

}  // namespace pipesim::detail
