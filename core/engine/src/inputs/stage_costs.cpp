#include "pipesim/stage_costs.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "detail/input_size.h"
#include "detail/json_text.h"
#include "detail/text.h"
#include "pipesim/error.h"
#include "pipesim/limits.h"
#include "pipesim/parse.h"

namespace pipesim {

namespace {

// How much of a stage's shorter half its own overlapped pair hides: o_s of the pairing rule.
auto overlap_fraction(const Costs& c) -> double {
  const double shorter = std::min(c.f, c.b);
  if (shorter <= 0) return 0;
  return std::clamp((c.f + c.b - c.fb) / shorter, 0.0, 1.0);
}

// The canonical key of a cost name as parse_costs reads it ("F&B" is FB, "c" is comm), or "".
auto cost_key(std::string_view name) -> std::string {
  std::string key = detail::lower(name);
  if (key == "f&b") key = "fb";
  if (key == "c") key = "comm";
  return key == "f" || key == "b" || key == "w" || key == "fb" || key == "comm" ? key : "";
}

auto slot_of(PartialCosts& p, const std::string& key) -> std::optional<double>& {
  if (key == "f") return p.f;
  if (key == "b") return p.b;
  if (key == "w") return p.w;
  if (key == "fb") return p.fb;
  return p.comm;
}

auto stage_count_text(const Schedule& s) -> std::string {
  return s.name + " on " + std::to_string(s.ranks()) + " ranks has " + std::to_string(s.layout.stages) + " stage" +
         (s.layout.stages == 1 ? "" : "s");
}

// The stages the table and the overrides index: the schedule's own, or on the same-model basis the
// model's N stages, which each schedule then re-cuts.
struct Indexed {
  int count;
  std::string described;  // "1f1b on 4 ranks has 4 stages", for messages
};

auto indexed_stages(const CostRequest& request, const Schedule& s) -> Indexed {
  if (request.model_stages > 0)
    return {request.model_stages, "the model has " + std::to_string(request.model_stages) + " stage" +
                                      (request.model_stages == 1 ? "" : "s") + " (its costs are given per stage of " +
                                      std::to_string(request.model_stages) + ")"};
  return {s.layout.stages, stage_count_text(s)};
}

auto stage_index(const StageSelector& at, const Indexed& stages) -> int {
  switch (at.kind) {
    case StageSelector::Kind::first: return 0;
    case StageSelector::Kind::last: return stages.count - 1;
    case StageSelector::Kind::index: break;
  }
  if (at.index < 0 || at.index >= stages.count)
    throw Error(ErrorCode::bad_value, "--stage-cost stage " + std::to_string(at.index) + " is out of range: " +
                stages.described + " (0 to " + std::to_string(stages.count - 1) + ", or first / last)",
                {"stage_cost.stage_range", {{"stage", std::to_string(at.index)}, {"stages", std::to_string(stages.count)}, {"max", std::to_string(stages.count - 1)}}},
                "stage_cost");
  return at.index;
}

// `base` for each indexed stage, then the table, then the overrides in order.
auto cost_profile(const Costs& base, const CostRequest& request, const Indexed& stages) -> std::vector<Costs> {
  std::vector<Costs> out(static_cast<std::size_t>(stages.count), base);
  if (!request.table.empty()) {
    if (static_cast<int>(request.table.size()) != stages.count)
      throw Error(ErrorCode::bad_value, "--stage-costs lists " + std::to_string(request.table.size()) + " stage" +
                  (request.table.size() == 1 ? "" : "s") + " but " + stages.described,
                  {"stage_cost.table_length", {{"listed", std::to_string(request.table.size())}, {"stages", std::to_string(stages.count)}}}, "stage_cost");
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = request.table[k].apply(base);
  }
  for (const StageCostOverride& o : request.overrides) {
    Costs& stage = out[static_cast<std::size_t>(stage_index(o.stage, stages))];
    stage = o.costs.apply(stage);
  }
  return out;
}

auto same_costs(const Costs& a, const Costs& b) -> bool {
  return a.f == b.f && a.b == b.b && a.w == b.w && a.fb == b.fb && a.comm == b.comm;
}

// One stage's share when a model cut into `model_stages` stages is cut into `stages` instead; a
// boundary's latency is kept. Multiplied first, so the default preset's halves and doubles are exact.
auto per_stage_share(const Costs& c, int model_stages, int stages) -> Costs {
  const double m = model_stages;
  const double n = stages;
  Costs out = c;
  out.f = c.f * m / n;
  out.b = c.b * m / n;
  out.w = c.w * m / n;
  out.fb = c.fb * m / n;
  return out;
}

// Stage j of S when a model of N stages with these costs is cut into S instead: the integral of the
// model's costs over its share [j N / S, (j+1) N / S) of the model, and the latency of the model's
// boundary it ends in. In units of 1/S of a model stage, model stage u spans [u S, (u+1) S) and stage j
// spans [j N, (j+1) N), so every overlap is a whole number. Where the share lies within stages that
// cost the same, it is per_stage_share() exactly (the uniform basis loses no precision).
auto recut_stage(const std::vector<Costs>& model, int j, int stages) -> Costs {
  const auto n = static_cast<long long>(model.size());
  const long long s = stages;
  const long long from = j * n;
  const long long to = from + n;
  const long long first = from / s;
  const long long last = (to - 1) / s;
  const auto at = [&](long long u) -> const Costs& { return model[static_cast<std::size_t>(u)]; };
  bool alike = true;
  for (long long u = first + 1; u <= last && alike; ++u) alike = same_costs(at(u), at(first));
  if (alike) return per_stage_share(at(first), static_cast<int>(n), stages);
  Costs out;
  out.f = out.b = out.w = out.fb = 0;
  for (long long u = first; u <= last; ++u) {
    const double share = static_cast<double>(std::min(to, (u + 1) * s) - std::max(from, u * s)) / static_cast<double>(s);
    out.f += at(u).f * share;
    out.b += at(u).b * share;
    out.w += at(u).w * share;
    out.fb += at(u).fb * share;
  }
  out.comm = at(last).comm;
  return out;
}

// Runs validate_costs on one stage, naming the stage in its message: the refusal is about the
// per-stage costs, not the costs every stage starts from.
void validate_stage(const Costs& c, int stage, const char* which = "stage ") {
  try {
    validate_costs(c);
  } catch (const Error& e) {
    const Error located = e.within(which + std::to_string(stage) + ": ", std::string(which) == "stage " ? "stage" : "model_stage", std::to_string(stage));
    throw Error(located.code(), located.what(), located.wording(), "stage_cost");
  }
}

}  // namespace

auto PartialCosts::apply(const Costs& base) const -> Costs {
  Costs c = base;
  c.f = f.value_or(base.f);
  c.b = b.value_or(base.b);
  c.w = w.value_or(base.w);
  c.comm = comm.value_or(base.comm);
  if (fb) c.fb = *fb;
  else if (c.f != base.f || c.b != base.b)
    c.fb = c.f + c.b - overlap_fraction(base) * std::min(c.f, c.b);
  return c;
}

auto StageCosts::uniform() const -> bool {
  const auto same = [&](const Costs& c) {
    const Costs& s = stages.front();
    return c.f == s.f && c.b == s.b && c.w == s.w && c.fb == s.fb && c.comm == s.comm;
  };
  return std::all_of(stages.begin(), stages.end(), same) &&
         std::all_of(rank_speed.begin(), rank_speed.end(), [](double v) { return v == 1; });
}

auto uniform_stage_costs(const Costs& costs, int stages, int ranks) -> StageCosts {
  return {std::vector<Costs>(static_cast<std::size_t>(std::max(stages, 0)), costs),
          std::vector<double>(static_cast<std::size_t>(std::max(ranks, 0)), 1.0)};
}

auto base_stage_costs(const Costs& costs, const CostRequest& request, int stages) -> Costs {
  return request.model_stages > 0 ? per_stage_share(costs, request.model_stages, stages) : costs;
}

auto resolve_stage_costs(const Costs& costs, const CostRequest& request, const Schedule& schedule) -> StageCosts {
  const int stages = schedule.layout.stages;
  // A model is cut into at most as many stages as the largest schedule has.
  constexpr int most_stages = 2 * limits::max_ranks * limits::max_virtual_stages;
  if (request.model_stages < 0 || request.model_stages > most_stages)
    throw Error(ErrorCode::bad_value, "model stages must be a whole number from 1 to " + std::to_string(most_stages) + ", got " +
                std::to_string(request.model_stages),
                {"stage_cost.model_stages", {{"max", std::to_string(most_stages)}, {"value", std::to_string(request.model_stages)}}}, "model_stages");
  StageCosts out = uniform_stage_costs(costs, stages, schedule.ranks());
  out.model_stages = request.model_stages;
  const Indexed indexed = indexed_stages(request, schedule);
  std::vector<Costs> profile = cost_profile(costs, request, indexed);
  if (request.model_stages > 0) {
    for (std::size_t k = 0; k < profile.size(); ++k) validate_stage(profile[k], static_cast<int>(k), "model stage ");
    for (int j = 0; j < stages; ++j) out.stages[static_cast<std::size_t>(j)] = recut_stage(profile, j, stages);
  } else {
    out.stages = std::move(profile);
  }
  for (const RankSpeed& speed : request.rank_speeds) {
    if (speed.rank < 0 || speed.rank >= schedule.ranks())
      throw Error(ErrorCode::bad_value, "--rank-speed rank " + std::to_string(speed.rank) + " is out of range: " +
                  schedule.name + " has ranks 0 to " + std::to_string(schedule.ranks() - 1),
                  {"rank_speed.rank_range", {{"rank", std::to_string(speed.rank)}, {"schedule", schedule.name}, {"max", std::to_string(schedule.ranks() - 1)}}},
                  "rank_speed");
    out.rank_speed[static_cast<std::size_t>(speed.rank)] = speed.factor;
  }
  validate_stage_costs(out, schedule);
  return out;
}

void validate_stage_costs(const StageCosts& costs, const Schedule& schedule) {
  if (static_cast<int>(costs.stages.size()) != schedule.layout.stages)
    throw Error(ErrorCode::bad_value, "stage costs list " + std::to_string(costs.stages.size()) + " stages but " +
                stage_count_text(schedule),
                {"stage_cost.stages_listed", {{"listed", std::to_string(costs.stages.size())}, {"stages", std::to_string(schedule.layout.stages)}}});
  if (static_cast<int>(costs.rank_speed.size()) != schedule.ranks())
    throw Error(ErrorCode::bad_value, "rank speeds list " + std::to_string(costs.rank_speed.size()) + " ranks but " +
                schedule.name + " has " + std::to_string(schedule.ranks()),
                {"rank_speed.ranks_listed", {{"listed", std::to_string(costs.rank_speed.size())}, {"ranks", std::to_string(schedule.ranks())}}});
  for (std::size_t s = 0; s < costs.stages.size(); ++s) validate_stage(costs.stages[s], static_cast<int>(s));
  for (std::size_t r = 0; r < costs.rank_speed.size(); ++r) {
    const double v = costs.rank_speed[r];
    // The same range as a cost: a duration divided by a speed stays a normal, finite number.
    if (!std::isfinite(v) || v <= 0 || v < min_cost || v > max_cost)
      throw Error(ErrorCode::bad_value, "--rank-speed factor of rank " + std::to_string(r) + " must be a number > 0 (from " +
                  format_number(min_cost) + " to " + format_number(max_cost) + "), got " + format_number(v),
                  {"rank_speed.factor_range", {{"rank", std::to_string(r)}, {"min", format_number(min_cost)}, {"max", format_number(max_cost)}, {"value", format_number(v)}}},
                  "rank_speed");
  }
}

auto pair_duration(const Costs& forward, const Costs& backward) -> double {
  const bool same = forward.f == backward.f && forward.b == backward.b && forward.fb == backward.fb;
  if (same) return forward.fb;  // exactly the stage's own FB, not a rounding of it
  const double hidden = std::min(overlap_fraction(forward), overlap_fraction(backward)) * std::min(forward.f, backward.b);
  return forward.f + backward.b - hidden;
}

// Every refusal of these texts is about the option they come from (function-try-blocks say so once).
auto parse_stage_cost(std::string_view text) -> StageCostOverride try {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos)
    throw Error(ErrorCode::bad_value, "--stage-cost must be STAGE:KEY=VALUE,... (STAGE an index, first or last), got '" +
                quoted_input(detail::trim(text)) + "'",
                {"stage_cost.syntax", {{"value", quoted_input(detail::trim(text))}}});
  StageCostOverride out;
  const std::string stage = detail::lower(detail::trim(text.substr(0, colon)));
  if (stage == "first") out.stage.kind = StageSelector::Kind::first;
  else if (stage == "last") out.stage.kind = StageSelector::Kind::last;
  else
    try {
      out.stage.index = parse_whole_in("--stage-cost stage", stage, 0, max_chunk_stage);
    } catch (const Error& e) {  // its own key: "stage" is a word of the sentence, not a name to quote
      throw Error(e.code(), e.what(),
                  {"stage_cost.stage_whole", {{"min", "0"}, {"max", std::to_string(max_chunk_stage)}, {"value", stage}}}, e.field());
    }
  bool any = false;
  for (const detail::Assignment& a : detail::split_assignments(text.substr(colon + 1))) {
    const std::string key = cost_key(a.key);
    if (!a.has_value || key.empty())
      throw Error(a.has_value ? ErrorCode::unknown_name : ErrorCode::bad_value,
                  "--stage-cost '" + std::string(a.item) + "' must be KEY=VALUE with KEY one of F, B, W, FB, comm",
                  {"stage_cost.assignment", {{"value", std::string(a.item)}}});
    std::optional<double>& slot = slot_of(out.costs, key);
    if (slot)
      throw Error(ErrorCode::bad_value, "--stage-cost cost " + std::string(a.key) + " is given twice",
                  {"stage_cost.twice", {{"cost", std::string(a.key)}}});
    const auto value = parse_finite(a.value);
    if (!value)
      throw Error(ErrorCode::bad_value, "--stage-cost cost " + std::string(a.key) + " must be a number, got '" + quoted_input(a.value) + "'",
                  {"stage_cost.not_number", {{"cost", std::string(a.key)}, {"value", quoted_input(a.value)}}});
    slot = *value;
    any = true;
  }
  if (!any)
    throw Error(ErrorCode::bad_value, "--stage-cost '" + std::string(detail::trim(text)) + "' gives no cost after the stage",
                {"stage_cost.no_cost", {{"value", std::string(detail::trim(text))}}});
  return out;
} catch (const Error& e) {
  throw e.about("stage_cost");
}

auto parse_rank_speed(std::string_view text) -> RankSpeed try {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos)
    throw Error(ErrorCode::bad_value, "--rank-speed must be RANK:FACTOR (0.5 = half speed), got '" + quoted_input(detail::trim(text)) + "'",
                {"rank_speed.syntax", {{"value", quoted_input(detail::trim(text))}}});
  RankSpeed out;
  out.rank = parse_whole_in("--rank-speed rank", detail::trim(text.substr(0, colon)), 0, limits::max_ranks - 1);
  const auto factor = parse_finite(text.substr(colon + 1));
  if (!factor || *factor <= 0)
    throw Error(ErrorCode::bad_value, "--rank-speed factor of rank " + std::to_string(out.rank) + " must be a number > 0, got '" +
                quoted_input(detail::trim(text.substr(colon + 1))) + "'",
                {"rank_speed.factor", {{"rank", std::to_string(out.rank)}, {"value", quoted_input(detail::trim(text.substr(colon + 1)))}}});
  out.factor = *factor;
  return out;
} catch (const Error& e) {
  throw e.about("rank_speed");
}

auto parse_stage_cost_table(std::string_view json_text) -> std::vector<PartialCosts> try {
  detail::check_input_size(json_text, limits::max_small_json_bytes, "a stage cost table");
  nlohmann::json root;
  try {
    root = nlohmann::json::parse(json_text);
  } catch (const nlohmann::json::exception&) {
    throw Error(ErrorCode::bad_import, "--stage-costs is not valid JSON: expected a list such as [{\"F\": 1, \"B\": 2}, ...]",
                {"stage_costs.not_json", {}});
  }
  if (!root.is_array() || root.empty())
    throw Error(ErrorCode::bad_import, "--stage-costs must be a non-empty JSON list with one object of costs per stage",
                {"stage_costs.not_list", {}});
  std::vector<PartialCosts> out;
  for (std::size_t s = 0; s < root.size(); ++s) {
    const nlohmann::json& entry = root[s];
    const std::string where = "--stage-costs entry " + std::to_string(s);
    const std::string entry_index = std::to_string(s);
    if (!entry.is_object())
      throw Error(ErrorCode::bad_import, where + " must be an object of costs, got " + detail::describe_json(entry),
                  {"stage_costs.entry_not_object", {{"entry", entry_index}, {"value", detail::describe_json(entry)}}});
    PartialCosts p;
    for (const auto& [name, value] : entry.items()) {
      const std::string key = cost_key(name);
      if (key.empty())
        throw Error(ErrorCode::unknown_name, where + ": unknown cost '" + quoted_input(name) + "'; known costs are F, B, W, FB, comm",
                    {"stage_costs.unknown_cost", {{"entry", entry_index}, {"cost", quoted_input(name)}}});
      std::optional<double>& slot = slot_of(p, key);
      if (slot)
        throw Error(ErrorCode::bad_import, where + ": cost " + name + " is given twice", {"stage_costs.twice", {{"entry", entry_index}, {"cost", name}}});
      if (!value.is_number() || !std::isfinite(value.get<double>()))
        throw Error(ErrorCode::bad_value, where + ": cost " + name + " must be a number, got " + detail::describe_json(value),
                    {"stage_costs.not_number", {{"entry", entry_index}, {"cost", name}, {"value", detail::describe_json(value)}}});
      slot = value.get<double>();
    }
    out.push_back(p);
  }
  return out;
} catch (const Error& e) {
  throw e.about("stage_cost");
}

}  // namespace pipesim
