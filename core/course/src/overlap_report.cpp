// Views of an Overlap: the JSON the page animates and a two-lane text timeline.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <sstream>

#include "detail/i18n.h"
#include "detail/overlap_words.h"
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

/// The text view's fixed words in each language ({name}: a value the view fills in). The figure's
/// component labels (ATTN(F), ...), the symbols (f, b, fb, F=, x) and the numbers are the same in
/// every language; the derivation's own words are overlap.cpp's derivation_words.
struct OverlapViewWords {
  std::string_view legend;          ///< what the two lanes and the boxes mean; {column} is one column's time
  std::string_view forward_alone;   ///< the forward chunk's two lanes
  std::string_view backward_alone;  ///< the backward chunk's two lanes
  std::string_view pair;            ///< the overlapped pair's two lanes
  std::string_view compute_lane;    ///< the compute lane's row label
  std::string_view comm_lane;       ///< the communication lane's row label
  std::string_view sequential;      ///< after "f = .., b = .., fb = ..": {value} is f + b
  std::string_view exposed;         ///< {exposed} of {comm} communication the compute lane waits for; {hidden} percent
  std::string_view hidden;          ///< the sentence: {hidden} percent of the communication hidden
  std::string_view pair_cost;       ///< the sentence goes on: the pair is {ratio} x the forward chunk
  std::string_view pair_vs_sequential;  ///< and {ratio} x F+B
  std::string_view costs;           ///< the pipeline costs the chunk model gives; {costs} is "F=.., B=.., W=.., FB=.."
  std::string_view durations;       ///< the derivation's heading; {sms} is sm_split or nothing
  std::string_view colon;           ///< between a lane pair's title and its duration
  std::string_view sm_split;        ///< the heading's SM split: {comm} of {total} SMs, the two stretches
};

constexpr Translated<OverlapViewWords> view_words{
    .en = {.legend = "One forward chunk and one backward chunk on a GPU's compute and communication SMs, as in "
                     "DeepSeek-V3 Fig. 4\n(1 column = {column}; '.' = idle; narrow boxes abbreviate: A attention, D dispatch,\n"
                     "M MLP, C combine, P pipeline send; (F) forward, (B) backward [for input], (W) backward for weights)",
           .forward_alone = "forward chunk alone",
           .backward_alone = "backward chunk alone",
           .pair = "the pair, overlapped",
           .compute_lane = "compute",
           .comm_lane = "comm",
           .sequential = "sequential f + b = {value}",
           .exposed = "exposed communication {exposed} of {comm} (time the compute lane waits); {hidden} of the communication hidden",
           .hidden = "communication {hidden} hidden",
           .pair_cost = "; the pair costs {ratio} x the forward chunk",
           .pair_vs_sequential = " ({ratio} x F+B)",
           .costs = "pipeline costs from the chunk model: {costs}, comm=0 (PP is inside F, B, FB)",
           .durations = "component durations{sms}:",
           .colon = ": ",
           .sm_split = " ({comm} of {total} SMs communicate: compute x {compute}, communication x {communication})"},
    .pt_br = {.legend = "Um chunk forward e um chunk backward nos SMs de computação e de comunicação de uma GPU, como na "
                        "Fig. 4 do DeepSeek-V3\n(1 coluna = {column}; '.' = ocioso; caixas estreitas abreviam: A atenção, D dispatch,\n"
                        "M MLP, C combine, P envio do pipeline; (F) forward, (B) backward [da entrada], (W) backward dos pesos)",
              .forward_alone = "chunk forward sozinho",
              .backward_alone = "chunk backward sozinho",
              .pair = "o par, sobreposto",
              .compute_lane = "computação",
              .comm_lane = "comunicação",
              .sequential = "f + b em sequência = {value}",
              .exposed = "comunicação exposta {exposed} de {comm} (tempo em que a faixa de computação espera); {hidden} da comunicação escondida",
              .hidden = "comunicação {hidden} escondida",
              .pair_cost = "; o par custa {ratio} x o chunk forward",
              .pair_vs_sequential = " ({ratio} x F+B)",
              .costs = "custos do pipeline pelo modelo do chunk: {costs}, comm=0 (o PP está dentro de F, B, FB)",
              .durations = "durações dos componentes{sms}:",
              .colon = ": ",
              .sm_split = " ({comm} de {total} SMs comunicam: computação x {compute}, comunicação x {communication})"},
    .zh_cn = {.legend = "一个前向 chunk 和一个反向 chunk 在 GPU 的计算 SM 与通信 SM 上，如 DeepSeek-V3 图 4\n"
                        "（1 列 = {column}；'.' = 空闲；窄框用缩写：A 注意力，D dispatch，\n"
                        "M MLP，C combine，P 流水线发送；(F) 前向，(B) 反向［输入部分］，(W) 反向［权重部分］）",
              .forward_alone = "单独的前向 chunk",
              .backward_alone = "单独的反向 chunk",
              .pair = "重叠的一对",
              .compute_lane = "计算",
              .comm_lane = "通信",
              .sequential = "依次执行 f + b = {value}",
              .exposed = "暴露的通信 {exposed}，共 {comm}（计算通道等待的时间）；{hidden} 的通信被隐藏",
              .hidden = "通信隐藏了 {hidden}",
              .pair_cost = "；这一对的开销是前向 chunk 的 {ratio} 倍",
              .pair_vs_sequential = "（F+B 的 {ratio} 倍）",
              .costs = "由 chunk 模型得到的流水线成本：{costs}，comm=0（PP 已含在 F、B、FB 中）",
              .durations = "各组件的时长{sms}：",
              .colon = "：",
              .sm_split = "（{total} 个 SM 中 {comm} 个用于通信：计算 x {compute}，通信 x {communication}）"},
};

auto words_of(const Overlap& o) -> const OverlapViewWords& { return view_words.in(o.input.language); }

/// `label` padded with spaces to `width` terminal columns (a Chinese character takes two).
auto padded(std::string_view label, std::size_t width) -> std::string {
  std::string out(label);
  for (std::size_t w = detail::columns(label); w < width; ++w) out += ' ';
  return out;
}

/// The three lane pairs the figure draws, each headed by its words and its symbol.
enum class Section : std::uint8_t { forward, backward, pair };

/// A lane pair's heading, "forward chunk alone: f": the text view's, and the page's through the JSON's
/// `headings` (the page writes " = " and the duration after it, as the text view does).
auto section_heading(const OverlapViewWords& words, Section section) -> std::string {
  switch (section) {
    case Section::forward: return std::string(words.forward_alone) + std::string(words.colon) + "f";
    case Section::backward: return std::string(words.backward_alone) + std::string(words.colon) + "b";
    case Section::pair: break;
  }
  return std::string(words.pair) + std::string(words.colon) + "fb";
}

void draw(std::ostringstream& os, const OverlapViewWords& words, Section section, const std::string& value,
          const LaneSchedule& s, double per_column, std::string_view language) {
  os << section_heading(words, section) << " = " << value << "\n";
  os << detail::lane_heading(Lane::compute, language) << "|" << lane_row(s, Lane::compute, per_column) << "|\n";
  os << detail::lane_heading(Lane::comm, language) << "|" << lane_row(s, Lane::comm, per_column) << "|\n";
}

void draw_derivation(std::ostringstream& os, const Overlap& o) {
  const OverlapViewWords& words = words_of(o);
  std::string sms;
  if (o.input.sms) {
    const SmSplit& s = *o.input.sms;
    sms = detail::fill(words.sm_split, {{"comm", std::to_string(s.comm_sms)}, {"total", std::to_string(s.total_sms)},
                                        {"compute", short_number(compute_stretch(s))}, {"communication", short_number(comm_stretch(s))}});
  }
  os << "\n" << detail::fill(words.durations, {{"sms", sms}}) << "\n";
  for (const Derivation& d : o.derivation) {
    std::string label = figure_label(d.component);
    label.resize(12, ' ');
    os << "  " << label << d.formula << "\n  " << std::string(12, ' ') << "= " << d.worked << "\n";
  }
}

}  // namespace

auto detail::lane_heading(Lane lane, std::string_view language) -> std::string {
  const OverlapViewWords& words = view_words.in(language);
  const std::size_t width = std::max(detail::columns(words.compute_lane), detail::columns(words.comm_lane)) + 1;
  return "  " + padded(lane == Lane::compute ? words.compute_lane : words.comm_lane, width);
}

namespace {

/// The one-line summary in `words`' language.
auto sentence_in(const Overlap& o, const OverlapViewWords& words) -> std::string {
  std::string out = detail::fill(words.hidden, {{"hidden", percent(o.hidden_fraction)}});
  if (o.f > 0) out += detail::fill(words.pair_cost, {{"ratio", fixed2(o.fb / o.f)}});
  if (o.sequential > 0) out += detail::fill(words.pair_vs_sequential, {{"ratio", fixed2(o.fb / o.sequential)}});
  return out;
}

}  // namespace

// The JSON's sentence stays English in every language (its contract); the text view words it.
auto overlap_sentence(const Overlap& o) -> std::string { return sentence_in(o, view_words.en); }

auto overlap_json(const Overlap& o) -> JsonDocument { return detail::document(detail::overlap_tree(o)); }

namespace {

/// The figure's headings and lane labels in the request's language: the text view's own words, so the
/// page's Chunk tab draws the three lane pairs under the same words as `pipesim overlap --lang`.
auto headings_json(const Overlap& o) -> json {
  const OverlapViewWords& words = words_of(o);
  json out;
  out["forward"] = section_heading(words, Section::forward);
  out["backward"] = section_heading(words, Section::backward);
  out["pair"] = section_heading(words, Section::pair);
  out["compute_lane"] = words.compute_lane;
  out["comm_lane"] = words.comm_lane;
  return out;
}

}  // namespace

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
  out["headings"] = headings_json(o);
  return out;
}

auto render_overlap_text(const Overlap& o) -> std::string {
  const std::string unit = o.input.unit.empty() ? "" : " " + o.input.unit;
  const double span = std::max({o.f, o.b, o.fb});
  const double per_column = span > 0 ? span / timeline_columns : 1;
  const OverlapViewWords& words = words_of(o);
  std::ostringstream os;
  os << detail::fill(words.legend, {{"column", short_number(per_column, 4) + unit}}) << "\n\n";
  draw(os, words, Section::forward, short_number(o.f) + unit, o.forward, per_column, o.input.language);
  draw(os, words, Section::backward, short_number(o.b) + unit, o.backward, per_column, o.input.language);
  draw(os, words, Section::pair, short_number(o.fb) + unit, o.pair, per_column, o.input.language);
  os << "\nf = " << short_number(o.f) << ", b = " << short_number(o.b) << ", fb = " << short_number(o.fb) << ", "
     << detail::fill(words.sequential, {{"value", short_number(o.sequential) + unit}}) << "\n";
  os << detail::fill(words.exposed, {{"exposed", short_number(o.exposed_comm)}, {"comm", short_number(o.pair.comm) + unit},
                                     {"hidden", percent(o.hidden_fraction)}})
     << "\n";
  os << sentence_in(o, words) << "\n";
  const Costs c = overlap_costs(o);
  os << detail::fill(words.costs, {{"costs", "F=" + short_number(c.f) + ", B=" + short_number(c.b) + ", W=" + short_number(c.w) +
                                                 ", FB=" + short_number(c.fb)}})
     << "\n";
  draw_derivation(os, o);
  return os.str();
}

}  // namespace pipesim
