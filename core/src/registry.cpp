#include "pipesim/registry.h"

#include <array>

#include "detail/specs.h"
#include "pipesim/error.h"

namespace pipesim {

namespace {

// Display order: the classics, the zero-bubble family, the two-direction schedules, then the user's own.
const std::array<const ScheduleSpec*, 10> catalogue = {
    &detail::gpipe_spec,    &detail::one_f_one_b_spec, &detail::interleaved_1f1b_spec, &detail::zb_h1_spec,
    &detail::zb_h2_spec,    &detail::zb_v_spec,        &detail::dualpipe_spec,         &detail::dualpipev_spec,
    &detail::chimera_spec,  &detail::custom_spec,
};

// Bounds that keep a run small enough for a browser tab (a few million ops at most).
constexpr int max_ranks = 256;
constexpr int max_micro_batches = 4096;
constexpr int max_virtual_stages = 16;
constexpr long long max_chunks = 1'000'000;

auto names() -> std::string {
  std::string out;
  for (const ScheduleSpec* s : catalogue) out += (out.empty() ? "" : ", ") + std::string(s->name);
  return out;
}

void check_bounds(const ScheduleSpec& spec, const ScheduleParams& p) {
  if (p.ranks < 1 || p.ranks > max_ranks)
    throw Error("ranks must be between 1 and " + std::to_string(max_ranks) + " (got " + std::to_string(p.ranks) + ")");
  if (p.micro_batches < 1 || p.micro_batches > max_micro_batches)
    throw Error("micro-batches must be between 1 and " + std::to_string(max_micro_batches) + " (got " +
                std::to_string(p.micro_batches) + ")");
  if (p.virtual_stages < 1 || p.virtual_stages > max_virtual_stages)
    throw Error("virtual stages must be between 1 and " + std::to_string(max_virtual_stages) + " (got " +
                std::to_string(p.virtual_stages) + ")");
  if (!spec.uses_virtual_stages && p.virtual_stages != 1)
    throw Error(std::string(spec.name) + " has one stage per rank; --virtual-stages applies only to interleaved schedules");
  const long long chunks = static_cast<long long>(p.ranks) * p.micro_batches * p.virtual_stages;
  if (chunks > max_chunks)
    throw Error("ranks x micro-batches x virtual stages must be at most " + std::to_string(max_chunks) + " (got " +
                std::to_string(chunks) + ")");
}

}  // namespace

auto schedules() -> std::span<const ScheduleSpec* const> { return catalogue; }

auto find_schedule(std::string_view name) -> const ScheduleSpec& {
  for (const ScheduleSpec* s : catalogue)
    if (s->name == name) return *s;
  throw Error("unknown schedule '" + std::string(name) + "'; known schedules: " + names());
}

auto build_schedule(std::string_view name, const ScheduleParams& params) -> Schedule {
  const ScheduleSpec& spec = find_schedule(name);
  check_bounds(spec, params);
  spec.check(params);
  return spec.generate(params);
}

}  // namespace pipesim
