#include <array>
#include <charconv>
#include <cmath>
#include <string_view>
#include <utility>

#include "detail/json_document.h"
#include "detail/json_text.h"
#include "detail/report_tree.h"
#include "pipesim/presets.h"
#include "pipesim/registry.h"
#include "pipesim/report.h"

namespace pipesim {

namespace {

using nlohmann::json;

auto number(double v) -> json { return detail::json_number(v); }

// The objects below are filled key by key (out["key"] = value) rather than written as nested
// initializer lists: the same sorted json, but nlohmann builds an initializer list element by element
// through json_ref temporaries, and that code was several kilobytes a function of the engine module
// the page downloads first (issue 14: size). Key order is the json's own (sorted) either way.

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
  json out;
  out["used_receive"] = number(w.used_receive);
  out["unused_receive"] = number(w.unused_receive);
  out["send"] = number(w.send);
  if (w.on.action != CommAction::compute) {
    out["on"] = std::to_string(w.on.chunk.stage) + std::string(comm_action_name(w.on.action)) + std::to_string(w.on.chunk.mb);
    out["on_phase"] = w.on.chunk.phase;
    out["peer"] = w.peer;
  }
  return out;
}

// Waits summed per layer (reference timing): a rank's, or the run's (measure.h's WaitTotals).
auto waits_json(const WaitTotals& sum) -> json {
  json out;
  out["used_receive"] = number(sum.used_receive);
  out["unused_receive"] = number(sum.unused_receive);
  out["send"] = number(sum.send);
  return out;
}

auto held_json(const std::vector<HeldStage>& stages) -> json {
  json out = json::array();
  for (const HeldStage& h : stages) {
    json& held = out.emplace_back();
    held["phase"] = h.phase;
    held["stage"] = h.stage;
  }
  return out;
}

auto costs_json(const Costs& c) -> json {
  json out;
  out["F"] = number(c.f);
  out["B"] = number(c.b);
  out["W"] = number(c.w);
  out["FB"] = number(c.fb);
  out["comm"] = number(c.comm);
  return out;
}

auto formula_json(const Formula& f) -> json {
  json out;
  out["text"] = f.text;
  out["value"] = number(f.value);
  out["worked"] = f.worked;
  out["exact"] = f.exact;
  out["condition"] = f.condition.en;
  json& condition_in = out["condition_in"];
  condition_in["en"] = f.condition.en;
  condition_in["pt-BR"] = f.condition.pt_br;
  condition_in["zh-CN"] = f.condition.zh_cn;
  out["source"] = f.source;
  out["basis"] = f.over_span ? "span" : "makespan";
  out["simulated"] = number(f.simulated);
  out["agrees"] = f.agrees;
  return out;
}

/// One rank's bubble split into the closed form's terms (bubble_terms.h): the five phases with their
/// simulated idle time and what the terms expect there, then the terms. The idle intervals themselves
/// are the gaps between the rank's ops, which a reader of the ops finds inside each phase's bounds.
auto bubble_split_json(const RankBubbleSplit& split) -> json {
  const auto name = [](IdlePhase p) { return idle_phase_names[static_cast<std::size_t>(p)]; };
  json phases = json::array();
  for (const PhaseIdle& p : split.phases) {
    json& phase = phases.emplace_back();
    phase["phase"] = name(p.phase);
    phase["from"] = number(p.from);
    phase["to"] = number(p.to);
    phase["idle"] = number(p.idle);
    phase["expected"] = number(p.expected);
    phase["agrees"] = p.agrees;
    if (p.in_range) phase["in_range"] = true;  // only where a range term covers it: older readers unchanged
  }
  json terms = json::array();
  for (const BubbleTerm& t : split.terms) {
    json& term = terms.emplace_back();
    term["text"] = t.text;
    term["worked"] = t.worked;
    term["value"] = number(t.value);
    term["phase"] = name(t.phase);
    if (t.phase_to) term["phase_to"] = name(*t.phase_to);
  }
  json out;
  out["phases"] = std::move(phases);
  out["stated"] = split.stated;
  out["terms"] = std::move(terms);
  out["idle"] = number(split.idle);
  out["expected"] = number(split.expected);
  out["adds_up"] = split.adds_up;
  out["gaps"] = split.gaps.size();
  if (!split.ranges.empty()) {
    json ranges = json::array();
    for (const PhaseRange& r : split.ranges)
    {
      json& range = ranges.emplace_back();
      range["phase"] = name(r.first);
      range["phase_to"] = name(r.last);
      range["from"] = number(r.from);
      range["to"] = number(r.to);
      range["idle"] = number(r.idle);
      range["expected"] = number(r.expected);
      range["agrees"] = r.agrees;
    }
    out["ranges"] = std::move(ranges);
  }
  return out;
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

// ---- the full report, streamed ------------------------------------------------------------------------
// nlohmann's dump(2): an object is "{", then each member on its own line, indented two more spaces than
// its parent, as "\"key\": value" with ",\n" between members, then a line with "}" at the parent's
// indentation; arrays likewise with "[" and "]"; empty ones are "{}" and "[]". Members come in key order
// (nlohmann::json keeps them in a std::map). The writer below follows that rule for the ops it streams
// and lets dump() write every other value.

/// `value.dump(2)` for a value that starts `indent` spaces in: every line after the first moves right.
void append_dumped(std::string& out, const json& value, int indent) {
  const std::string text = value.dump(2);
  std::size_t from = 0;
  for (std::size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', from)) {
    out.append(text, from, nl + 1 - from);
    out.append(static_cast<std::size_t>(indent), ' ');
    from = nl + 1;
  }
  out.append(text, from);
}

void append_key(std::string& out, std::string_view key, int indent) {
  out.append(static_cast<std::size_t>(indent), ' ');
  out += '"';
  out += key;  // the report's keys are plain identifiers
  out += "\": ";
}

void append_whole(std::string& out, long long value) {
  std::array<char, 24> digits{};
  out.append(digits.data(), std::to_chars(digits.data(), digits.data() + digits.size(), value).ptr);
}

/// A time as to_json writes it (detail::json_number): integral values as integers.
void append_number(std::string& out, double value) {
  const json n = number(value);
  if (n.is_number_integer()) append_whole(out, n.get<long long>());
  else out += n.dump();
}

/// One op as op_json(...).dump(2) would write it at `indent`, without building it: its members in key
/// order (b_*, end, f_*, op, start for an FB; end, mb, op, phase, stage, start otherwise; then wait).
void append_op(std::string& out, const Op& op, double start, double end, const OpWait* wait, int indent) {
  const int inner = indent + 2;
  bool first = true;
  const auto member = [&](std::string_view key) {
    out += first ? "{\n" : ",\n";
    first = false;
    append_key(out, key, inner);
  };
  const auto whole = [&](std::string_view key, int v) {
    member(key);
    append_whole(out, v);
  };
  const auto name = [&] {
    member("op");
    out += '"';
    out += kind_name(op.kind);
    out += '"';
  };
  if (op.kind == OpKind::FB) {
    whole("b_mb", op.backward.mb);
    whole("b_phase", op.backward.phase);
    whole("b_stage", op.backward.stage);
    member("end");
    append_number(out, end);
    whole("f_mb", op.chunk.mb);
    whole("f_phase", op.chunk.phase);
    whole("f_stage", op.chunk.stage);
    name();
  } else {
    member("end");
    append_number(out, end);
    whole("mb", op.chunk.mb);
    name();
    whole("phase", op.chunk.phase);
    whole("stage", op.chunk.stage);
  }
  member("start");
  append_number(out, start);
  if (wait != nullptr) {  // reference timing: what the op waited for, as op_json's "wait"
    member("wait");
    append_dumped(out, wait_json(*wait), inner);
  }
  out += '\n';
  out.append(static_cast<std::size_t>(indent), ' ');
  out += '}';
}

/// Rank r's "ops" array at `indent` (the indentation of its key).
void append_ops(detail::SinkBuffer& buffer, const Run& run, int r, int indent) {
  const Schedule& s = run.schedule;
  std::string& out = buffer.text();
  if (s.rank_begin[r] == s.rank_begin[r + 1]) {
    out += "[]";
    return;
  }
  out += "[\n";
  for (int i = s.rank_begin[r]; i < s.rank_begin[r + 1]; ++i) {
    const auto ui = static_cast<std::size_t>(i);
    if (i != s.rank_begin[r]) out += ",\n";
    out.append(static_cast<std::size_t>(indent + 2), ' ');
    const OpWait* wait = run.timing == Timing::reference ? &run.timeline.waits[ui] : nullptr;
    append_op(out, s.ops[ui], run.timeline.start[ui], run.timeline.end[ui], wait, indent + 2);
    buffer.flush_if_full();
  }
  out += '\n';
  out.append(static_cast<std::size_t>(indent), ' ');
  out += ']';
}

/// One per_rank entry of the summary with its "ops" member put in key order.
void append_rank_with_ops(detail::SinkBuffer& buffer, const Run& run, const json& rank, int r, int indent) {
  const int inner = indent + 2;
  std::string& out = buffer.text();
  out += "{\n";
  bool ops_written = false;
  bool first = true;
  const auto separate = [&] {
    if (!first) out += ",\n";
    first = false;
  };
  const auto ops = [&] {
    separate();
    append_key(out, "ops", inner);
    append_ops(buffer, run, r, inner);
    ops_written = true;
  };
  for (const auto& [key, value] : rank.items()) {
    if (!ops_written && key > "ops") ops();
    separate();
    append_key(out, key, inner);
    append_dumped(out, value, inner);
  }
  if (!ops_written) ops();
  out += '\n';
  out.append(static_cast<std::size_t>(indent), ' ');
  out += '}';
}

}  // namespace

void write_json(const Run& run, Detail detail, TextSink& sink) {
  const json summary = detail::report_tree(run, Detail::summary);
  if (detail == Detail::summary) {
    sink.write(summary.dump(2));
    return;
  }
  detail::SinkBuffer buffer(sink);
  buffer.expect_records(run.schedule.ops.size());  // one object per op
  std::string& out = buffer.text();
  out += "{\n";
  bool first = true;
  for (const auto& [key, value] : summary.items()) {
    if (!first) out += ",\n";
    first = false;
    append_key(out, key, 2);
    if (key != "per_rank" || value.empty()) {
      append_dumped(out, value, 2);
      continue;
    }
    out += "[\n";
    for (std::size_t r = 0; r < value.size(); ++r) {
      if (r != 0) out += ",\n";
      out.append(4, ' ');
      append_rank_with_ops(buffer, run, value[r], static_cast<int>(r), 4);
    }
    out += "\n  ]";
  }
  out += "\n}";
  buffer.flush();
}

auto detail::report_tree(const Run& run, Detail detail) -> json {
  const Schedule& s = run.schedule;
  const Metrics& m = run.metrics;
  json out;
  out["schedule"] = s.name;
  out["title"] = std::string(run.spec->texts.en.title);
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
  out["timing"] = std::string(timing_name(run.timing));
  const bool reference = run.timing == Timing::reference;
  if (reference) out["sends"] = std::string(send_mode_name(run.sends));
  if (reference) out["waits"] = waits_json(m.waits);
  out["makespan"] = number(m.makespan);
  out["span"] = number(m.span);
  out["bubble_fraction"] = m.bubble_fraction;
  out["span_bubble_fraction"] = m.span_bubble_fraction;
  out["max_bubble"] = number(m.max_bubble);
  out["max_span_bubble"] = number(m.max_span_bubble);
  out["peak_activations"] = m.peak_activations;
  out["peak_at"] = number(m.peak_at);
  out["formula"] = formula_json(run.formula);
  out["op_count"] = s.ops.size();
  json per_rank = json::array();
  for (int r = 0; r < s.ranks(); ++r) {
    const RankMetrics& rm = m.per_rank[static_cast<std::size_t>(r)];
    json rank;
    rank["rank"] = r;
    rank["busy"] = number(rm.busy);
    rank["bubble"] = number(rm.bubble);
    rank["first_start"] = number(rm.first_start);
    rank["last_end"] = number(rm.last_end);
    rank["peak_activations"] = rm.peak_activations;
    rank["peak_at"] = number(rm.peak_at);
    rank["utilisation"] = rm.utilisation;
    rank["stages_held"] = rm.stages_held;
    rank["stages"] = held_json(rm.stages);
    if (static_cast<std::size_t>(r) < run.bubble_split.size())
      rank["bubble_split"] = bubble_split_json(run.bubble_split[static_cast<std::size_t>(r)]);
    if (reference) rank["waits"] = waits_json(rm.waits);
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

auto to_json(const Run& run, Detail detail) -> JsonDocument { return detail::document(detail::report_tree(run, detail)); }

namespace {

auto texts_json(const ScheduleTexts& t) -> json {
  json out;
  out["title"] = t.title;
  out["summary"] = t.summary;
  out["constraints"] = t.constraints;
  out["caption"] = t.caption;
  return out;
}

/// {"en": ..., "pt-BR": ..., "zh-CN": ...}: `value` of `translated` in every language.
template <class T, class Write>
auto in_every_language(const Translated<T>& translated, Write value) -> json {
  json out = json::object();
  for (std::string_view lang : languages) out[std::string(lang)] = value(translated.in(lang));
  return out;
}

}  // namespace

auto schedules_json() -> JsonDocument {
  json out = json::array();
  for (const ScheduleSpec* s : schedules()) {
    const ScheduleTexts& en = s->texts.en;
    json& entry = out.emplace_back();
    entry["name"] = s->name;
    entry["title"] = en.title;
    entry["summary"] = en.summary;
    entry["source"] = s->source;
    entry["constraints"] = en.constraints;
    entry["uses_virtual_stages"] = s->uses_virtual_stages;
    entry["takes_text"] = s->given_as_text;
    entry["two_way"] = s->two_way;
    entry["texts"] = in_every_language(s->texts, texts_json);
    json& colour = entry["colour"];
    colour["light"] = s->colour.light;
    colour["dark"] = s->colour.dark.empty() ? s->colour.light : s->colour.dark;
    json& defaults = entry["defaults"];
    defaults["ranks"] = s->defaults.ranks;
    defaults["micro_batches"] = s->defaults.micro_batches;
    defaults["virtual_stages"] = s->defaults.virtual_stages;
  }
  return detail::document(std::move(out));
}

auto presets_json() -> JsonDocument {
  json out = json::array();
  for (const Preset& p : presets()) {
    json compare = json::array();
    for (std::string_view name : p.compare) compare.push_back(name);
    json& entry = out.emplace_back();
    entry["id"] = p.id;
    entry["texts"] = in_every_language(p.name, [](std::string_view name) {
      json text;
      text["name"] = name;
      return text;
    });
    entry["schedule"] = p.schedule;
    entry["ranks"] = p.ranks;
    entry["micro_batches"] = p.micro_batches;
    entry["virtual_stages"] = p.virtual_stages;
    entry["cost"] = p.cost;
    entry["compare"] = std::move(compare);
  }
  return detail::document(std::move(out));
}

auto lesson_steps_json() -> JsonDocument {
  const auto run_json = [](const LessonRun& r) {
    json out;
    out["schedule"] = r.schedule;
    out["ranks"] = r.ranks;
    out["micro_batches"] = r.micro_batches;
    return out;
  };
  json steps = json::array();
  for (const LessonStep& step : lesson_steps()) {
    json compared = json::array();
    for (const LessonRun& r : step.compared) compared.push_back(run_json(r));
    json& entry = steps.emplace_back();
    entry["id"] = step.id;
    entry["run"] = run_json(step.run);
    entry["compared"] = std::move(compared);
  }
  json out;
  out["cost"] = lesson_cost();
  out["steps"] = std::move(steps);
  return detail::document(std::move(out));
}

}  // namespace pipesim
