#pragma once
// Closed forms shared by more than one schedule. A schedule's own bubble formula is in its file,
// next to its op order (core/engine/src/schedules/); this holds only the pieces several of them use.
#include <string>
#include <utility>
#include <vector>

#include "detail/spec_helpers.h"
#include "pipesim/registry.h"

namespace pipesim::detail {

/// (p-1)(F+B): the fill and drain of a pipeline without zero-bubble splitting, GPipe's and 1F1B's.
/// GPipe's phases are separate chains, so each send adds its latency once per hop: exact with comm
/// too (`with_comm`). 1F1B's steady state also waits on round trips when comm > 0, so there the
/// closed form needs comm = 0.
PIPESIM_ONCE_PER_RUN inline auto fill_drain_formula(int p, const Costs& c, bool with_comm, std::string source) -> Formula {
  const double value = (p - 1) * (c.f + c.b + (with_comm ? 2 * c.comm : 0));
  const std::string numbers = "(" + std::to_string(p) + "-1)(" + num(c.f) + "+" + num(c.b) +
                              (with_comm ? "+2*" + num(c.comm) : "") + ") = " + num(value);
  return Formula{with_comm ? "(PP-1)(F+B+2comm)" : "(PP-1)(F+B)",
                 numbers,
                 value,
                 with_comm || exact_when_no_comm(c),
                 with_comm ? Translated<std::string>{.en = "exact on every rank",
                                                     .pt_br = "exata em todos os ranks",
                                                     .zh_cn = "在每个 rank 上都精确"}
                           : Translated<std::string>{.en = "exact on every rank when comm = 0",
                                                     .pt_br = "exata em todos os ranks quando comm = 0",
                                                     .zh_cn = "当 comm = 0 时在每个 rank 上都精确"},
                 std::move(source)};
}

// ---- the bubble derived per rank (pipesim/bubble_terms.h) ------------------------------------------

/// `count` times `unit`, named `text`, in `phase`; worked as "3*2 = 6". A term that counts nothing on
/// this rank explains nothing there and is left out.
inline void add_term(std::vector<BubbleTerm>& terms, std::string text, int count, double unit, IdlePhase phase) {
  if (count <= 0) return;
  const double value = count * unit;
  terms.push_back(BubbleTerm{std::move(text), std::to_string(count) + "*" + num(unit) + " = " + num(value), value, phase});
}

/// add_term() for a term the closed form states only summed over the phases `first`..`last`.
inline void add_range_term(std::vector<BubbleTerm>& terms, std::string text, int count, double unit, IdlePhase first,
                           IdlePhase last) {
  add_term(terms, std::move(text), count, unit, first);
  if (count > 0) terms.back().phase_to = last;
}

/// GPipe's (PP-1)(F+B+2comm) on rank r: r forwards (and hops) before its first one arrives, PP-1-r
/// forward-and-backward round trips before its first backward, r backwards after its last.
PIPESIM_ONCE_PER_RUN inline auto gpipe_terms(int p, const Costs& c) -> std::vector<RankTerms> {
  std::vector<RankTerms> out(static_cast<std::size_t>(p), std::vector<BubbleTerm>{});
  for (int r = 0; r < p; ++r) {
    auto& terms = *out[static_cast<std::size_t>(r)];
    add_term(terms, "r(F+comm)", r, c.f + c.comm, IdlePhase::fill);
    add_term(terms, "(PP-1-r)(F+B+2comm)", p - 1 - r, c.f + c.b + 2 * c.comm, IdlePhase::warm_up);
    add_term(terms, "r(B+comm)", r, c.b + c.comm, IdlePhase::drain);
  }
  return out;
}

/// 1F1B's (PP-1)(F+B) on rank r (comm = 0, at least PP micro-batches): the fill's r forwards, the
/// PP-1-r backwards below it before its first backward returns, one forward per cool-down backward
/// of the PP-1-r warm-up micro-batches, and the r backwards above it after its last op.
PIPESIM_ONCE_PER_RUN inline auto one_f_one_b_terms(int p, const Costs& c) -> std::vector<RankTerms> {
  std::vector<RankTerms> out(static_cast<std::size_t>(p), std::vector<BubbleTerm>{});
  for (int r = 0; r < p; ++r) {
    auto& terms = *out[static_cast<std::size_t>(r)];
    add_term(terms, "rF", r, c.f, IdlePhase::fill);
    add_term(terms, "(PP-1-r)B", p - 1 - r, c.b, IdlePhase::warm_up);
    add_term(terms, "(PP-1-r)F", p - 1 - r, c.f, IdlePhase::cool_down);
    add_term(terms, "rB", r, c.b, IdlePhase::drain);
  }
  return out;
}

}  // namespace pipesim::detail
