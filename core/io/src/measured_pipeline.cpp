// A measured pipeline: ops from annotations, one clock, per-rank measures, fitted costs and the model
// run with them. The rules are stated in pipesim/measured_pipeline.h.
#include "pipesim/measured_pipeline.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <sstream>

#include "detail/json_document.h"
#include "detail/json_text.h"
#include "detail/report_tree.h"
#include "detail/short_number.h"
#include "pipesim/custom.h"
#include "pipesim/error.h"
#include "pipesim/limits.h"
#include "pipesim/report.h"
#include "pipesim/parse.h"

namespace pipesim {

namespace {

using nlohmann::json;
using detail::short_number;

auto number(double v) -> json { return detail::json_number(v); }

/// An annotation read as a pipeline op: its action text, kind and stage.
struct NamedOp {
  std::string action;
  OpKind kind = OpKind::F;
  int stage = 0;
};

auto small_int(const std::string& digits) -> std::optional<int> {
  if (digits.empty() || digits.size() > 9) return std::nullopt;
  return std::stoi(digits);
}

/// torch.distributed.pipelining: "PP:2F0", "PP:0I3", "PP:(0F7;7B3)OVERLAP_F_B".
auto torch_op(const std::string& name) -> std::optional<NamedOp> {
  static const std::regex single(R"(^PP:(\d+)([FIWB])(\d+)$)");
  static const std::regex pair(R"(^PP:\((\d+)F(\d+);(\d+)B(\d+)\)OVERLAP_F_B$)");
  std::smatch m;
  if (std::regex_match(name, m, single)) {
    const auto stage = small_int(m[1].str());
    if (!stage || !small_int(m[3].str())) return std::nullopt;
    return NamedOp{name.substr(3), *parse_kind(m[2].str()), *stage};
  }
  if (std::regex_match(name, m, pair)) {
    const auto stage = small_int(m[1].str());
    if (!stage || !small_int(m[2].str()) || !small_int(m[3].str()) || !small_int(m[4].str())) return std::nullopt;
    return NamedOp{name.substr(3), OpKind::FB, *stage};
  }
  return std::nullopt;
}

auto named_op(const std::string& name, const OpNaming& naming) -> std::optional<NamedOp> {
  if (naming.patterns.empty()) return torch_op(name);
  for (const OpNaming::Pattern& p : naming.patterns) {
    std::smatch m;
    if (!std::regex_search(name, m, p.regex)) continue;
    const auto stage = small_int(m[1].str());
    const auto mb = small_int(m[2].str());
    if (!stage || !mb) continue;
    return NamedOp{std::to_string(*stage) + std::string(kind_name(p.kind)) + std::to_string(*mb), p.kind, *stage};
  }
  return std::nullopt;
}

/// Where each trace's clock sits on rank 0's: base and origin differences, each exact.
auto clock_offset(const ProfileTrace& t, const ProfileTrace& first) -> double {
  return static_cast<double>(t.base_ns - first.base_ns) / 1000.0 + (t.origin_us - first.origin_us);
}

/// The traces in pipeline-rank order: by distributedInfo.rank when all have distinct ones.
auto rank_order(const std::vector<ProfileTrace>& traces) -> std::vector<std::size_t> {
  std::vector<std::size_t> order(traces.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::map<int, int> seen;
  for (const ProfileTrace& t : traces)
    if (t.rank) ++seen[*t.rank];
  const bool distinct = seen.size() == traces.size();
  if (distinct)
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return *traces[a].rank < *traces[b].rank; });
  return order;
}

/// One rank's ops on its own clock (offset not yet applied), in start order.
auto ops_of(const ProfileTrace& t, const OpNaming& naming) -> std::vector<MeasuredOp> {
  std::vector<std::optional<NamedOp>> named(t.annotations.size());
  std::vector<bool> wanted(t.annotations.size());
  for (std::size_t i = 0; i < named.size(); ++i) {
    named[i] = named_op(t.annotations[i].name, naming);
    wanted[i] = named[i].has_value();
  }
  const std::vector<KernelOwner> owners = attribute_kernels_masked(t, wanted);
  std::vector<MeasuredOp> ops(t.annotations.size());
  std::vector<bool> has_kernel(t.annotations.size());
  for (std::size_t k = 0; k < owners.size(); ++k) {
    if (owners[k].annotation < 0) continue;
    const auto a = static_cast<std::size_t>(owners[k].annotation);
    const TraceKernel& kernel = t.kernels[k];
    if (!has_kernel[a]) ops[a].start = kernel.start, ops[a].end = kernel.end;
    ops[a].start = std::min(ops[a].start, kernel.start);
    ops[a].end = std::max(ops[a].end, kernel.end);
    has_kernel[a] = true;
  }
  std::vector<MeasuredOp> out;
  for (std::size_t i = 0; i < named.size(); ++i) {
    if (!named[i]) continue;
    MeasuredOp op = ops[i];
    op.action = named[i]->action;
    op.kind = named[i]->kind;
    op.stage = named[i]->stage;
    op.timed_by_kernels = has_kernel[i];
    if (!has_kernel[i]) op.start = t.annotations[i].start, op.end = t.annotations[i].end;
    out.push_back(std::move(op));
  }
  std::stable_sort(out.begin(), out.end(), [](const MeasuredOp& a, const MeasuredOp& b) { return a.start < b.start; });
  return out;
}

auto median(std::vector<double> v) -> double {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

auto fit(const std::vector<MeasuredRank>& ranks) -> std::vector<FittedCost> {
  std::map<std::pair<int, int>, std::vector<double>> samples;  // (kind, stage) -> durations
  for (const MeasuredRank& r : ranks)
    for (const MeasuredOp& op : r.ops) samples[{static_cast<int>(op.kind), op.stage}].push_back(op.end - op.start);
  std::vector<FittedCost> out;
  for (const auto& [key, durations] : samples)
    out.push_back({static_cast<OpKind>(key.first), key.second, static_cast<int>(durations.size()), median(durations)});
  return out;
}

/// One stage's costs from the fitted medians, each kind missing at that stage taken from `base`:
/// B = I + W for a split backward, W at most B, FB within [max(F, B), F + B] (F + B when no pair of
/// that stage was overlapped), comm 0 (transfers show up as late ops).
auto stage_costs_of(const std::vector<FittedCost>& fitted, int stage, const Costs& base) -> Costs {
  const auto cost = [&](OpKind k) -> std::optional<double> {
    for (const FittedCost& f : fitted)
      if (f.kind == k && f.stage == stage) return f.median_us;
    return std::nullopt;
  };
  Costs c;
  c.f = cost(OpKind::F).value_or(base.f);
  c.w = cost(OpKind::W).value_or(base.w);
  c.b = cost(OpKind::B) ? *cost(OpKind::B) : cost(OpKind::I) ? *cost(OpKind::I) + c.w : base.b;
  c.w = std::min(c.w, c.b);
  c.fb = std::clamp(cost(OpKind::FB).value_or(c.f + c.b), std::max(c.f, c.b), c.f + c.b);
  c.comm = 0;
  return c;
}

/// Every stage's costs as fitted, for the engine's per-stage table (stage_costs.h).
auto fitted_stage_table(const std::vector<FittedCost>& fitted, int stages, const Costs& base) -> std::vector<PartialCosts> {
  std::vector<PartialCosts> table;
  for (int stage = 0; stage < stages; ++stage) {
    const Costs c = stage_costs_of(fitted, stage, base);
    table.push_back({c.f, c.b, c.w, c.fb, c.comm});
  }
  return table;
}

/// The engine's one cost per kind: the median over stages of the per-stage medians.
auto uniform_costs(const std::vector<FittedCost>& fitted) -> Costs {
  std::map<OpKind, std::vector<double>> per_kind;
  for (const FittedCost& f : fitted) per_kind[f.kind].push_back(f.median_us);
  const auto cost = [&](OpKind k) -> std::optional<double> {
    const auto it = per_kind.find(k);
    return it == per_kind.end() ? std::nullopt : std::optional<double>(median(it->second));
  };
  Costs c;
  c.f = cost(OpKind::F).value_or(0);
  c.w = cost(OpKind::W).value_or(0);
  c.b = cost(OpKind::B) ? *cost(OpKind::B) : cost(OpKind::I).value_or(0) + c.w;
  c.w = std::min(c.w, c.b);
  c.fb = cost(OpKind::FB) ? std::clamp(*cost(OpKind::FB), std::max(c.f, c.b), c.f + c.b) : c.f + c.b;
  c.comm = 0;
  return c;
}

auto union_busy(const std::vector<MeasuredOp>& ops) -> double {
  std::vector<Interval> spans;
  for (const MeasuredOp& op : ops) spans.push_back({op.start, op.end});
  return union_length(spans);
}

auto sentence(const MeasuredPipeline& m) -> std::string {
  return "your schedule with your measured costs would take " + short_number(m.model.metrics.makespan) + " us; you measured " +
         short_number(m.makespan_us) + " us";
}

}  // namespace

auto parse_op_naming(std::string_view json_text) -> OpNaming {
  json j;
  try {
    j = json::parse(json_text);
  } catch (const json::exception&) {
    throw Error(ErrorCode::bad_value, "the op names must be a JSON object such as {\"F\": \"fwd s(\\\\d+) mb(\\\\d+)\"}",
                {"op_names.not_json", {}});
  }
  if (!j.is_object() || j.empty())
    throw Error(ErrorCode::bad_value, "the op names must be a JSON object with at least one of the keys F, B, I, W", {"op_names.not_object", {}});
  OpNaming out;
  for (const auto& [key, value] : j.items()) {
    const auto kind = parse_kind(key);
    if (!kind || *kind == OpKind::FB)
      throw Error(ErrorCode::unknown_name, "unknown op kind '" + quoted_input(key) + "' in the op names; kinds are F, B, I, W",
                  {"op_names.unknown_kind", {{"name", quoted_input(key)}}});
    if (!value.is_string())
      throw Error(ErrorCode::bad_value, "op names: " + key + " must be a regular expression in a string", {"op_names.not_string", {{"kind", key}}});
    const std::string text = value.get<std::string>();
    std::regex regex;
    try {
      regex = std::regex(text);
    } catch (const std::regex_error&) {
      throw Error(ErrorCode::bad_value, "op names: " + key + " is not a valid regular expression", {"op_names.bad_regex", {{"kind", key}}});
    }
    if (regex.mark_count() < 2)
      throw Error(ErrorCode::bad_value, "op names: " + key + " needs two groups, the stage then the micro-batch, e.g. \"s(\\\\d+) mb(\\\\d+)\"",
                  {"op_names.groups", {{"kind", key}}});
    out.patterns.push_back({*kind, text, std::move(regex)});
  }
  return out;
}

auto measure_pipeline(const std::vector<ProfileTrace>& traces, const OpNaming& naming, Clock clock) -> MeasuredPipeline {
  if (traces.empty())
    throw Error(ErrorCode::bad_import, "a measured pipeline needs one profiler trace per rank, got none", {"measured.no_traces", {}});
  if (traces.size() > static_cast<std::size_t>(limits::max_profile_trace_files))
    throw Error(ErrorCode::limit_exceeded, "a measured pipeline may have at most " + std::to_string(limits::max_profile_trace_files) + " traces",
                {"measured.too_many_traces", {{"what", "a measured pipeline"}, {"max", std::to_string(limits::max_profile_trace_files)}}});
  const std::vector<std::size_t> order = rank_order(traces);
  const ProfileTrace& first = traces[order[0]];
  MeasuredPipeline m;
  m.clock = clock;
  for (std::size_t r = 0; r < order.size(); ++r) {
    const ProfileTrace& t = traces[order[r]];
    MeasuredRank rank;
    rank.trace_rank = t.rank.value_or(-1);
    rank.ops = ops_of(t, naming);
    if (rank.ops.empty())
      throw Error(ErrorCode::bad_import, "trace " + std::to_string(order[r] + 1) + " (pipeline rank " + std::to_string(r) + ") has no pipeline op: " +
                  (naming.patterns.empty() ? "expected record_function names like PP:0F0, PP:1I3, PP:2W0, PP:0B1 (torch.distributed.pipelining)"
                                           : "no annotation matches the op names given"),
                  {naming.patterns.empty() ? "measured.no_pipelining_ops" : "measured.no_named_ops",
                   {{"trace", std::to_string(order[r] + 1)}, {"rank", std::to_string(r)}}});
    // On the profiler's clock every rank is shifted by its base; with clocks apart, each rank starts at 0 for now.
    const double offset = clock == Clock::profiler ? clock_offset(t, first) : -rank.ops.front().start;
    for (MeasuredOp& op : rank.ops) op.start += offset, op.end += offset;
    for (const MeasuredOp& op : rank.ops) m.actions += (&op == &rank.ops.front() ? "" : ",") + op.action;
    m.actions += "\n";
    m.per_rank.push_back(std::move(rank));
  }
  m.fitted = fit(m.per_rank);
  m.costs = uniform_costs(m.fitted);
  RunRequest request;
  request.schedule = "custom";
  request.custom_schedule = m.actions;
  request.costs = m.costs;  // the typical stage; each stage's own fitted costs replace it
  const int stages = parse_custom_schedule(m.actions).layout.stages;
  request.per_stage.table = fitted_stage_table(m.fitted, stages, m.costs);
  m.model = run(request);
  const auto model_start = [&](std::size_t r, std::size_t i) {
    return m.model.timeline.start[static_cast<std::size_t>(m.model.schedule.rank_begin[r]) + i];
  };
  for (std::size_t r = 0; r < m.per_rank.size(); ++r)
    if (m.model.schedule.rank_begin[r + 1] - m.model.schedule.rank_begin[r] != static_cast<int>(m.per_rank[r].ops.size()))
      throw Error(ErrorCode::internal, "the measured ops of rank " + std::to_string(r) + " did not all become schedule ops");
  // Time 0: rank 0's first op. Clocks apart: each rank's first op where the model starts it.
  const double zero = m.per_rank[0].ops.front().start;
  for (std::size_t r = 0; r < m.per_rank.size(); ++r) {
    const double shift = clock == Clock::profiler ? -zero : model_start(r, 0);
    for (MeasuredOp& op : m.per_rank[r].ops) {
      op.start += shift;
      op.end += shift;
      m.makespan_us = std::max(m.makespan_us, op.end);
    }
  }
  for (MeasuredRank& r : m.per_rank) {
    r.busy_us = union_busy(r.ops);
    r.bubble_us = m.makespan_us - r.busy_us;
  }
  for (std::size_t r = 0; r < m.per_rank.size(); ++r) {
    const auto& ops = m.per_rank[r].ops;
    for (std::size_t i = 0; i < ops.size(); ++i)
      if (ops[i].start - model_start(r, i) > departure_tolerance_us)
        m.departures.push_back({static_cast<int>(r), static_cast<int>(i), ops[i].action, ops[i].start, model_start(r, i)});
  }
  std::stable_sort(m.departures.begin(), m.departures.end(), [](const Departure& a, const Departure& b) { return a.late_by() > b.late_by(); });
  return m;
}

auto measured_pipeline_json(const MeasuredPipeline& m) -> JsonDocument {
  constexpr std::size_t listed_departures = 20;
  json fitted = json::array();
  for (const FittedCost& f : m.fitted)
    fitted.push_back({{"kind", std::string(kind_name(f.kind))}, {"stage", f.stage}, {"samples", f.samples}, {"median_us", number(f.median_us)}});
  json per_rank = json::array();
  json timeline = json::array();
  for (std::size_t r = 0; r < m.per_rank.size(); ++r) {
    const MeasuredRank& rank = m.per_rank[r];
    int late = 0;
    double latest = 0;
    for (const Departure& d : m.departures)
      if (d.rank == static_cast<int>(r)) ++late, latest = std::max(latest, d.late_by());
    per_rank.push_back({{"rank", r}, {"trace_rank", rank.trace_rank >= 0 ? json(rank.trace_rank) : json(nullptr)},
                        {"ops", rank.ops.size()}, {"busy_us", number(rank.busy_us)}, {"bubble_us", number(rank.bubble_us)},
                        {"model_busy_us", number(m.model.metrics.per_rank[r].busy)},
                        {"model_bubble_us", number(m.model.metrics.per_rank[r].bubble)},
                        {"late_ops", late}, {"latest_by_us", number(latest)}});
    json ops = json::array();
    for (const MeasuredOp& op : rank.ops)
      ops.push_back({{"action", op.action}, {"kind", std::string(kind_name(op.kind))}, {"stage", op.stage},
                     {"start", number(op.start)}, {"end", number(op.end)}, {"timed_by", op.timed_by_kernels ? "kernels" : "annotation"}});
    timeline.push_back({{"rank", r}, {"ops", std::move(ops)}});
  }
  json departures = json::array();
  for (std::size_t i = 0; i < std::min(listed_departures, m.departures.size()); ++i) {
    const Departure& d = m.departures[i];
    departures.push_back({{"rank", d.rank}, {"op", d.op}, {"action", d.action}, {"measured_start_us", number(d.measured_start)},
                          {"model_start_us", number(d.model_start)}, {"late_by_us", number(d.late_by())}});
  }
  return detail::document(json{{"unit", "us"},
          {"ranks", m.per_rank.size()},
          {"clock", m.clock == Clock::profiler ? "profiler" : "first-ops"},
          {"makespan_us", number(m.makespan_us)},
          {"model_makespan_us", number(m.model.metrics.makespan)},
          {"sentence", sentence(m)},
          {"costs", {{"F", number(m.costs.f)}, {"B", number(m.costs.b)}, {"W", number(m.costs.w)}, {"FB", number(m.costs.fb)}, {"comm", 0}}},
          {"costs_rule", "each stage at its own medians per kind (stage_costs in the model's run); costs is the median over stages, for kinds a stage lacks"},
          {"fitted", std::move(fitted)},
          {"per_rank", std::move(per_rank)},
          {"departure_tolerance_us", number(departure_tolerance_us)},
          {"late_ops", m.departures.size()},
          {"departures", std::move(departures)},
          {"actions", m.actions},
          {"timeline", std::move(timeline)},
          {"model", detail::report_tree(m.model, Detail::full)}});
}

namespace {

constexpr int text_columns = 96;

/// One row of ops as letters (F, B, I, W; X for an overlapped pair), '.' where the rank is idle.
template <class Each>
auto op_row(double per_column, Each&& each) -> std::string {
  std::string row(text_columns, '.');
  each([&](OpKind kind, double start, double end) {
    const int a = std::min(text_columns - 1, static_cast<int>(std::lround(start / per_column)));
    const int b = std::clamp(static_cast<int>(std::lround(end / per_column)), a + 1, text_columns);
    const char mark = kind == OpKind::FB ? 'X' : kind_name(kind)[0];
    for (int x = a; x < b; ++x) row[static_cast<std::size_t>(x)] = mark;
  });
  return row;
}

/// Per rank, the model's row above the measured one, on one time axis.
void draw_rows(std::ostringstream& os, const MeasuredPipeline& m) {
  const double span = std::max({m.makespan_us, m.model.metrics.makespan, 1e-9});
  const double per_column = span / text_columns;
  os << "per rank, the model with the fitted costs above the measured run (1 column = " << short_number(per_column, 4)
     << " us; F forward, B backward, I backward for input, W weight gradient, X overlapped F&B):\n";
  for (std::size_t r = 0; r < m.per_rank.size(); ++r) {
    const auto begin = static_cast<std::size_t>(m.model.schedule.rank_begin[r]);
    const auto ops = m.model.schedule.ops_of(static_cast<int>(r));
    os << "  rank " << r << " model    |" << op_row(per_column, [&](auto&& put) {
      for (std::size_t i = 0; i < ops.size(); ++i) put(ops[i].kind, m.model.timeline.start[begin + i], m.model.timeline.end[begin + i]);
    }) << "|\n";
    os << "  rank " << r << " measured |" << op_row(per_column, [&](auto&& put) {
      for (const MeasuredOp& op : m.per_rank[r].ops) put(op.kind, op.start, op.end);
    }) << "|\n";
  }
}

}  // namespace

auto render_measured_pipeline_text(const MeasuredPipeline& m) -> std::string {
  std::ostringstream os;
  os << "measured pipeline: " << m.per_rank.size() << " ranks, " << m.model.schedule.ops.size() << " ops (times in us, 0 = rank 0's first op)\n";
  draw_rows(os, m);
  os << "rank  ops   busy        bubble      model busy  model bubble  late ops\n";
  for (std::size_t r = 0; r < m.per_rank.size(); ++r) {
    const MeasuredRank& rank = m.per_rank[r];
    int late = 0;
    for (const Departure& d : m.departures) late += d.rank == static_cast<int>(r) ? 1 : 0;
    char line[160];
    std::snprintf(line, sizeof line, "%-5zu %-5zu %-11s %-11s %-11s %-13s %d\n", r, rank.ops.size(), short_number(rank.busy_us).c_str(),
                  short_number(rank.bubble_us).c_str(), short_number(m.model.metrics.per_rank[r].busy).c_str(),
                  short_number(m.model.metrics.per_rank[r].bubble).c_str(), late);
    os << line;
  }
  os << "fitted costs (median per stage and kind):";
  for (const FittedCost& f : m.fitted) os << " " << kind_name(f.kind) << f.stage << "=" << short_number(f.median_us);
  os << "\nthe model runs each stage with its own fitted costs; a kind a stage lacks takes the median over stages: F=" << short_number(m.costs.f) << ", B=" << short_number(m.costs.b)
     << ", W=" << short_number(m.costs.w) << ", FB=" << short_number(m.costs.fb) << ", comm=0\n";
  os << sentence(m) << "\n";
  if (m.departures.empty()) os << "no op started more than " << short_number(departure_tolerance_us) << " us later than the model\n";
  for (std::size_t i = 0; i < std::min<std::size_t>(5, m.departures.size()); ++i) {
    const Departure& d = m.departures[i];
    os << "  rank " << d.rank << " " << d.action << " started " << short_number(d.late_by()) << " us later than the model ("
       << short_number(d.measured_start) << " vs " << short_number(d.model_start) << ")\n";
  }
  return os.str();
}

}  // namespace pipesim
