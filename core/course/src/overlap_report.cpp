// Views of an Overlap: the JSON the page animates and a two-lane text timeline.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "detail/json_document.h"
#include "detail/json_text.h"
#include "detail/json_trees.h"
#include "detail/short_number.h"
#include "pipesim/overlap.h"

namespace pipesim {

namespace {

using nlohmann::json;
using detail::short_number;

constexpr int timeline_columns = 96;

auto number(double v) -> json { return detail::json_number(v); }

auto pass_name(Pass p) -> const char* { return p == Pass::forward ? "F" : "B"; }
auto lane_name(Lane l) -> const char* { return l == Lane::compute ? "compute" : "comm"; }

auto component_fields(Component c) -> json {
  return {{"chunk", pass_name(c.pass)}, {"component", std::string(part_name(c.part))},
          {"label", figure_label(c)}, {"lane", lane_name(lane_of(c.part))}};
}

auto durations_json(const ChunkDurations& d) -> json {
  json out{{"forward", json::object()}, {"backward", json::object()}, {"pp", number(d.pp)}};
  for (const Pass pass : {Pass::forward, Pass::backward}) {
    json& chunk = out[pass == Pass::forward ? "forward" : "backward"];
    for (const Component& c : chunk_components(pass))
      if (c.part != Part::pp) chunk[std::string(part_name(c.part))] = number(duration_of(d, c));
  }
  return out;
}

auto schedule_json(const LaneSchedule& s) -> json {
  json timeline = json::array();
  for (const Slot& slot : s.slots) {
    json item = component_fields(slot.component);
    item["start"] = number(slot.start);
    item["end"] = number(slot.end);
    timeline.push_back(std::move(item));
  }
  return {{"makespan", number(s.makespan)}, {"compute", number(s.compute)}, {"comm", number(s.comm)},
          {"exposed_comm", number(s.exposed_comm)}, {"timeline", std::move(timeline)}};
}

auto derivation_json(const std::vector<Derivation>& steps) -> json {
  json out = json::array();
  for (const Derivation& d : steps) {
    json item = component_fields(d.component);
    item["formula"] = d.formula;
    item["worked"] = d.worked;
    item["measured"] = number(d.measured);
    item["value"] = number(d.value);
    out.push_back(std::move(item));
  }
  return out;
}

auto sms_json(const Overlap& o) -> json {
  if (!o.input.sms) return nullptr;
  const SmSplit& s = *o.input.sms;
  return {{"comm_sms", s.comm_sms}, {"total_sms", s.total_sms}, {"saturation_sms", s.saturation_sms},
          {"compute_stretch", number(compute_stretch(s))}, {"comm_stretch", number(comm_stretch(s))}};
}

auto costs_json(const Costs& c) -> json {
  return {{"F", number(c.f)}, {"B", number(c.b)}, {"W", number(c.w)}, {"FB", number(c.fb)}, {"comm", number(c.comm)}};
}

auto fixed2(double v) -> std::string {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

// Rounded down to 0.1 %, so only communication that is entirely hidden reads "100%".
auto percent(double fraction) -> std::string {
  return short_number(std::floor(fraction * 1000 + 1e-9) / 10, 4) + "%";
}

auto lane_row(const LaneSchedule& s, Lane lane, double per_column) -> std::string {
  std::string row(timeline_columns, '.');
  for (const Slot& slot : s.slots) {
    if (slot.lane != lane || slot.end <= slot.start) continue;
    int a = std::min(timeline_columns - 1, static_cast<int>(std::lround(slot.start / per_column)));
    const int b = std::clamp(static_cast<int>(std::lround(slot.end / per_column)), a + 1, timeline_columns);
    std::string text = figure_label(slot.component);
    // Too narrow for "DISPATCH(F)": "D(F)", as the legend explains.
    if (static_cast<int>(text.size()) > b - a) text = text.substr(0, 1) + text.substr(text.find('('));
    text.resize(static_cast<std::size_t>(b - a), '-');
    row.replace(static_cast<std::size_t>(a), text.size(), text);
  }
  return row;
}

void draw(std::ostringstream& os, const std::string& title, const std::string& value, const LaneSchedule& s,
          double per_column) {
  os << title << ": " << value << "\n";
  os << "  compute |" << lane_row(s, Lane::compute, per_column) << "|\n";
  os << "  comm    |" << lane_row(s, Lane::comm, per_column) << "|\n";
}

void draw_derivation(std::ostringstream& os, const Overlap& o) {
  os << "\ncomponent durations";
  if (o.input.sms) {
    const SmSplit& s = *o.input.sms;
    os << " (" << s.comm_sms << " of " << s.total_sms << " SMs communicate: compute x "
       << short_number(compute_stretch(s)) << ", communication x " << short_number(comm_stretch(s)) << ")";
  }
  os << ":\n";
  for (const Derivation& d : o.derivation) {
    std::string label = figure_label(d.component);
    label.resize(12, ' ');
    os << "  " << label << d.formula << "\n  " << std::string(12, ' ') << "= " << d.worked << "\n";
  }
}

}  // namespace

auto overlap_sentence(const Overlap& o) -> std::string {
  std::string out = "communication " + percent(o.hidden_fraction) + " hidden";
  if (o.f > 0) out += "; the pair costs " + fixed2(o.fb / o.f) + " x the forward chunk";
  if (o.sequential > 0) out += " (" + fixed2(o.fb / o.sequential) + " x F+B)";
  return out;
}

auto overlap_json(const Overlap& o) -> JsonDocument { return detail::document(detail::overlap_tree(o)); }

auto detail::overlap_tree(const Overlap& o) -> json {
  json out;
  out["unit"] = o.input.unit;
  out["f"] = number(o.f);
  out["b"] = number(o.b);
  out["fb"] = number(o.fb);
  out["sequential"] = number(o.sequential);
  out["exposed_comm"] = number(o.exposed_comm);
  out["hidden_fraction"] = number(o.hidden_fraction);
  out["sentence"] = overlap_sentence(o);
  out["costs"] = costs_json(overlap_costs(o));
  out["sms"] = sms_json(o);
  out["ratio"] = o.input.compute_to_comm
                     ? json{{"compute_to_comm", number(*o.input.compute_to_comm)}, {"comm_scale", number(o.comm_scale)}}
                     : json(nullptr);
  out["measured"] = durations_json(o.input.durations);
  out["durations"] = durations_json(o.durations);
  out["derivation"] = derivation_json(o.derivation);
  out["forward"] = schedule_json(o.forward);
  out["backward"] = schedule_json(o.backward);
  out["pair"] = schedule_json(o.pair);
  return out;
}

auto render_overlap_text(const Overlap& o) -> std::string {
  const std::string unit = o.input.unit.empty() ? "" : " " + o.input.unit;
  const double span = std::max({o.f, o.b, o.fb});
  const double per_column = span > 0 ? span / timeline_columns : 1;
  std::ostringstream os;
  os << "One forward chunk and one backward chunk on a GPU's compute and communication SMs, as in "
        "DeepSeek-V3 Fig. 4\n(1 column = "
     << short_number(per_column, 4) << unit << "; '.' = idle; narrow boxes abbreviate: A attention, D dispatch,\n"
        "M MLP, C combine, P pipeline send; (F) forward, (B) backward [for input], (W) backward for weights)\n\n";
  draw(os, "forward chunk alone", "f = " + short_number(o.f) + unit, o.forward, per_column);
  draw(os, "backward chunk alone", "b = " + short_number(o.b) + unit, o.backward, per_column);
  draw(os, "the pair, overlapped", "fb = " + short_number(o.fb) + unit, o.pair, per_column);
  os << "\nf = " << short_number(o.f) << ", b = " << short_number(o.b) << ", fb = " << short_number(o.fb)
     << ", sequential f + b = " << short_number(o.sequential) << unit << "\n";
  os << "exposed communication " << short_number(o.exposed_comm) << " of " << short_number(o.pair.comm) << unit
     << " (time the compute lane waits); " << percent(o.hidden_fraction) << " of the communication hidden\n";
  os << overlap_sentence(o) << "\n";
  const Costs c = overlap_costs(o);
  os << "pipeline costs from the chunk model: F=" << short_number(c.f) << ", B=" << short_number(c.b)
     << ", W=" << short_number(c.w) << ", FB=" << short_number(c.fb) << ", comm=0 (PP is inside F, B, FB)\n";
  draw_derivation(os, o);
  return os.str();
}

}  // namespace pipesim
