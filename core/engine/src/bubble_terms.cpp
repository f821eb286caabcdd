#include "pipesim/bubble_terms.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <utility>

#include "pipesim/measure.h"

namespace pipesim {

namespace {

auto at(int i) -> std::size_t { return static_cast<std::size_t>(i); }
auto index(IdlePhase p) -> std::size_t { return static_cast<std::size_t>(p); }

// One rank's ops read in one pass (a large run's timeline no longer sits in the caches after the
// run, so a second pass cost as much as the first): its idle gaps in time order, their phases not
// known yet, and the phase bounds: 0, first op, first backward's start, last forward's end, last op's
// end, makespan. A rank without backwards (or forwards) has an empty steady phase at its edge.
struct RankPass {
  std::array<double, idle_phase_count + 1> bounds{};
  std::vector<IdleGap> gaps;
};

// The gaps are gathered in `scratch`, which split_bubbles() hands from rank to rank, and copied out at
// their exact count: grown in place, each rank's list went through a doubling chain of fresh blocks
// (Chimera 64 x 8192: 269K gaps in 516K slots, a tenth of the CLI's time in split_bubble and the
// kernel's zeroing of those pages).
auto read_rank(const Schedule& schedule, const Timeline& timeline, double makespan, int rank,
               std::vector<IdleGap>& scratch) -> RankPass {
  const int begin = schedule.rank_begin[at(rank)];
  const int end = schedule.rank_begin[at(rank + 1)];
  RankPass out;
  scratch.clear();
  // Ops of one rank run one at a time in list order: the gaps are between one's end and the next start.
  double free_from = 0;
  const auto note_gap = [&](double start, double gap_end) {
    if (gap_end > start) scratch.push_back(IdleGap{start, gap_end, IdlePhase::fill});
  };
  double first_backward = std::numeric_limits<double>::infinity();
  double last_forward = -std::numeric_limits<double>::infinity();
  for (int i = begin; i < end; ++i) {
    const Op& op = schedule.ops[at(i)];
    const double start = timeline.start[at(i)];
    const double op_end = timeline.end[at(i)];
    if (backward_chunk(op)) first_backward = std::min(first_backward, start);
    if (has_forward(op.kind)) last_forward = std::max(last_forward, op_end);
    note_gap(free_from, start);
    free_from = std::max(free_from, op_end);
  }
  note_gap(free_from, makespan);
  out.gaps.assign(scratch.begin(), scratch.end());
  if (begin == end) {
    out.bounds = {0, makespan, makespan, makespan, makespan, makespan};
    return out;
  }
  const double first = timeline.start[at(begin)];
  const double last = timeline.end[at(end - 1)];
  const double steady_from = first_backward <= last ? first_backward : last;
  const double steady_to = std::clamp(last_forward, steady_from, last);
  out.bounds = {0, first, steady_from, steady_to, last, makespan};
  return out;
}

// The phase an idle interval falls in; a gap never straddles a bound, since every bound but 0 and
// the makespan is an op's start or end.
auto phase_of(const std::array<double, idle_phase_count + 1>& bounds, double start) -> IdlePhase {
  int p = 0;
  while (p + 1 < idle_phase_count && start >= bounds[at(p + 1)]) ++p;
  return static_cast<IdlePhase>(p);
}

// The ranges the range terms cover, overlapping ones merged, with their bounds and idle time summed.
auto covered_ranges(const std::vector<BubbleTerm>& terms, const std::array<PhaseIdle, idle_phase_count>& phases)
    -> std::vector<PhaseRange> {
  std::array<int, idle_phase_count> reach{};  // reach[p]: the last phase a range starting at p covers, or -1
  reach.fill(-1);
  for (const BubbleTerm& term : terms) {
    if (!term.phase_to) continue;
    const int first = std::min(static_cast<int>(term.phase), static_cast<int>(*term.phase_to));
    const int last = std::max(static_cast<int>(term.phase), static_cast<int>(*term.phase_to));
    reach[at(first)] = std::max(reach[at(first)], last);
  }
  std::vector<PhaseRange> out;
  for (int p = 0; p < idle_phase_count; ++p) {
    if (reach[at(p)] < 0) continue;
    if (!out.empty() && p <= static_cast<int>(out.back().last)) {  // overlaps the range before: extend it
      out.back().last = static_cast<IdlePhase>(std::max(static_cast<int>(out.back().last), reach[at(p)]));
      continue;
    }
    out.push_back(PhaseRange{static_cast<IdlePhase>(p), static_cast<IdlePhase>(reach[at(p)]), 0, 0, 0, 0, true});
  }
  for (PhaseRange& range : out) {
    range.from = phases[index(range.first)].from;
    range.to = phases[index(range.last)].to;
    for (int p = static_cast<int>(range.first); p <= static_cast<int>(range.last); ++p) range.idle += phases[at(p)].idle;
  }
  return out;
}

auto range_holding(std::vector<PhaseRange>& ranges, IdlePhase phase) -> PhaseRange* {
  for (PhaseRange& range : ranges)
    if (range.first <= phase && phase <= range.last) return &range;
  return nullptr;
}

// One rank's split, its gaps gathered in `scratch` (see read_rank).
auto split_rank(const Schedule& schedule, const Timeline& timeline, double makespan, int rank, bool stated,
                std::vector<BubbleTerm> terms, std::vector<IdleGap>& scratch) -> RankBubbleSplit {
  RankBubbleSplit out;
  out.rank = rank;
  out.stated = stated;
  RankPass pass = read_rank(schedule, timeline, makespan, rank, scratch);
  const auto& bounds = pass.bounds;
  for (int p = 0; p < idle_phase_count; ++p)
    out.phases[at(p)] = PhaseIdle{static_cast<IdlePhase>(p), bounds[at(p)], bounds[at(p + 1)], 0, 0, true, false};
  out.gaps = std::move(pass.gaps);
  for (IdleGap& gap : out.gaps) {
    gap.phase = phase_of(bounds, gap.start);
    out.phases[index(gap.phase)].idle += gap.end - gap.start;
    out.idle += gap.end - gap.start;
  }
  out.ranges = covered_ranges(terms, out.phases);
  for (const BubbleTerm& term : terms) {
    PhaseRange* range = range_holding(out.ranges, term.phase);
    (range != nullptr ? range->expected : out.phases[index(term.phase)].expected) += term.value;
    out.expected += term.value;
  }
  bool all_agree = true;
  for (PhaseRange& range : out.ranges) {
    range.agrees = bubbles_agree(range.expected, range.idle);
    all_agree = all_agree && range.agrees;
  }
  for (PhaseIdle& phase : out.phases) {
    const PhaseRange* range = range_holding(out.ranges, phase.phase);
    phase.in_range = range != nullptr;
    phase.agrees = range != nullptr ? range->agrees : bubbles_agree(phase.expected, phase.idle);
    all_agree = all_agree && phase.agrees;
  }
  out.adds_up = stated && all_agree;
  out.terms = std::move(terms);
  return out;
}

}  // namespace

auto split_bubble(const Schedule& schedule, const Timeline& timeline, double makespan, int rank, bool stated,
                  std::vector<BubbleTerm> terms) -> RankBubbleSplit {
  std::vector<IdleGap> scratch;
  return split_rank(schedule, timeline, makespan, rank, stated, std::move(terms), scratch);
}

auto split_bubbles(const Schedule& schedule, const Timeline& timeline, double makespan,
                   const std::vector<RankTerms>& rank_terms) -> std::vector<RankBubbleSplit> {
  std::vector<RankBubbleSplit> out;
  out.reserve(at(schedule.ranks()));
  std::vector<IdleGap> scratch;
  for (int r = 0; r < schedule.ranks(); ++r) {
    const bool stated = at(r) < rank_terms.size() && rank_terms[at(r)].has_value();
    out.push_back(split_rank(schedule, timeline, makespan, r, stated,
                             stated ? *rank_terms[at(r)] : std::vector<BubbleTerm>{}, scratch));
  }
  return out;
}

}  // namespace pipesim
