#include "pipesim/lesson.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "detail/course_files.h"
#include "detail/i18n.h"
#include "detail/json_document.h"
#include "detail/json_trees.h"
#include "pipesim/error.h"
#include "pipesim/planner.h"
#include "pipesim/registry.h"

namespace pipesim {

namespace {

using nlohmann::json;
using Values = std::map<std::string, std::string>;

/// The strings of one exercise in one language.
class Texts {
 public:
  Texts(const json& lesson_text, int exercise, std::string lang)
      : lang_(std::move(lang)), root_(lesson_text), section_(lesson_text.at("exercise_" + std::to_string(exercise))) {}

  [[nodiscard]] auto lang() const -> const std::string& { return lang_; }
  [[nodiscard]] auto get(const std::string& key, const Values& values = {}) const -> std::string {
    return detail::fill(detail::pick(section_.at(key), lang_, key), values);
  }
  [[nodiscard]] auto step(const std::string& key) const -> std::string {
    return detail::pick(section_.at("steps").at(key), lang_, "step " + key);
  }
  [[nodiscard]] auto common(const std::string& key, const Values& values = {}) const -> std::string {
    return detail::fill(detail::pick(root_.at("common").at(key), lang_, key), values);
  }
  [[nodiscard]] auto assumptions(const Values& values = {}) const -> json {
    json out = json::array();
    for (const json& a : section_.at("assumptions")) out.push_back(detail::fill(detail::pick(a, lang_, "assumption"), values));
    return out;
  }
  [[nodiscard]] auto section() const -> const json& { return section_; }

 private:
  std::string lang_;
  const json& root_;  ///< core/data/lesson_text.json
  const json& section_;
};

/// A formula operand: integers as integers, otherwise 4 significant digits ("0.6957", "1.278").
auto term(double v) -> std::string {
  if (std::floor(v) == v && std::fabs(v) < 1e15) return format_number(v);
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4g", v);
  return buffer;
}

/// A formula's text from its pieces: one string built once, where a chain of + builds and frees one per
/// piece (issue 14: each temporary is code, its destruction on the exception path included).
auto joined(std::initializer_list<std::string_view> pieces) -> std::string {
  std::string out;
  for (const std::string_view piece : pieces) out += piece;
  return out;
}

auto step(const Texts& t, const char* key, std::string formula, double value, std::string display, const char* unit_key = "")
    -> json {
  // Objects here are filled key by key rather than as nested initializer lists: the same sorted json,
  // less code (nlohmann builds an initializer list through a json_ref per element; issue 14: size).
  json out;
  out["key"] = key;
  out["label"] = t.step(key);
  out["formula"] = std::move(formula);
  out["value"] = value;
  out["display"] = std::move(display);
  out["unit"] = *unit_key == '\0' ? std::string() : t.common(unit_key);
  return out;
}

auto header(const Texts& t, int exercise, const Values& values) -> json {
  json out;
  out["exercise"] = exercise;
  out["language"] = t.lang();
  out["title"] = t.get("title");
  out["question"] = t.get("question", values);
  return out;
}

auto run_schedule(const std::string& name, int ranks, int micro_batches, const Costs& costs) -> Run {
  RunRequest request;
  request.schedule = name;
  request.params = {ranks, micro_batches, 1};
  request.costs = costs;
  return run_generated(request);
}

auto total_busy(const Run& r) -> double {
  double busy = 0;
  for (const RankMetrics& rm : r.metrics.per_rank) busy += rm.busy;
  return busy;
}

// ---------------------------------------------------------------------------------------------------
// Exercise 1

auto exercise_1(const json& text, const LessonRequest& req) -> json {
  const Texts t(text, 1, req.language);
  const std::string& l = t.lang();
  const RecoveredGpuHours e = recovered_gpu_hours(req.costs);
  const int p = e.dualpipe.schedule.ranks();
  const int m = e.dualpipe.schedule.params.micro_batches;
  const double t1 = e.one_f_one_b.metrics.makespan;
  const double td = e.dualpipe.metrics.makespan;
  json out = header(t, 1, {{"ranks", std::to_string(p)}, {"micro_batches", std::to_string(m)}, {"costs", format_costs(req.costs)}});
  json& inputs = out["inputs"];
  inputs["ranks"] = p;
  inputs["micro_batches"] = m;
  inputs["cost"] = format_costs(req.costs);
  inputs["gpu_hours_per_trillion_tokens"] = deepseek_gpu_hours_per_trillion_tokens;
  const auto schedule_json = [](double makespan, double busy, double utilisation) {
    json one;
    one["makespan"] = makespan;
    one["busy"] = busy;
    one["utilisation"] = utilisation;
    return one;
  };
  out["schedules"]["1f1b"] = schedule_json(t1, e.busy_1f1b, e.utilisation_1f1b);
  out["schedules"]["dualpipe"] = schedule_json(td, e.busy_dualpipe, e.utilisation_dualpipe);
  const std::string P = std::to_string(p);
  json& steps = out["steps"] = json::array();
  steps.push_back(step(t, "busy_1f1b", t.common("sum_busy", {{"ranks", P}}), e.busy_1f1b, term(e.busy_1f1b), "unit_time"));
  steps.push_back(step(t, "makespan_1f1b", t.common("simulated"), t1, term(t1), "unit_time"));
  steps.push_back(step(t, "utilisation_1f1b", joined({term(e.busy_1f1b), " / (", P, " × ", term(t1), ")"}), e.utilisation_1f1b,
      detail::percent(e.utilisation_1f1b, 1, l)));
  steps.push_back(step(t, "busy_dualpipe", t.common("sum_busy", {{"ranks", P}}), e.busy_dualpipe, term(e.busy_dualpipe), "unit_time"));
  steps.push_back(step(t, "makespan_dualpipe", t.common("simulated"), td, term(td), "unit_time"));
  steps.push_back(step(t, "utilisation_dualpipe", joined({term(e.busy_dualpipe), " / (", P, " × ", term(td), ")"}),
      e.utilisation_dualpipe, detail::percent(e.utilisation_dualpipe, 1, l)));
  steps.push_back(step(t, "difference", joined({term(e.utilisation_dualpipe), " − ", term(e.utilisation_1f1b)}), e.difference,
      detail::decimal(e.difference * 100, 1, l), "unit_points"));
  steps.push_back(step(t, "baseline", "180000 / 10^6", e.baseline, detail::decimal(e.baseline, 2, l), "unit_gpu_hours"));
  steps.push_back(step(t, "time_ratio", joined({"(", P, " × ", term(t1), ") / (", P, " × ", term(td), ")"}), e.time_ratio,
      detail::decimal(e.time_ratio, 3, l)));
  steps.push_back(step(t, "cost_1f1b", joined({term(e.baseline), " × ", term(e.time_ratio)}), e.cost_1f1b,
      detail::decimal(e.cost_1f1b, 4, l), "unit_gpu_hours"));
  steps.push_back(step(t, "recovered", joined({term(e.baseline), " × (", term(e.time_ratio), " − 1)"}), e.recovered,
      detail::decimal(e.recovered, 4, l), "unit_gpu_hours"));
  steps.push_back(step(t, "share_saved", joined({term(e.recovered), " / ", term(e.cost_1f1b)}), e.share_saved,
      detail::percent(e.share_saved, 1, l)));
  json& result = out["result"];
  result["utilisation_1f1b"] = e.utilisation_1f1b;
  result["utilisation_dualpipe"] = e.utilisation_dualpipe;
  result["difference"] = e.difference;
  result["time_ratio"] = e.time_ratio;
  result["recovered_gpu_hours_per_million_tokens"] = e.recovered;
  result["share_saved"] = e.share_saved;
  out["answer"] = t.get("answer", {{"u_dualpipe", detail::percent(e.utilisation_dualpipe, 1, l)},
                                   {"u_1f1b", detail::percent(e.utilisation_1f1b, 1, l)},
                                   {"difference", detail::decimal(e.difference * 100, 1, l)},
                                   {"time_ratio", detail::decimal(e.time_ratio, 3, l)},
                                   {"recovered", detail::decimal(e.recovered, 4, l)},
                                   {"share_saved", detail::percent(e.share_saved, 1, l)}});
  out["assumptions"] = t.assumptions();
  out["sources"] = {"DeepSeek-V3 report (arXiv 2412.19437), §1 and Table 1: 180K H800 GPU-hours per trillion tokens",
                    "pipesim simulation of dualpipe (deepseek-ai/DualPipe dualpipe.py op order) and 1f1b"};
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Exercise 2

auto chunk_json(const Chunk& c) -> json {
  json out;
  out["mb"] = c.mb;
  out["direction"] = c.phase;
  out["stage"] = c.stage;
  return out;
}

auto arrow(int direction) -> std::string { return direction == 0 ? "→" : "←"; }

/// The label of one op in the slot table: F0→, B1←, [F4→|B0←].
auto slot_label(const Op& op) -> std::string {
  const auto one = [](const char* kind, const Chunk& c) { return kind + std::to_string(c.mb) + arrow(c.phase); };
  switch (op.kind) {
    case OpKind::F: return one("F", op.chunk);
    case OpKind::B: return one("B", op.chunk);
    case OpKind::I: return one("I", op.chunk);
    case OpKind::W: return one("W", op.chunk);
    case OpKind::FB: return "[" + one("F", op.chunk) + "|" + one("B", op.backward) + "]";
  }
  return "?";
}

/// One slot of the table: an op's or an idle gap's span, its kind and its label.
auto span_json(double start, double end, std::string op, std::string label) -> json {
  json out;
  out["start"] = start;
  out["end"] = end;
  out["op"] = std::move(op);
  out["label"] = std::move(label);
  return out;
}

auto slot_json(const Op& op, double start, double end) -> json {
  json s = span_json(start, end, std::string(kind_name(op.kind)), slot_label(op));
  switch (op.kind) {
    case OpKind::F: s["forward"] = chunk_json(op.chunk); break;
    case OpKind::B:
    case OpKind::I: s["backward"] = chunk_json(op.chunk); break;
    case OpKind::W: s["weights"] = chunk_json(op.chunk); break;
    case OpKind::FB:
      s["forward"] = chunk_json(op.chunk);
      s["backward"] = chunk_json(op.backward);
      break;
  }
  return s;
}

/// Per rank, every op and every idle gap, in time order.
auto slot_table(const Run& r) -> json {
  json table = json::array();
  for (int rank = 0; rank < r.schedule.ranks(); ++rank) {
    json slots = json::array();
    double now = 0;
    for (int i = r.schedule.rank_begin[rank]; i < r.schedule.rank_begin[rank + 1]; ++i) {
      const auto k = static_cast<std::size_t>(i);
      if (r.timeline.start[k] > now) slots.push_back(span_json(now, r.timeline.start[k], "idle", "."));
      slots.push_back(slot_json(r.schedule.ops[k], r.timeline.start[k], r.timeline.end[k]));
      now = r.timeline.end[k];
    }
    if (now < r.metrics.makespan) slots.push_back(span_json(now, r.metrics.makespan, "idle", "."));
    json& row = table.emplace_back();
    row["rank"] = rank;
    row["slots"] = std::move(slots);
  }
  return table;
}

/// Chinese text takes a full-width colon.
auto colon(const Texts& t) -> std::string { return t.lang() == "zh-CN" ? "：" : ":"; }

auto padded(std::string s, std::size_t width) -> std::string {
  const std::size_t w = detail::columns(s);
  if (w < width) s.append(width - w, ' ');
  return s;
}

/// One text row per rank, `cell` columns per time unit, when every op starts and ends on a whole
/// time unit (the figure costs); otherwise one "[start, end) label" list per rank.
auto slot_grid(const json& table) -> json {
  bool whole = true;
  for (const json& row : table)
    for (const json& s : row["slots"])
      whole = whole && std::floor(s["start"].get<double>()) == s["start"].get<double>() &&
              std::floor(s["end"].get<double>()) == s["end"].get<double>();
  constexpr std::size_t cell = 4;
  json lines = json::array();
  for (const json& row : table) {
    std::string line = "rank " + std::to_string(row["rank"].get<int>()) + " |";
    for (const json& s : row["slots"]) {
      const double start = s["start"].get<double>();
      const double end = s["end"].get<double>();
      if (!whole) {
        line += " [" + term(start) + "," + term(end) + ") " + s["label"].get<std::string>();
        continue;
      }
      const auto units = static_cast<std::size_t>(end - start);
      if (s["op"] == "idle") {
        for (std::size_t u = 0; u < units; ++u) line += padded(".", cell);
      } else {
        line += padded(s["label"].get<std::string>(), units * cell);
      }
    }
    lines.push_back(line);
  }
  return lines;
}

auto direction_name(const Texts& t, int direction, int ranks) -> std::string {
  return direction == 0 ? t.common("direction_0") : t.common("direction_1", {{"last", std::to_string(ranks - 1)}});
}

auto exercise_2(const json& text, const LessonRequest& req) -> json {
  const Texts t(text, 2, req.language);
  constexpr int ranks = 4;
  constexpr int micro_batches = 8;
  const Run r = run_schedule("dualpipe", ranks, micro_batches, req.costs);
  json out = header(t, 2, {{"ranks", std::to_string(ranks)}, {"micro_batches", std::to_string(micro_batches)},
                           {"costs", format_costs(req.costs)}});
  // The run the answer was read from, whole, so a page draws the same timeline without naming it.
  json& inputs = out["inputs"];
  inputs["schedule"] = r.spec->name;
  inputs["ranks"] = ranks;
  inputs["micro_batches"] = micro_batches;
  inputs["cost"] = format_costs(req.costs);
  out["makespan"] = r.metrics.makespan;
  out["table"] = slot_table(r);
  out["grid"] = slot_grid(out["table"]);
  out["legend"] = t.get("legend");
  json per_rank = json::array();
  std::string list;
  for (int rank = 0; rank < ranks; ++rank) {
    const auto s = first_two_direction_slot(r, rank);
    json& entry = per_rank.emplace_back();
    entry["rank"] = rank;
    entry["start"] = s ? json(s->start) : json(nullptr);
    if (s) list += (list.empty() ? "" : ", ") + std::to_string(rank) + ": t = " + term(s->start);
  }
  out["first_per_rank"] = per_rank;
  const auto first = first_two_direction_slot(r);
  if (first) {
    json& pair = out["first_two_directions"];
    pair["rank"] = first->rank;
    pair["start"] = first->start;
    pair["end"] = first->end;
    pair["forward"] = chunk_json(first->forward);
    pair["backward"] = chunk_json(first->backward);
    out["answer"] = t.get("answer", {{"start", term(first->start)}, {"end", term(first->end)},
                                     {"rank", std::to_string(first->rank)}, {"f_mb", std::to_string(first->forward.mb)},
                                     {"f_dir", direction_name(t, first->forward.phase, ranks)},
                                     {"b_mb", std::to_string(first->backward.mb)},
                                     {"b_dir", direction_name(t, first->backward.phase, ranks)}}) +
                    (t.lang() == "zh-CN" ? "" : " ") + t.get("per_rank", {{"list", list}});
  } else {
    out["first_two_directions"] = nullptr;
    out["answer"] = t.get("answer_none");
  }
  out["assumptions"] = t.assumptions();
  out["sources"] = {"deepseek-ai/DualPipe dualpipe.py (DualPipe.step op order)",
                    "DeepSeek-V3 report (arXiv 2412.19437), Fig. 5 (cells and borders)"};
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Exercise 3

/// DeepSeek-V3 as the report states it (§3.2, §4.2). Sequence and batch fields are unused here.
auto deepseek_v3() -> ModelSpec {
  ModelSpec m;
  m.name = "DeepSeek-V3";
  m.layers = 61;          // §4.2
  m.hidden = 7168;        // §4.2
  m.dense_layers = 3;     // §4.2: "all FFNs except for the first three layers" are MoE
  m.experts = 256;        // §4.2: 256 routed experts
  m.shared_experts = 1;   // §4.2: 1 shared expert
  m.top_k = 8;            // §4.2: 8 routed experts per token
  m.expert_hidden = 2048; // §4.2: intermediate hidden dimension of each expert
  m.params = 671e9;       // §4.2: 671B total
  m.active_params = 37e9; // §4.2: 37B activated
  m.pp = 16;              // §3.2: 16-way PP
  m.ep = 64;              // §3.2 and §4.2: 64-way EP over 8 nodes
  return m;
}

/// DualPipe's stages per rank, as the engine lays them out.
auto dualpipe_stages_held(int ranks) -> int {
  const Run r = run_schedule("dualpipe", ranks, 2 * ranks, default_costs());
  int held = 0;
  for (const RankMetrics& rm : r.metrics.per_rank) held = std::max(held, rm.stages_held);
  return held;
}

auto copy_cost(double params, double routed, int stages, int ep, double bytes_per_param, double gpu_memory_gb) -> CopyCost {
  CopyCost c;
  c.params = params;
  c.routed = routed;
  c.stages = stages;
  c.ep = ep;
  c.stage_params_per_gpu = (params - routed) / stages + routed / (static_cast<double>(stages) * ep);
  c.stages_held = dualpipe_stages_held(stages);
  c.extra_params = (c.stages_held - 1) * c.stage_params_per_gpu;
  c.extra_bytes = c.extra_params * bytes_per_param;
  c.gpu_share = c.extra_bytes / (gpu_memory_gb * 1e9);
  c.model_share = c.extra_params / params;
  return c;
}

auto exercise_3(const json& text, const LessonRequest& req) -> json {
  const Texts t(text, 3, req.language);
  const std::string& l = t.lang();
  const SecondCopyCost e = second_copy_cost(req.bytes_per_param, req.gpu_memory_gb);
  const CopyCost& d = e.dense;
  const CopyCost& m = e.moe;
  const std::string bytes = term(req.bytes_per_param) + " B";
  const auto B = [&](double v) { return detail::billions(v, 3, l); };
  json out = header(t, 3, {});
  out["inputs"]["bytes_per_param"] = req.bytes_per_param;
  out["inputs"]["gpu_memory_gb"] = req.gpu_memory_gb;
  const double other = m.params - m.routed;
  const double stage_routed = m.routed / (static_cast<double>(m.stages) * m.ep);
  const double stage_other = other / m.stages;
  json& steps = out["steps"] = json::array();
  steps.push_back(step(t, "dense_params", t.common("given"), d.params, B(d.params), "unit_params"));
  steps.push_back(step(t, "dense_stages", t.common("given"), d.stages, std::to_string(d.stages), "unit_stages"));
  steps.push_back(step(t, "dense_stage_params", joined({term(d.params / 1e9), "e9 / ", std::to_string(d.stages)}), d.stage_params_per_gpu,
      B(d.stage_params_per_gpu), "unit_params"));
  steps.push_back(step(t, "dense_copies", joined({"pipesim simulate --schedule dualpipe --ranks ", std::to_string(d.stages)}), d.stages_held,
      std::to_string(d.stages_held), "unit_stages"));
  steps.push_back(step(t, "dense_extra_params", joined({"(", std::to_string(d.stages_held), " − 1) × ", term(d.stage_params_per_gpu / 1e9), "e9"}),
      d.extra_params, B(d.extra_params), "unit_params"));
  steps.push_back(step(t, "dense_extra_bytes", joined({term(d.extra_params / 1e9), "e9 × ", bytes}), d.extra_bytes,
      detail::gigabytes(d.extra_bytes, l)));
  steps.push_back(step(t, "dense_gpu_share", joined({term(d.extra_bytes / 1e9), " GB / ", term(req.gpu_memory_gb), " GB"}), d.gpu_share,
      detail::percent(d.gpu_share, 1, l)));
  steps.push_back(step(t, "dense_model_share", joined({term(d.extra_params / 1e9), "e9 / ", term(d.params / 1e9), "e9"}), d.model_share,
      detail::percent(d.model_share, 2, l)));
  steps.push_back(step(t, "moe_params", t.common("report", {{"section", "§4.2"}}), m.params, B(m.params), "unit_params"));
  steps.push_back(step(t, "moe_layers", "61 − 3", e.moe_layers, std::to_string(e.moe_layers), "unit_layers"));
  steps.push_back(step(t, "moe_routed", joined({std::to_string(e.moe_layers), " × ", std::to_string(e.experts), " × 3 × 7168 × 2048"}),
      m.routed, B(m.routed), "unit_params"));
  steps.push_back(step(t, "moe_other", joined({term(m.params / 1e9), "e9 − ", term(m.routed / 1e9), "e9"}), other, B(other), "unit_params"));
  steps.push_back(step(t, "moe_stages", t.common("report", {{"section", "§3.2"}}), m.stages, std::to_string(m.stages), "unit_stages"));
  steps.push_back(step(t, "moe_ep", t.common("report", {{"section", "§3.2, §4.2"}}), m.ep, std::to_string(m.ep), "unit_gpus"));
  steps.push_back(step(t, "moe_experts_per_gpu", joined({std::to_string(e.experts), " / ", std::to_string(m.ep)}),
      static_cast<double>(e.experts) / m.ep, term(static_cast<double>(e.experts) / m.ep), "unit_experts"));
  steps.push_back(step(t, "moe_stage_routed", joined({term(m.routed / 1e9), "e9 / (", std::to_string(m.stages), " × ", std::to_string(m.ep), ")"}),
      stage_routed, B(stage_routed), "unit_params"));
  steps.push_back(step(t, "moe_stage_other", joined({term(other / 1e9), "e9 / ", std::to_string(m.stages)}), stage_other, B(stage_other),
      "unit_params"));
  steps.push_back(step(t, "moe_stage_params", joined({term(stage_routed / 1e9), "e9 + ", term(stage_other / 1e9), "e9"}),
      m.stage_params_per_gpu, B(m.stage_params_per_gpu), "unit_params"));
  steps.push_back(step(t, "moe_copies", joined({"pipesim simulate --schedule dualpipe --ranks ", std::to_string(m.stages)}), m.stages_held,
      std::to_string(m.stages_held), "unit_stages"));
  steps.push_back(step(t, "moe_extra_bytes", joined({"(", std::to_string(m.stages_held), " − 1) × ", term(m.stage_params_per_gpu / 1e9), "e9 × ", bytes}),
      m.extra_bytes, detail::gigabytes(m.extra_bytes, l)));
  steps.push_back(step(t, "moe_gpu_share", joined({term(m.extra_bytes / 1e9), " GB / ", term(req.gpu_memory_gb), " GB"}), m.gpu_share,
      detail::percent(m.gpu_share, 1, l)));
  steps.push_back(step(t, "moe_model_share", joined({term(m.extra_params / 1e9), "e9 / ", term(m.params / 1e9), "e9"}), m.model_share,
      detail::percent(m.model_share, 2, l)));
  steps.push_back(step(t, "ratio", joined({term(d.extra_bytes / 1e9), " GB / ", term(m.extra_bytes / 1e9), " GB"}), e.ratio,
      detail::decimal(e.ratio, 1, l)));
  json& result = out["result"];
  result["dense_extra_bytes"] = d.extra_bytes;
  result["moe_extra_bytes"] = m.extra_bytes;
  result["ratio"] = e.ratio;
  result["dense_model_share"] = d.model_share;
  result["moe_model_share"] = m.model_share;
  result["dense_gpu_share"] = d.gpu_share;
  result["moe_gpu_share"] = m.gpu_share;
  out["quote"] = t.get("quote");
  out["answer"] = t.get("answer", {{"dense_extra", detail::gigabytes(d.extra_bytes, l)},
                                   {"dense_gpu_share", detail::percent(d.gpu_share, 1, l)},
                                   {"moe_extra", detail::gigabytes(m.extra_bytes, l)},
                                   {"moe_gpu_share", detail::percent(m.gpu_share, 1, l)},
                                   {"ratio", detail::decimal(e.ratio, 1, l)},
                                   {"dense_model_share", detail::percent(d.model_share, 1, l)},
                                   {"moe_model_share", detail::percent(m.model_share, 2, l)},
                                   {"ep", std::to_string(m.ep)},
                                   {"experts_per_gpu", term(static_cast<double>(e.experts) / m.ep)},
                                   {"experts", std::to_string(e.experts)},
                                   {"routed_share", detail::percent(m.routed / m.params, 1, l)}});
  out["assumptions"] = t.assumptions({{"bytes_per_param", detail::decimal(req.bytes_per_param, req.bytes_per_param == std::floor(req.bytes_per_param) ? 0 : 1, l)},
                                      {"bytes_label", req.bytes_per_param == 2 ? "bf16" : "--bytes-per-param"},
                                      {"gpu_memory", term(req.gpu_memory_gb)}});
  out["sources"] = {"DeepSeek-V3 report (arXiv 2412.19437), §3.2 (PP16, EP64, ZeRO-1, no TP), §3.2.1 (two copies, large EP), "
                    "§4.2 (61 layers, hidden 7168, 1 shared + 256 routed experts of width 2048, first 3 layers dense, "
                    "671B total, routed experts on 64 GPUs of 8 nodes)",
                    "pipesim dualpipe layout: stages held per rank"};
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Exercise 4

auto has_schedule(std::string_view name) -> bool {
  for (const ScheduleSpec* s : schedules())
    if (s->name == name) return true;
  return false;
}

/// One schedule at one size: its numbers, or why it is not allowed.
auto engine_cell(const Texts& t, const std::string& name, int ranks, int micro_batches, const Costs& costs, json& text)
    -> json {
  // Only the run may be refused (the schedule's rules at this size); an error of the texts below is
  // the course data's, and propagates, so that CourseData::provide refuses such a file.
  json cell;
  double makespan = 0;
  double bubble_fraction = 0;
  int peak = 0;
  try {
    const Run r = run_schedule(name, ranks, micro_batches, costs);
    int held = 0;
    for (const RankMetrics& rm : r.metrics.per_rank) held = std::max(held, rm.stages_held);
    makespan = r.metrics.makespan;
    bubble_fraction = r.metrics.bubble_fraction;
    peak = r.metrics.peak_activations;
    cell["makespan"] = makespan;
    cell["bubble_fraction"] = bubble_fraction;
    cell["max_bubble"] = r.metrics.max_bubble;
    cell["peak_activations"] = peak;
    cell["stages_held"] = held;
  } catch (const Error& e) {
    // The engine's message is English; another language gives the rule the schedule broke in the
    // registry's words for that language, so no English lands in its sentence.
    std::string reason = e.what();
    if (t.lang() != languages[0] && e.code() != ErrorCode::unknown_name)
      reason = std::string(find_schedule(name).texts.in(t.lang()).constraints);
    text = t.get("engine_rejected", {{"reason", reason}});
    cell["error"] = e.what();
    return cell;
  }
  text = t.get("engine_cell", {{"makespan", term(makespan)},
                               {"bubble", detail::percent(bubble_fraction, 1, t.lang())},
                               {"peak", std::to_string(peak)}});
  return cell;
}

auto exercise_4(const json& text, const LessonRequest& req) -> json {
  const Texts t(text, 4, req.language);
  json out = header(t, 4, {});
  json statements = json::array();
  for (const json& s : t.section().at("statements")) {
    json& statement = statements.emplace_back();
    statement["kind"] = s.at("kind");
    statement["source"] = s.at("source");
    statement["text"] = detail::pick(s.at("text"), t.lang(), "statement");
  }
  out["statements"] = statements;
  constexpr int ranks = 8;
  out["inputs"]["ranks"] = ranks;
  out["inputs"]["cost"] = format_costs(req.costs);
  if (!has_schedule("chimera")) {
    out["engine"] = nullptr;
    out["engine_text"] = json::array({t.get("engine_absent")});
  } else {
    json rows = json::array();
    json lines = json::array({t.get("engine_intro", {{"costs", format_costs(req.costs)}, {"ranks", std::to_string(ranks)}})});
    // 16 and 24 are multiples of 8, which Chimera needs; 20 is not, and DualPipe takes it anyway.
    for (const int mb : {16, 20, 24}) {
      json dp_text;
      json ch_text;
      json row{{"micro_batches", mb}};
      row["dualpipe"] = engine_cell(t, "dualpipe", ranks, mb, req.costs, dp_text);
      row["chimera"] = engine_cell(t, "chimera", ranks, mb, req.costs, ch_text);
      rows.push_back(row);
      lines.push_back(t.get("engine_row", {{"micro_batches", std::to_string(mb)}, {"dualpipe", dp_text.get<std::string>()},
                                           {"chimera", ch_text.get<std::string>()}}));
    }
    out["engine"] = rows;
    out["engine_text"] = lines;
  }
  out["answer"] = t.get("answer");
  out["assumptions"] = json::array();
  out["sources"] = {"DeepSeek-V3 report (arXiv 2412.19437), §3.2.1 and Fig. 4",
                    "deepseek-ai/DualPipe dualpipe.py", "Li & Hoefler, Chimera, SC'21 (arXiv 2107.06925), abstract"};
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------

auto recovered_gpu_hours(const Costs& costs, int ranks, int micro_batches) -> RecoveredGpuHours {
  RecoveredGpuHours e;
  e.dualpipe = run_schedule("dualpipe", ranks, micro_batches, costs);
  e.one_f_one_b = run_schedule("1f1b", ranks, micro_batches, costs);
  e.busy_dualpipe = total_busy(e.dualpipe);
  e.busy_1f1b = total_busy(e.one_f_one_b);
  e.utilisation_dualpipe = e.busy_dualpipe / (ranks * e.dualpipe.metrics.makespan);
  e.utilisation_1f1b = e.busy_1f1b / (ranks * e.one_f_one_b.metrics.makespan);
  e.difference = e.utilisation_dualpipe - e.utilisation_1f1b;
  e.baseline = deepseek_gpu_hours_per_trillion_tokens / 1e6;  // a trillion tokens is a million millions
  e.time_ratio = (ranks * e.one_f_one_b.metrics.makespan) / (ranks * e.dualpipe.metrics.makespan);
  e.cost_1f1b = e.baseline * e.time_ratio;
  e.recovered = e.cost_1f1b - e.baseline;
  e.share_saved = e.recovered / e.cost_1f1b;
  return e;
}

auto first_two_direction_slot(const Run& r, int rank) -> std::optional<TwoDirectionSlot> {
  std::optional<TwoDirectionSlot> best;
  for (int i = r.schedule.rank_begin[rank]; i < r.schedule.rank_begin[rank + 1]; ++i) {
    const auto k = static_cast<std::size_t>(i);
    const Op& op = r.schedule.ops[k];
    if (op.kind != OpKind::FB || r.schedule.path_of(op.chunk) == r.schedule.path_of(op.backward)) continue;
    if (!best || r.timeline.start[k] < best->start)
      best = TwoDirectionSlot{rank, i, r.timeline.start[k], r.timeline.end[k], op.chunk, op.backward};
  }
  return best;
}

auto first_two_direction_slot(const Run& r) -> std::optional<TwoDirectionSlot> {
  std::optional<TwoDirectionSlot> best;
  for (int rank = 0; rank < r.schedule.ranks(); ++rank) {
    const auto s = first_two_direction_slot(r, rank);
    if (s && (!best || s->start < best->start)) best = s;
  }
  return best;
}

auto second_copy_cost(double bytes_per_param, double gpu_memory_gb) -> SecondCopyCost {
  if (!(bytes_per_param > 0) || !(gpu_memory_gb > 0))
    throw Error(ErrorCode::bad_value, "bytes per parameter and GPU memory must be positive numbers", {"lesson.memory_positive", {}},
                bytes_per_param > 0 ? "gpu_memory_gb" : "bytes_per_param");
  SecondCopyCost e;
  const ModelSpec v3 = deepseek_v3();
  const ParameterSplit split = parameter_split(v3);
  e.moe_layers = v3.layers - v3.dense_layers;
  e.experts = v3.experts;
  e.dense = copy_cost(70e9, 0, 8, 1, bytes_per_param, gpu_memory_gb);
  e.moe = copy_cost(split.total, split.routed, v3.pp, v3.ep, bytes_per_param, gpu_memory_gb);
  e.ratio = e.dense.extra_bytes / e.moe.extra_bytes;
  return e;
}

auto lesson_exercise(const CourseData& course, const LessonRequest& request) -> JsonDocument {
  return detail::document(detail::lesson_exercise_tree(course, request));
}

auto detail::lesson_exercise_tree(const CourseData& course, const LessonRequest& request) -> json {
  const json& text = detail::lesson_text_of(course);
  LessonRequest req = request;
  req.language = detail::check_language(request.language);
  validate_costs(req.costs);
  switch (req.exercise) {
    case 1: return exercise_1(text, req);
    case 2: return exercise_2(text, req);
    case 3: return exercise_3(text, req);
    case 4: return exercise_4(text, req);
    default: throw Error(ErrorCode::bad_value, "--exercise must be 1, 2, 3 or 4, got " + std::to_string(req.exercise),
                        {"lesson.exercise", {{"value", std::to_string(req.exercise)}}}, "exercise");
  }
}

auto render_lesson_text(const CourseData& course, const JsonDocument& exercise) -> std::string {
  const json& ex = detail::json_of(exercise);
  const Texts t(detail::lesson_text_of(course), ex.at("exercise").get<int>(), ex.at("language").get<std::string>());
  std::string out = ex.at("title").get<std::string>() + "\n\n" + ex.at("question").get<std::string>() + "\n";
  if (ex.contains("statements")) {
    out += "\n";
    for (const json& s : ex["statements"])
      out += "  - " + s["text"].get<std::string>() + " [" + s["source"].get<std::string>() + "]\n";
  }
  if (ex.contains("steps")) {
    out += "\n" + t.common("steps") + colon(t) + "\n";
    std::size_t width = 0;
    for (const json& s : ex["steps"]) width = std::max(width, detail::columns(s["label"].get<std::string>()));
    for (const json& s : ex["steps"]) {
      const std::string unit = s["unit"].get<std::string>();
      out += "  " + padded(s["label"].get<std::string>(), width) + "  " + s["formula"].get<std::string>() + " = " +
             s["display"].get<std::string>() + (unit.empty() ? "" : " " + unit) + "\n";
    }
  }
  if (ex.contains("grid")) {
    out += "\n";
    for (const json& line : ex["grid"]) out += "  " + line.get<std::string>() + "\n";
    out += "  " + ex["legend"].get<std::string>() + "\n";
  }
  if (ex.contains("engine_text")) {
    out += "\n";
    for (const json& line : ex["engine_text"]) out += "  " + line.get<std::string>() + "\n";
  }
  if (ex.contains("quote")) out += "\n" + ex["quote"].get<std::string>() + "\n";
  out += "\n" + t.common("answer") + colon(t) + (t.lang() == "zh-CN" ? "" : " ") + ex.at("answer").get<std::string>() + "\n";
  if (!ex.value("assumptions", json::array()).empty()) {
    out += "\n" + t.common("assumptions") + colon(t) + "\n";
    for (const json& a : ex["assumptions"]) out += "  - " + a.get<std::string>() + "\n";
  }
  out += "\n" + t.common("sources") + colon(t) + "\n";
  for (const json& s : ex.at("sources")) out += "  - " + s.get<std::string>() + "\n";
  return out;
}

}  // namespace pipesim
