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

// What one op of the reference timing waited for, in the layers of OpWait, and the request that
// ended the wait: `{"used_receive":..,"unused_receive":..,"send":..,"on":"2RECV_F5","peer":3}`.
auto wait_json(const OpWait& w) -> json {
  json out = {{"used_receive", number(w.used_receive)}, {"unused_receive", number(w.unused_receive)}, {"send", number(w.send)}};
  if (w.on.action != CommAction::compute) {
    out["on"] = std::to_string(w.on.chunk.stage) + std::string(comm_action_name(w.on.action)) + std::to_string(w.on.chunk.mb);
    out["on_phase"] = w.on.chunk.phase;
    out["peer"] = w.peer;
  }
  return out;
}

// A rank's waits summed per layer (reference timing).
auto rank_waits_json(const Run& run, int r) -> json {
  OpWait sum;
  for (int i = run.schedule.rank_begin[r]; i < run.schedule.rank_begin[r + 1]; ++i) {
    const OpWait& w = run.timeline.waits[static_cast<std::size_t>(i)];
    sum.used_receive += w.used_receive;
    sum.unused_receive += w.unused_receive;
    sum.send += w.send;
  }
  return {{"used_receive", number(sum.used_receive)}, {"unused_receive", number(sum.unused_receive)}, {"send", number(sum.send)}};
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
  out["timing"] = std::string(timing_name(run.timing));
  const bool reference = run.timing == Timing::reference;
  if (reference) out["sends"] = std::string(send_mode_name(run.sends));
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
    if (reference) rank["waits"] = rank_waits_json(run, r);
    if (detail == Detail::full) {
      json ops = json::array();
      for (int i = s.rank_begin[r]; i < s.rank_begin[r + 1]; ++i) {
        const auto ui = static_cast<std::size_t>(i);
        ops.push_back(op_json(s.ops[ui], run.timeline.start[ui], run.timeline.end[ui]));
        if (reference) ops.back()["wait"] = wait_json(run.timeline.waits[ui]);
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
