#include "pipesim/registry.h"

#include <algorithm>
#include <vector>

#include "detail/specs.h"
#include "pipesim/error.h"
#include "pipesim/limits.h"
#include "pipesim/reference.h"
#include "pipesim/parse.h"

namespace pipesim {

namespace {

// The built-ins in display order (detail/schedule_list.h), then registrations in the order made.
auto catalogue() -> std::vector<const ScheduleSpec*>& {
  static std::vector<const ScheduleSpec*> all = {
#define PIPESIM_SCHEDULE(id) &detail::id##_spec,
#include "detail/schedule_list.h"
#undef PIPESIM_SCHEDULE
  };
  return all;
}

auto names() -> std::string {
  std::string out;
  for (const ScheduleSpec* s : catalogue()) out += (out.empty() ? "" : ", ") + std::string(s->name);
  return out;
}

// Below 1 the value is meaningless (bad_value); above the bound it is a resource limit. `field` is the
// size's name in the report (Error::field), `what` its name in words.
void check_count(const char* field, const char* what, long long value, long long max) {
  if (value < 1)
    throw Error(ErrorCode::bad_value, std::string(what) + " must be at least 1 (got " + std::to_string(value) + ")",
                {"size.at_least_1", {{"field", what}, {"value", std::to_string(value)}}}, field);
  if (value > max)
    throw Error(ErrorCode::limit_exceeded, std::string(what) + " must be at most " + std::to_string(max) +
                                               ", the limit of one run (got " + std::to_string(value) + ")",
                {"size.at_most", {{"field", what}, {"max", std::to_string(max)}, {"value", std::to_string(value)}}}, field);
}

void check_bounds(const ScheduleSpec& spec, const ScheduleParams& p) {
  check_count("ranks", "ranks", p.ranks, limits::max_ranks);
  check_count("micro_batches", "micro-batches", p.micro_batches, limits::max_micro_batches);
  check_count("virtual_stages", "virtual stages", p.virtual_stages, limits::max_virtual_stages);
  if (!spec.uses_virtual_stages && p.virtual_stages != 1)
    throw Error(ErrorCode::schedule_rule,
                std::string(spec.name) + " has one stage per rank; --virtual-stages applies only to interleaved schedules",
                {"size.virtual_stages_unused", {{"schedule", std::string(spec.name)}}}, "virtual_stages");
  // The op count of the whole run (limits::max_ops) is checked where the ops are laid out, before any
  // is allocated: ScheduleBuilder knows the stages each rank holds, which these sizes do not say.
}

}  // namespace

auto schedules() -> std::span<const ScheduleSpec* const> { return catalogue(); }

ScheduleRegistration::ScheduleRegistration(const ScheduleSpec& spec) : spec_(&spec) {
  const std::string name(spec.name);
  if (name.empty()) throw Error(ErrorCode::bad_value, "a registered schedule needs a name");
  for (const ScheduleSpec* s : catalogue())
    if (s->name == spec.name) throw Error(ErrorCode::bad_value, "schedule '" + name + "' is already registered");
  if (spec.formula == nullptr || (!spec.given_as_text && (spec.check == nullptr || spec.generate == nullptr)))
    throw Error(ErrorCode::bad_value, "schedule '" + name + "' needs check, generate and formula (or formula, given as text)");
  catalogue().push_back(spec_);
}

ScheduleRegistration::~ScheduleRegistration() { std::erase(catalogue(), spec_); }

auto find_schedule(std::string_view name) -> const ScheduleSpec& {
  for (const ScheduleSpec* s : catalogue())
    if (s->name == name) return *s;
  throw Error(ErrorCode::unknown_name, "unknown schedule '" + quoted_input(name) + "'; known schedules: " + names(),
              {"schedule.unknown", {{"name", quoted_input(name)}, {"known", names()}}}, "schedule");
}

namespace {

// A schedule's sizes checked: its bounds, then its own rules. A schedule given as text has no parameters
// to generate from, so it is refused first, whatever the sizes: by its own check if it has one (custom's
// asks for the text), else with the message below (one registered with a formula only), never through a
// null check.
void check_generated(const ScheduleSpec& spec, const ScheduleParams& params) {
  if (spec.given_as_text) {
    if (spec.check != nullptr) spec.check(params);
    throw Error(ErrorCode::usage, "schedule '" + std::string(spec.name) + "' is given as text: it has no parameters to generate from");
  }
  check_bounds(spec, params);
  spec.check(params);
}

}  // namespace

void check_schedule(std::string_view name, const ScheduleParams& params) { check_generated(find_schedule(name), params); }

auto build_schedule(std::string_view name, const ScheduleParams& params) -> Schedule {
  check_schedule(name, params);
  return find_schedule(name).generate(params);
}

auto accepted_values(std::string_view name, ScheduleParams params, SizeField field, int from, int to) -> std::vector<int> {
  const ScheduleSpec& spec = find_schedule(name);  // an unknown name is refused, not answered with nothing
  std::vector<int> out;
  if (spec.given_as_text) return out;  // a schedule given as text has the sizes of its text
  int& varied = field == SizeField::ranks            ? params.ranks
                : field == SizeField::micro_batches ? params.micro_batches
                                                    : params.virtual_stages;
  for (int v = std::max(from, 1); v <= to; ++v) {
    varied = v;
    try {
      check_schedule(name, params);
      out.push_back(v);
    } catch (const Error&) {
      // refused: not a value to offer
    }
  }
  return out;
}

auto build_schedule_with_comm(std::string_view name, const ScheduleParams& params) -> Schedule {
  const ScheduleSpec& spec = find_schedule(name);
  if (spec.generate_with_comm == nullptr) {
    Schedule s = build_schedule(name, params);
    s.comm = lower_send_recv(s);
    return s;
  }
  check_generated(spec, params);
  return spec.generate_with_comm(params);
}

}  // namespace pipesim
