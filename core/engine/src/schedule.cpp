#include "pipesim/schedule.h"

#include <algorithm>
#include <set>
#include <utility>

#include "detail/chunk_index.h"
#include "detail/size_text.h"
#include "pipesim/error.h"
#include "pipesim/limits.h"

namespace pipesim {

auto straight_layout(int ranks) -> Layout {
  Layout layout{1, ranks, {}};
  for (int s = 0; s < ranks; ++s) layout.rank_of_stage.push_back(s);
  return layout;
}

auto looped_layout(int ranks, int virtual_stages) -> Layout {
  Layout layout{1, ranks * virtual_stages, {}};
  for (int s = 0; s < layout.stages; ++s) layout.rank_of_stage.push_back(s % ranks);
  return layout;
}

auto v_layout(int ranks) -> Layout {
  Layout layout{1, 2 * ranks, {}};
  for (int s = 0; s < layout.stages; ++s) layout.rank_of_stage.push_back(s < ranks ? s : 2 * ranks - 1 - s);
  return layout;
}

auto two_way_layout(int ranks) -> Layout {
  Layout layout{2, ranks, {}};
  for (int s = 0; s < ranks; ++s) layout.rank_of_stage.push_back(s);
  for (int s = 0; s < ranks; ++s) layout.rank_of_stage.push_back(ranks - 1 - s);
  return layout;
}

auto Schedule::rank_of_op(int op_index) const -> int {
  const auto it = std::upper_bound(rank_begin.begin(), rank_begin.end(), op_index);
  return static_cast<int>(it - rank_begin.begin()) - 1;
}

auto Schedule::stages_held(int rank) const -> int {
  int held = 0;
  for (int r : layout.rank_of_stage) held += r == rank;
  return held;
}

auto detail::size_text(const ScheduleParams& p) -> std::string {
  std::string size = std::to_string(p.ranks) + " ranks x " + std::to_string(p.micro_batches) + " micro-batches";
  if (p.virtual_stages != 1) size += " x " + std::to_string(p.virtual_stages) + " virtual stages";
  return size;
}

namespace {

/// The one op limit of a run (limits::max_ops), checked before the op list is allocated. Every
/// generator passes here: the count is that of the stages each rank holds (two on a V, one per
/// virtual stage when looped) times the micro-batches times the ops of a chunk.
void check_op_count(const Schedule& s, unsigned long long ops) {
  if (ops <= static_cast<unsigned long long>(limits::max_ops)) return;
  const std::string size = detail::size_text(s.params);
  throw Error(ErrorCode::limit_exceeded,
              s.name + " at " + size + " would have " + std::to_string(ops) + " ops, over the " + std::to_string(limits::max_ops) +
                  " ops one run may have",
              {"size.ops", {{"schedule", s.name}, {"size", size}, {"ops", std::to_string(ops)}, {"max", std::to_string(limits::max_ops)}}},
              "micro_batches");  // the size the op count grows with, the one to lower
}

}  // namespace

ScheduleBuilder::ScheduleBuilder(std::string name, ScheduleParams params, Layout layout, int ops_per_chunk)
    : schedule_{std::move(name), params, std::move(layout), {}, {}, {}} {
  const Layout& l = schedule_.layout;
  // In 64 bits: a request within each size's own bound can still be billions of ops.
  const auto chunks = static_cast<unsigned long long>(std::max(l.directions * l.stages, 0)) *
                      static_cast<unsigned long long>(std::max(schedule_.micro_batches_per_path(), 0));
  const unsigned long long ops = chunks * static_cast<unsigned long long>(std::max(ops_per_chunk, 0));
  check_op_count(schedule_, ops);
  // Untouched reserved pages cost no memory on the page-mapped allocations this size gets.
  schedule_.ops.reserve(static_cast<std::size_t>(ops));
  schedule_.rank_begin.assign(static_cast<std::size_t>(std::max(params.ranks, 0)) + 1, 0);
}

ScheduleBuilder::ScheduleBuilder(std::string name, ScheduleParams params, Layout layout, ExactOps ops)
    : schedule_{std::move(name), params, std::move(layout), {}, {}, {}}, exact_ops_(ops.count) {
  check_op_count(schedule_, ops.count);
  schedule_.ops.reserve(ops.count);
  schedule_.rank_begin.assign(static_cast<std::size_t>(std::max(params.ranks, 0)) + 1, 0);
}

auto ScheduleBuilder::rank(int r) -> RankOps {
  if (r == next_rank_ - 1) return RankOps(schedule_.ops);
  if (r < next_rank_ || r >= schedule_.ranks())
    throw Error(ErrorCode::internal, "internal: a generator wrote rank " + std::to_string(r) + " out of order");
  for (; next_rank_ <= r; ++next_rank_)
    schedule_.rank_begin[static_cast<std::size_t>(next_rank_)] = static_cast<int>(schedule_.ops.size());
  return RankOps(schedule_.ops);
}

auto ScheduleBuilder::build() && -> Schedule {
  if (exact_ops_ != 0 && schedule_.ops.size() != exact_ops_)
    throw Error(ErrorCode::internal, "internal: " + schedule_.name + " announced " + std::to_string(exact_ops_) +
                                         " ops and wrote " + std::to_string(schedule_.ops.size()));
  for (auto r = static_cast<std::size_t>(next_rank_); r < schedule_.rank_begin.size(); ++r)
    schedule_.rank_begin[r] = static_cast<int>(schedule_.ops.size());
  return std::move(schedule_);
}

void validate_schedule(const Schedule& schedule) { const detail::ChunkIndex checked(schedule); }

}  // namespace pipesim
