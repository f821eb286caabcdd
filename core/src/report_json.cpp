#include <cmath>

#include "detail/json_text.h"
#include "pipesim/report.h"

namespace pipesim {

namespace {

using nlohmann::json;

auto number(double v) -> json { return detail::json_number(v); }

auto chunk_fields(json& out, const char* prefix, const Chunk& c) {
  const std::string p(prefix);
  out[p + "mb"] = c.mb;
  out[p + "phase"] = c.phase;
  out[p + "stage"] = c.stage;
}

auto op_json(const Op& op, double start, double end) -> json {
  json out;
  out["op"] = std::string(kind_name(op.kind));
  if (op.kind == OpKind::FB) {
    chunk_fields(out, "f_", op.chunk);
    chunk_fields(out, "b_", op.backward);
  } else {
    chunk_fields(out, "", op.chunk);
  }
  out["start"] = number(start);
  out["end"] = number(end);
  return out;
}

auto costs_json(const Costs& c) -> json {
  return {{"F", number(c.f)}, {"B", number(c.b)}, {"W", number(c.w)}, {"FB", number(c.fb)}, {"comm", number(c.comm)}};
}

auto formula_json(const Formula& f) -> json {
  return {{"text", f.text},     {"value", number(f.value)},    {"worked", f.worked}, {"exact", f.exact},
          {"condition", f.condition}, {"source", f.source}, {"basis", f.over_span ? "span" : "makespan"}};
}

/// What `phase` means in this schedule, read off its layout: the direction of a two-way schedule, the
/// leg of a V (rank r holds stages r and 2p-1-r), the virtual chunk of a looped placement, or nothing.
auto phase_meaning(const Schedule& s) -> const char* {
  if (s.layout.directions == 2) return "direction";
  const int stages = s.layout.stages;
  if (stages <= s.ranks()) return "none";
  bool v_shaped = stages == 2 * s.ranks();
  for (int stage = 0; v_shaped && stage < stages; ++stage)
    v_shaped = s.layout.rank_of(0, stage) == s.layout.rank_of(0, stages - 1 - stage);
  return v_shaped ? "leg" : "chunk";
}

}  // namespace

auto to_json(const Run& run, Detail detail) -> json {
  const Schedule& s = run.schedule;
  const Metrics& m = run.metrics;
  json out;
  out["schedule"] = s.name;
  out["title"] = std::string(run.spec->title);
  out["ranks"] = s.ranks();
  out["stages"] = s.layout.stages;
  out["directions"] = s.layout.directions;
  out["phases"] = phase_meaning(s);
  out["micro_batches"] = s.params.micro_batches;
  out["virtual_stages"] = s.params.virtual_stages;
  out["cost"] = costs_json(run.costs);
  // The costs each op was timed with, one entry per stage as chunks count them, and each rank's speed.
  json stage_costs = json::array();
  for (const Costs& c : run.stage_costs.stages) stage_costs.push_back(costs_json(c));
  out["stage_costs"] = std::move(stage_costs);
  out["rank_speed"] = run.stage_costs.rank_speed;
  // Which comparison the costs make: every schedule's stages alike, or one model cut by each schedule.
  out["cost_basis"] = run.stage_costs.model_stages > 0 ? "same-model" : "same-stage-costs";
  out["model_stages"] = run.stage_costs.model_stages;
  out["makespan"] = number(m.makespan);
  out["span"] = number(m.span);
  out["bubble_fraction"] = m.bubble_fraction;
  out["span_bubble_fraction"] = m.span_bubble_fraction;
  out["max_bubble"] = number(m.max_bubble);
  out["max_span_bubble"] = number(m.max_span_bubble);
  out["peak_activations"] = m.peak_activations;
  out["formula"] = formula_json(run.formula);
  out["op_count"] = s.ops.size();
  json per_rank = json::array();
  for (int r = 0; r < s.ranks(); ++r) {
    const RankMetrics& rm = m.per_rank[static_cast<std::size_t>(r)];
    json rank = {{"rank", r},
                 {"busy", number(rm.busy)},
                 {"bubble", number(rm.bubble)},
                 {"first_start", number(rm.first_start)},
                 {"last_end", number(rm.last_end)},
                 {"peak_activations", rm.peak_activations},
                 {"stages_held", rm.stages_held}};
    if (detail == Detail::full) {
      json ops = json::array();
      for (int i = s.rank_begin[r]; i < s.rank_begin[r + 1]; ++i) {
        const auto ui = static_cast<std::size_t>(i);
        ops.push_back(op_json(s.ops[ui], run.timeline.start[ui], run.timeline.end[ui]));
      }
      rank["ops"] = std::move(ops);
    }
    per_rank.push_back(std::move(rank));
  }
  out["per_rank"] = std::move(per_rank);
  return out;
}

auto schedules_json() -> json {
  json out = json::array();
  for (const ScheduleSpec* s : schedules())
    out.push_back({{"name", s->name},
                   {"title", s->title},
                   {"summary", s->summary},
                   {"source", s->source},
                   {"constraints", s->constraints},
                   {"uses_virtual_stages", s->uses_virtual_stages},
                   {"takes_text", s->parse != nullptr}});
  return out;
}

}  // namespace pipesim
