// The chunk-pair overlap model: two lanes, fixed orders from [R] Fig. 4, list scheduling.
// The reasoning and the sources are in pipesim/overlap.h.
#include "pipesim/overlap.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <stdexcept>

#include "detail/short_number.h"
#include "detail/text.h"
#include "pipesim/error.h"
#include "pipesim/language.h"
#include "pipesim/parse.h"

namespace pipesim {

namespace {

constexpr auto fwd(Part p) -> Component { return {Pass::forward, p}; }
constexpr auto bwd(Part p) -> Component { return {Pass::backward, p}; }

// [R] Fig. 4, started at the chunk boundary: each communication sits under the other chunk's compute.
constexpr std::array compute_order{fwd(Part::attn), bwd(Part::mlp_b),  bwd(Part::mlp_w),
                                   fwd(Part::mlp),  bwd(Part::attn_b), bwd(Part::attn_w)};
constexpr std::array comm_order{bwd(Part::combine), fwd(Part::dispatch), bwd(Part::dispatch),
                                fwd(Part::combine), fwd(Part::pp),       bwd(Part::pp)};

constexpr std::array forward_parts{Part::attn, Part::dispatch, Part::mlp, Part::combine, Part::pp};
constexpr std::array backward_parts{Part::combine, Part::mlp_b, Part::mlp_w, Part::dispatch,
                                    Part::attn_b,  Part::attn_w, Part::pp};

// The one component of its own chunk that a component waits for. Weight gradients feed nothing.
auto predecessor(Component c) -> std::optional<Component> {
  if (c.pass == Pass::forward) {
    switch (c.part) {
      case Part::dispatch: return fwd(Part::attn);
      case Part::mlp: return fwd(Part::dispatch);
      case Part::combine: return fwd(Part::mlp);
      case Part::pp: return fwd(Part::combine);
      default: return std::nullopt;
    }
  }
  switch (c.part) {
    case Part::mlp_b: return bwd(Part::combine);
    case Part::mlp_w:
    case Part::dispatch: return bwd(Part::mlp_b);
    case Part::attn_b: return bwd(Part::dispatch);
    case Part::attn_w:
    case Part::pp: return bwd(Part::attn_b);
    default: return std::nullopt;
  }
}

auto index_of(Component c) -> std::size_t {
  return static_cast<std::size_t>(c.pass) * 16 + static_cast<std::size_t>(c.part);
}

// The field holding a component's duration; `D` is ChunkDurations or const ChunkDurations.
template <class D>
auto field(D& d, Component c) -> decltype((d.pp)) {
  if (c.part == Part::pp) return d.pp;
  if (c.pass == Pass::forward) {
    switch (c.part) {
      case Part::attn: return d.forward.attn;
      case Part::dispatch: return d.forward.dispatch;
      case Part::mlp: return d.forward.mlp;
      case Part::combine: return d.forward.combine;
      default: break;
    }
  } else {
    switch (c.part) {
      case Part::combine: return d.backward.combine;
      case Part::mlp_b: return d.backward.mlp_b;
      case Part::mlp_w: return d.backward.mlp_w;
      case Part::dispatch: return d.backward.dispatch;
      case Part::attn_b: return d.backward.attn_b;
      case Part::attn_w: return d.backward.attn_w;
      default: break;
    }
  }
  throw std::logic_error("a " + std::string(c.pass == Pass::forward ? "forward" : "backward") +
                         " chunk has no component " + std::string(part_name(c.part)));
}

auto keep(const auto& order, bool forward, bool backward) -> std::vector<Component> {
  std::vector<Component> out;
  for (const Component& c : order)
    if (c.pass == Pass::forward ? forward : backward) out.push_back(c);
  return out;
}

// List scheduling on two lanes: a component starts when its lane is free and its predecessor ended.
auto schedule_lanes(const ChunkDurations& d, bool forward, bool backward) -> LaneSchedule {
  const std::array<std::vector<Component>, 2> orders{keep(compute_order, forward, backward),
                                                     keep(comm_order, forward, backward)};
  std::array<std::optional<double>, 32> end{};
  std::array<std::size_t, 2> next{0, 0};
  std::array<double, 2> free_at{0, 0};
  LaneSchedule out;
  for (bool progress = true; progress;) {
    progress = false;
    for (std::size_t lane = 0; lane < 2; ++lane) {
      while (next[lane] < orders[lane].size()) {
        const Component c = orders[lane][next[lane]];
        const auto pred = predecessor(c);
        if (pred && !end[index_of(*pred)]) break;
        const double start = std::max(free_at[lane], pred ? *end[index_of(*pred)] : 0.0);
        const double stop = start + duration_of(d, c);
        out.slots.push_back({c, static_cast<Lane>(lane), start, stop});
        end[index_of(c)] = free_at[lane] = stop;
        (lane == 0 ? out.compute : out.comm) += stop - start;
        ++next[lane];
        progress = true;
      }
    }
  }
  // The lane orders are consistent with the dependencies, so both lanes always drain.
  if (next[0] != orders[0].size() || next[1] != orders[1].size())
    throw std::logic_error("overlap lane orders deadlock");
  std::stable_sort(out.slots.begin(), out.slots.end(),
                   [](const Slot& a, const Slot& b) { return a.start < b.start; });
  out.makespan = std::max(free_at[0], free_at[1]);
  out.exposed_comm = out.makespan - out.compute;
  // Summing in another order can leave a rounding residue where nothing waits.
  if (out.exposed_comm <= 1e-12 * std::max(1.0, out.makespan)) out.exposed_comm = 0;
  return out;
}

auto join_names(const auto& parts) -> std::string {
  std::string out;
  for (Part p : parts) out += (out.empty() ? "" : ", ") + std::string(part_name(p));
  return out;
}

// "a=1,b=2" with exactly the keys of `parts` (names as part_name), each once.
auto parse_components_of(std::string_view text, const std::string& which, const auto& parts) -> std::map<Part, double> {
  const std::string names = join_names(parts);
  std::map<Part, double> out;
  for (const detail::Assignment& a : detail::split_assignments(text)) {
    if (!a.has_value)
      throw Error(ErrorCode::bad_value, which + " component '" + std::string(a.item) + "' must be NAME=VALUE with NAME one of " + names,
                  {"component.assignment", {{"which", which}, {"value", std::string(a.item)}, {"names", names}}});
    const std::string key(a.key);
    const auto it = std::find_if(parts.begin(), parts.end(), [&](Part p) { return part_name(p) == key; });
    if (it == parts.end())
      throw Error(ErrorCode::unknown_name, "unknown " + which + " component '" + quoted_input(key) + "'; " + which + " components are " + names,
                  {"component.unknown", {{"which", which}, {"name", quoted_input(key)}, {"names", names}}});
    if (out.count(*it) != 0)
      throw Error(ErrorCode::bad_value, which + " component " + key + " is given twice", {"component.twice", {{"which", which}, {"name", key}}});
    const auto v = parse_finite(a.value);
    if (!v || *v < 0)
      throw Error(ErrorCode::bad_value, which + " component " + key + " must be a number >= 0, got '" + quoted_input(a.value) + "'",
                  {"component.number", {{"which", which}, {"name", key}, {"value", quoted_input(a.value)}}});
    out[*it] = *v;
  }
  for (Part p : parts)
    if (out.count(p) == 0)
      throw Error(ErrorCode::bad_value, which + " component " + std::string(part_name(p)) + " is missing; give all of " + names,
                  {"component.missing", {{"which", which}, {"name", std::string(part_name(p))}, {"names", names}}});
  return out;
}

/// parse_components_of, its refusals about the pass's field.
auto parse_components(std::string_view text, Pass pass, const auto& parts) -> std::map<Part, double> {
  const std::string which = pass == Pass::forward ? "forward" : "backward";
  try {
    return parse_components_of(text, which, parts);
  } catch (const Error& e) {
    throw e.about(which);  // the refusal is about the pass's field, named as the JSON request names it
  }
}

auto all_components() -> std::vector<Component> {
  auto out = chunk_components(Pass::forward);
  for (const Component& c : chunk_components(Pass::backward)) out.push_back(c);
  return out;
}

auto is_all_to_all(Part p) -> bool { return p == Part::dispatch || p == Part::combine; }

auto sum_where(const ChunkDurations& d, auto&& pick) -> double {
  double total = 0;
  for (const Component& c : all_components())
    if (pick(c)) total += duration_of(d, c);
  return total;
}

auto compute_total(const ChunkDurations& d) -> double {
  return sum_where(d, [](Component c) { return lane_of(c.part) == Lane::compute; });
}

auto all_to_all_total(const ChunkDurations& d) -> double {
  return sum_where(d, [](Component c) { return is_all_to_all(c.part); });
}

auto ratio_factor(const ChunkDurations& d, double compute_to_comm) -> double {
  if (!std::isfinite(compute_to_comm) || compute_to_comm <= 0)
    throw Error(ErrorCode::bad_value, "the compute:comm ratio must be a finite number > 0, got " + format_number(compute_to_comm),
                {"ratio.finite", {{"value", format_number(compute_to_comm)}}}, "ratio");
  const double a2a = all_to_all_total(d);
  if (a2a <= 0) throw Error(ErrorCode::bad_value, "cannot scale communication to a compute:comm ratio: every all-to-all duration is 0",
                           {"ratio.no_all_to_all", {}}, "ratio");
  const double compute = compute_total(d);
  if (compute <= 0) throw Error(ErrorCode::bad_value, "cannot scale communication to a compute:comm ratio: every compute duration is 0",
                               {"ratio.no_compute", {}}, "ratio");
  return compute / compute_to_comm / a2a;
}

auto scaled(const ChunkDurations& d, double a2a_factor, double compute_factor, double pp_factor) -> ChunkDurations {
  ChunkDurations out = d;
  for (const Component& c : all_components()) {
    const double factor = c.part == Part::pp ? pp_factor : is_all_to_all(c.part) ? a2a_factor : compute_factor;
    // Each chunk has its own PP entry in the list but both read the one field: scale it once.
    if (c.part == Part::pp && c.pass == Pass::backward) continue;
    duration_of(out, c) = duration_of(d, c) * factor;
  }
  return out;
}

/// The words of a derivation; the numbers and the formulas' letters are the same in every language.
struct DerivationWords {
  std::string_view given;            ///< the formula of a duration given rather than derived
  std::string_view compute_stretch;  ///< the SM split's factor on a compute duration, in symbols
  std::string_view comm_stretch;     ///< the SM split's factor on a communication duration, in symbols
  std::string_view scaled;           ///< why the all-to-alls are multiplied by r; {ratio} is the ratio asked
};

constexpr Translated<DerivationWords> derivation_words{
    .en = {.given = "given",
           .compute_stretch = "total/(total-comm)",
           .comm_stretch = "max(1, saturation/comm)",
           .scaled = "scaled to compute:all-to-all = {ratio}"},
    .pt_br = {.given = "dado",
              .compute_stretch = "total/(total-com)",
              .comm_stretch = "max(1, saturação/com)",
              .scaled = "escalado para computação:all-to-all = {ratio}"},
    .zh_cn = {.given = "给定值",
              .compute_stretch = "总数/(总数-通信)",
              .comm_stretch = "max(1, 饱和数/通信)",
              .scaled = "按 计算:all-to-all = {ratio} 缩放"},
};

// Appends one adjustment to a derivation: symbols to the formula, numbers to the worked line.
void adjust(Derivation& step, const std::string& symbols, const std::string& numbers, double value,
            const std::string& unit) {
  step.formula += " × " + symbols;
  step.worked += ", × " + numbers + " = " + detail::short_number(value) + unit;
  step.value = value;
}

auto given_derivations(const ChunkDurations& d, const std::string& unit, const DerivationWords& words = derivation_words.en)
    -> std::vector<Derivation> {
  std::vector<Derivation> out;
  for (const Component& c : all_components()) {
    const double v = duration_of(d, c);
    out.push_back({c, std::string(words.given), detail::short_number(v) + unit, v, v});
  }
  return out;
}

auto derivations(const Overlap& o) -> std::vector<Derivation> {
  const std::string unit = o.input.unit.empty() ? "" : " " + o.input.unit;
  const DerivationWords& words = derivation_words.in(o.input.language);
  std::vector<Derivation> out =
      o.input.derivation.empty() ? given_derivations(o.input.durations, unit, words) : o.input.derivation;
  for (Derivation& step : out) {
    const Part p = step.component.part;
    if (o.input.compute_to_comm && is_all_to_all(p)) {
      std::string why(words.scaled);
      why.replace(why.find("{ratio}"), 7, detail::short_number(*o.input.compute_to_comm));
      adjust(step, "r", detail::short_number(o.comm_scale) + " (" + why + ")", step.value * o.comm_scale, unit);
    }
    if (o.input.sms) {
      const SmSplit& s = *o.input.sms;
      if (lane_of(p) == Lane::compute)
        adjust(step, std::string(words.compute_stretch), std::to_string(s.total_sms) + "/" + std::to_string(s.total_sms - s.comm_sms),
               step.value * compute_stretch(s), unit);
      else
        adjust(step, std::string(words.comm_stretch), "max(1, " + std::to_string(s.saturation_sms) + "/" +
                                                     std::to_string(s.comm_sms) + ")",
               step.value * comm_stretch(s), unit);
    }
    step.value = duration_of(o.durations, step.component);  // bit-identical to what was simulated
  }
  return out;
}

}  // namespace

auto part_name(Part part) -> std::string_view {
  switch (part) {
    case Part::attn: return "attn";
    case Part::dispatch: return "dispatch";
    case Part::mlp: return "mlp";
    case Part::combine: return "combine";
    case Part::mlp_b: return "mlp_b";
    case Part::mlp_w: return "mlp_w";
    case Part::attn_b: return "attn_b";
    case Part::attn_w: return "attn_w";
    case Part::pp: return "pp";
  }
  return "?";
}

auto figure_label(Component c) -> std::string {
  const char* pass = c.pass == Pass::forward ? "(F)" : "(B)";
  switch (c.part) {
    case Part::attn: return "ATTN(F)";
    case Part::mlp: return "MLP(F)";
    case Part::dispatch: return std::string("DISPATCH") + pass;
    case Part::combine: return std::string("COMBINE") + pass;
    case Part::pp: return std::string("PP") + pass;
    case Part::mlp_b: return "MLP(B)";
    case Part::mlp_w: return "MLP(W)";
    case Part::attn_b: return "ATTN(B)";
    case Part::attn_w: return "ATTN(W)";
  }
  return "?";
}

auto lane_of(Part part) -> Lane {
  return part == Part::dispatch || part == Part::combine || part == Part::pp ? Lane::comm : Lane::compute;
}

auto chunk_components(Pass pass) -> std::vector<Component> {
  std::vector<Component> out;
  if (pass == Pass::forward)
    for (Part p : forward_parts) out.push_back(fwd(p));
  else
    for (Part p : backward_parts) out.push_back(bwd(p));
  return out;
}

auto duration_of(ChunkDurations& d, Component c) -> double& { return field(d, c); }

auto duration_of(const ChunkDurations& d, Component c) -> double { return field(d, c); }

auto parse_forward_durations(std::string_view text) -> ForwardDurations {
  const auto v =
      parse_components(text, Pass::forward, std::array{Part::attn, Part::dispatch, Part::mlp, Part::combine});
  return {v.at(Part::attn), v.at(Part::dispatch), v.at(Part::mlp), v.at(Part::combine)};
}

auto parse_backward_durations(std::string_view text) -> BackwardDurations {
  const auto v = parse_components(
      text, Pass::backward,
      std::array{Part::combine, Part::mlp_b, Part::mlp_w, Part::dispatch, Part::attn_b, Part::attn_w});
  return {v.at(Part::combine), v.at(Part::mlp_b), v.at(Part::mlp_w),
          v.at(Part::dispatch), v.at(Part::attn_b), v.at(Part::attn_w)};
}

void validate_durations(const ChunkDurations& d) {
  for (const Component& c : all_components()) {
    const double v = duration_of(d, c);
    if (!std::isfinite(v) || v < 0)
      throw Error(ErrorCode::bad_value, "duration of " + figure_label(c) + " must be a finite number >= 0, got " + format_number(v),
                  {"chunk.duration", {{"name", figure_label(c)}, {"value", format_number(v)}}},
                  c.pass == Pass::forward ? "forward" : "backward");
  }
}

void validate_sm_split(const SmSplit& s) {
  if (s.total_sms < 2) throw Error(ErrorCode::bad_value, "total SMs must be at least 2, got " + std::to_string(s.total_sms),
                                   {"sms.total", {{"value", std::to_string(s.total_sms)}}}, "total_sms");
  if (s.comm_sms < 1 || s.comm_sms >= s.total_sms)
    throw Error(ErrorCode::bad_value, "communication SMs must be at least 1 and fewer than the total SMs (" + std::to_string(s.total_sms) +
                "), got " + std::to_string(s.comm_sms),
                {"sms.comm", {{"total", std::to_string(s.total_sms)}, {"value", std::to_string(s.comm_sms)}}}, "comm_sms");
  if (s.saturation_sms < 1)
    throw Error(ErrorCode::bad_value, "saturation SMs must be at least 1, got " + std::to_string(s.saturation_sms),
                {"sms.saturation", {{"value", std::to_string(s.saturation_sms)}}}, "saturation_sms");
}

auto compute_stretch(const SmSplit& s) -> double {
  return static_cast<double>(s.total_sms) / static_cast<double>(s.total_sms - s.comm_sms);
}

auto comm_stretch(const SmSplit& s) -> double {
  return std::max(1.0, static_cast<double>(s.saturation_sms) / static_cast<double>(s.comm_sms));
}

auto apply_sm_split(const ChunkDurations& d, const SmSplit& s) -> ChunkDurations {
  validate_sm_split(s);
  return scaled(d, comm_stretch(s), compute_stretch(s), comm_stretch(s));
}

auto scale_to_ratio(const ChunkDurations& d, double compute_to_comm) -> ChunkDurations {
  return scaled(d, ratio_factor(d, compute_to_comm), 1, 1);
}

namespace {

// The chunk's times become a pipeline's costs (overlap_costs), so a model whose F, B or W no cost can
// take, or with no work at all, is refused here, whatever made it so (durations, the ratio, the SM split).
void check_usable_as_costs(const Overlap& o) {
  const auto check = [](const char* name, double v) {
    if (v != 0 && (v < min_cost || v > max_cost))
      throw Error(ErrorCode::bad_value, std::string("the chunk model gives ") + name + " = " + format_number(v) +
                                            ", which no pipeline cost can be: costs are 0 or between " +
                                            format_number(min_cost) + " and " + format_number(max_cost),
                  {"chunk.cost_range", {{"cost", name}, {"value", format_number(v)}, {"min", format_number(min_cost)}, {"max", format_number(max_cost)}}});
  };
  check("F", o.f);
  check("B", o.b);
  check("W", o.durations.backward.mlp_w + o.durations.backward.attn_w);
  if (o.f + o.b == 0)
    throw Error(ErrorCode::bad_value, "the chunk model gives F = B = 0: a chunk with no computation and no "
                                      "communication has nothing to overlap and no cost to give a pipeline",
                {"chunk.no_work", {}});
}

}  // namespace

auto simulate_overlap(const ChunkDurations& d) -> Overlap {
  validate_durations(d);
  Overlap o;
  o.input.durations = d;
  o.durations = d;
  o.forward = schedule_lanes(d, true, false);
  o.backward = schedule_lanes(d, false, true);
  o.pair = schedule_lanes(d, true, true);
  o.f = o.forward.makespan;
  o.b = o.backward.makespan;
  o.fb = o.pair.makespan;
  o.sequential = o.f + o.b;
  o.exposed_comm = o.pair.exposed_comm;
  o.hidden_fraction = o.pair.comm > 0 ? std::clamp(1 - o.exposed_comm / o.pair.comm, 0.0, 1.0) : 1.0;
  o.derivation = given_derivations(d, "");
  check_usable_as_costs(o);
  return o;
}

auto run_overlap(const OverlapInput& input) -> Overlap {
  validate_durations(input.durations);
  if (input.sms) validate_sm_split(*input.sms);
  ChunkDurations d = input.durations;
  double comm_scale = 1;
  if (input.compute_to_comm) {
    comm_scale = ratio_factor(d, *input.compute_to_comm);
    d = scale_to_ratio(d, *input.compute_to_comm);
  }
  if (input.sms) d = apply_sm_split(d, *input.sms);
  Overlap o = simulate_overlap(d);
  o.input = input;
  o.comm_scale = comm_scale;
  o.derivation = derivations(o);
  return o;
}

auto overlap_costs(const Overlap& o) -> Costs {
  Costs c;
  c.f = o.f;
  c.b = o.b;
  c.w = o.durations.backward.mlp_w + o.durations.backward.attn_w;
  // fb lies in [max(f, b), f + b] (overlap.h); the clamp only absorbs rounding.
  c.fb = std::clamp(o.fb, std::max(o.f, o.b), o.f + o.b);
  c.w = std::min(c.w, c.b);  // b holds MLP(W) and ATTN(W) in full; min only absorbs rounding
  c.comm = 0;
  return c;
}

}  // namespace pipesim
