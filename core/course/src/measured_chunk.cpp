// A measured F&B pair: kernels to lanes and components, the measures, and their views. The rules are
// stated in pipesim/measured_chunk.h.
#include "pipesim/measured_chunk.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <sstream>

#include "detail/i18n.h"
#include "detail/json_document.h"
#include "detail/json_text.h"
#include "detail/json_trees.h"
#include "detail/overlap_words.h"
#include "detail/short_number.h"
#include "pipesim/language.h"
#include "pipesim/error.h"

namespace pipesim {

namespace {

using nlohmann::json;
using detail::short_number;

auto number(double v) -> json { return detail::json_number(v); }

auto all_components() -> std::vector<Component> {
  auto out = chunk_components(Pass::forward);
  for (const Component& c : chunk_components(Pass::backward)) out.push_back(c);
  return out;
}

auto slot_of(Component c) -> std::size_t {
  const auto list = all_components();
  return static_cast<std::size_t>(std::find(list.begin(), list.end(), c) - list.begin());
}

/// The device most kernels ran on.
auto busiest_device(const ProfileTrace& trace) -> std::int64_t {
  std::map<std::int64_t, int> count;
  for (const TraceKernel& k : trace.kernels) ++count[k.device];
  return std::max_element(count.begin(), count.end(), [](const auto& a, const auto& b) { return a.second < b.second; })->first;
}

/// Streams where communication-named kernels take more than half the kernel time (rule 2).
auto communication_streams(const ProfileTrace& trace, std::int64_t device) -> std::map<std::int64_t, bool> {
  std::map<std::int64_t, std::pair<double, double>> time;  // stream -> (communication-named, all)
  for (const TraceKernel& k : trace.kernels) {
    if (k.device != device) continue;
    auto& [comm, all] = time[k.stream];
    all += k.end - k.start;
    if (k.communication_name) comm += k.end - k.start;
  }
  std::map<std::int64_t, bool> out;
  for (const auto& [stream, t] : time) out[stream] = 2 * t.first > t.second;
  return out;
}

auto component_names() -> std::string {
  std::string out;
  for (const Component& c : all_components()) {
    std::string label = figure_label(c);
    for (char& ch : label) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    out += (out.empty() ? "" : ", ") + label;
  }
  return out;
}

auto lane_key(Lane l) -> const char* { return l == Lane::compute ? "compute" : "comm"; }

/// Parts of the span the drawn timeline resolves: far finer than any screen.
constexpr double timeline_resolution = 8192;

/// The stretches to draw: on each lane, in time order, a stretch joins the one before it when both
/// are the same component and the gap between them is shorter than `gap`, so a trace of a million
/// kernels draws as a few thousand boxes. The busy times are computed before, exactly.
auto drawn_timeline(std::vector<MeasuredSegment> stretches, double gap) -> std::vector<MeasuredSegment> {
  std::stable_sort(stretches.begin(), stretches.end(), [](const MeasuredSegment& a, const MeasuredSegment& b) {
    return a.lane != b.lane ? a.lane < b.lane : a.start < b.start;
  });
  std::vector<MeasuredSegment> out;
  for (const MeasuredSegment& s : stretches) {
    if (!out.empty() && out.back().lane == s.lane && out.back().component == s.component && s.start - out.back().end < gap)
      out.back().end = std::max(out.back().end, s.end);
    else
      out.push_back(s);
  }
  return out;
}

/// Beyond this many stretches (components alternating faster than the drawing resolves), a lane is
/// drawn in equal slices instead, each showing the component busiest in it.
constexpr std::size_t max_drawn_stretches = 16384;

auto sliced_timeline(const std::vector<MeasuredSegment>& stretches, double span) -> std::vector<MeasuredSegment> {
  constexpr int slices = static_cast<int>(timeline_resolution);
  const double width = span / slices;
  // Busy time per (lane, slice, component slot + 1; 0 = unattributed), and where the slice is busy.
  struct Slice {
    std::map<int, double> busy;
    double start = INFINITY;
    double end = -INFINITY;
  };
  std::array<std::vector<Slice>, 2> lanes{std::vector<Slice>(slices), std::vector<Slice>(slices)};
  const auto list = all_components();
  for (const MeasuredSegment& s : stretches) {
    const int key = s.component ? static_cast<int>(slot_of(*s.component)) + 1 : 0;
    const int first = std::clamp(static_cast<int>(s.start / width), 0, slices - 1);
    const int last = std::clamp(static_cast<int>(s.end / width), 0, slices - 1);
    for (int k = first; k <= last; ++k) {
      Slice& slice = lanes[static_cast<std::size_t>(s.lane)][static_cast<std::size_t>(k)];
      const double a = std::max(s.start, k * width);
      const double b = std::min(s.end, (k + 1) * width);
      if (b <= a) continue;
      slice.busy[key] += b - a;
      slice.start = std::min(slice.start, a);
      slice.end = std::max(slice.end, b);
    }
  }
  std::vector<MeasuredSegment> out;
  for (std::size_t lane = 0; lane < 2; ++lane)
    for (const Slice& slice : lanes[lane]) {
      if (slice.busy.empty()) continue;
      const int key = std::max_element(slice.busy.begin(), slice.busy.end(), [](const auto& x, const auto& y) { return x.second < y.second; })->first;
      out.push_back({key > 0 ? std::optional<Component>(list[static_cast<std::size_t>(key - 1)]) : std::nullopt, static_cast<Lane>(lane),
                     slice.start, slice.end});
    }
  return drawn_timeline(std::move(out), width);
}

}  // namespace

auto component_of_annotation(std::string_view name) -> std::optional<Component> {
  static const std::regex pattern(R"((attention|attn|moe|mlp|dispatch|combine|pp)\s*\(\s*([fbw])\s*\))", std::regex::icase);
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_search(name.begin(), name.end(), m, pattern)) return std::nullopt;
  std::string word = m[1].str();
  for (char& ch : word) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  const char pass = static_cast<char>(std::tolower(static_cast<unsigned char>(m[2].str()[0])));
  const Pass p = pass == 'f' ? Pass::forward : Pass::backward;
  if (word == "attention" || word == "attn") {
    if (pass == 'f') return Component{p, Part::attn};
    return Component{p, pass == 'b' ? Part::attn_b : Part::attn_w};
  }
  if (word == "moe" || word == "mlp") {
    if (pass == 'f') return Component{p, Part::mlp};
    return Component{p, pass == 'b' ? Part::mlp_b : Part::mlp_w};
  }
  if (pass == 'w') return std::nullopt;  // communication has no weight gradient
  if (word == "dispatch") return Component{p, Part::dispatch};
  if (word == "combine") return Component{p, Part::combine};
  return Component{p, Part::pp};
}

auto measure_chunk_pair(const ProfileTrace& trace) -> MeasuredChunk {
  if (trace.kernels.empty())
    throw Error(ErrorCode::bad_import, "the profiler trace holds no GPU kernels (cat \"kernel\"): profile with "
                                       "activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]",
                {"chunk_trace.no_kernels", {}});
  std::vector<std::optional<Component>> named(trace.annotations.size());
  for (std::size_t i = 0; i < named.size(); ++i) named[i] = component_of_annotation(trace.annotations[i].name);
  std::vector<bool> wanted(named.size());
  for (std::size_t i = 0; i < named.size(); ++i) wanted[i] = named[i].has_value();
  const std::vector<KernelOwner> owners = attribute_kernels_masked(trace, wanted);

  MeasuredChunk m;
  m.rank = trace.rank;
  m.world_size = trace.world_size;
  m.device = busiest_device(trace);
  const auto comm_stream = communication_streams(trace, m.device);

  const auto list = all_components();
  std::vector<std::vector<Interval>> by_component(list.size());
  std::array<std::vector<Interval>, 2> by_lane;               // compute, comm
  std::array<std::vector<Interval>, 2> unattributed_by_lane;
  std::map<std::pair<int, Lane>, std::vector<Interval>> segments;  // (slot or -1, lane)
  std::map<std::int64_t, MeasuredStream> streams;
  m.components.resize(list.size());
  double first = INFINITY;
  double last = -INFINITY;
  for (std::size_t i = 0; i < trace.kernels.size(); ++i) {
    const TraceKernel& k = trace.kernels[i];
    if (k.device != m.device) {
      ++m.other_device_kernels;
      continue;
    }
    ++m.kernels;
    first = std::min(first, k.start);
    last = std::max(last, k.end);
    const std::optional<Component> c = owners[i].annotation >= 0 ? named[static_cast<std::size_t>(owners[i].annotation)] : std::nullopt;
    ++m.attributed_by[static_cast<std::size_t>(c ? owners[i].how : Attribution::none)];
    const bool comm = k.communication_name || (comm_stream.at(k.stream) && c && lane_of(c->part) == Lane::comm);
    const Lane lane = comm ? Lane::comm : Lane::compute;
    const Interval span{k.start, k.end};
    by_lane[static_cast<std::size_t>(lane)].push_back(span);
    MeasuredStream& s = streams[k.stream];
    s.stream = k.stream;
    s.lane = comm_stream.at(k.stream) ? Lane::comm : Lane::compute;
    ++s.kernels;
    if (c) {
      const std::size_t slot = slot_of(*c);
      by_component[slot].push_back(span);
      ++m.components[slot].kernels;
      if (lane != lane_of(c->part)) ++m.off_lane_kernels;
      segments[{static_cast<int>(slot), lane}].push_back(span);
    } else {
      ++m.unattributed_kernels;
      unattributed_by_lane[static_cast<std::size_t>(lane)].push_back(span);
      segments[{-1, lane}].push_back(span);
    }
  }
  if (m.attributed_by[static_cast<std::size_t>(Attribution::none)] == m.kernels)
    throw Error(ErrorCode::bad_import, "no kernel of the trace ran under an annotation naming a component of the pair; wrap each "
                                       "component in torch.profiler.record_function with one of: " + component_names(),
                {"chunk_trace.no_component_kernel", {{"names", component_names()}}});
  for (std::size_t slot = 0; slot < list.size(); ++slot) {
    m.components[slot].component = list[slot];
    m.components[slot].busy_us = union_length(by_component[slot]);
  }
  for (auto& [stream, s] : streams) {
    std::vector<Interval> own;
    for (const TraceKernel& k : trace.kernels)
      if (k.device == m.device && k.stream == stream) own.push_back({k.start, k.end});
    s.busy_us = union_length(own);
    m.streams.push_back(s);
  }
  m.span_us = last - first;
  const std::vector<Interval> compute = union_of(by_lane[0]);
  const std::vector<Interval> comm = union_of(by_lane[1]);
  for (const Interval& i : compute) m.compute_busy_us += i.end - i.start;
  for (const Interval& i : comm) m.communication_busy_us += i.end - i.start;
  m.hidden_comm_us = overlap_length(compute, comm);
  m.exposed_comm_us = m.communication_busy_us - m.hidden_comm_us;
  m.unattributed_compute_us = union_length(unattributed_by_lane[0]);
  m.unattributed_comm_us = union_length(unattributed_by_lane[1]);
  std::vector<MeasuredSegment> stretches;
  for (auto& [key, spans] : segments)
    for (const Interval& i : union_of(spans))
      stretches.push_back({key.first >= 0 ? std::optional<Component>(list[static_cast<std::size_t>(key.first)]) : std::nullopt,
                           key.second, i.start - first, i.end - first});
  m.timeline = drawn_timeline(std::move(stretches), m.span_us / timeline_resolution);
  if (m.timeline.size() > max_drawn_stretches) m.timeline = sliced_timeline(m.timeline, m.span_us);
  std::stable_sort(m.timeline.begin(), m.timeline.end(), [](const MeasuredSegment& a, const MeasuredSegment& b) { return a.start < b.start; });

  for (std::size_t slot = 0; slot < list.size(); ++slot)
    if (list[slot].part != Part::pp) duration_of(m.durations, list[slot]) = m.components[slot].busy_us;
  const double pp_f = m.components[slot_of({Pass::forward, Part::pp})].busy_us;
  const double pp_b = m.components[slot_of({Pass::backward, Part::pp})].busy_us;
  m.durations.pp = pp_f > 0 && pp_b > 0 ? (pp_f + pp_b) / 2 : std::max(pp_f, pp_b);
  return m;
}

/// The words of a measured derivation; the numbers and units are the same in every language.
struct MeasuredWords {
  std::string_view formula;    ///< how a measured duration is found
  std::string_view kernel;     ///< after a count of one
  std::string_view kernels;    ///< after any other count
  std::string_view busy;       ///< before the busy time
  std::string_view pp_shared;  ///< why PP(F) and PP(B) show the same duration
};

constexpr Translated<MeasuredWords> measured_words{
    .en = {.formula = "measured: the union of its kernels in the trace",
           .kernel = " kernel",
           .kernels = " kernels",
           .busy = ", busy ",
           .pp_shared = "; PP(F) and PP(B) share one duration: "},
    .pt_br = {.formula = "medido: a união dos seus kernels no trace",
              .kernel = " kernel",
              .kernels = " kernels",
              .busy = ", ocupado ",
              .pp_shared = "; PP(F) e PP(B) têm uma só duração: "},
    .zh_cn = {.formula = "实测：trace 中其各 kernel 的并集",
              .kernel = " 个 kernel",
              .kernels = " 个 kernel",
              .busy = "，忙碌 ",
              .pp_shared = "；PP(F) 与 PP(B) 共用一个时长："},
};

auto overlap_input_from(const MeasuredChunk& m, std::string_view language) -> OverlapInput {
  const MeasuredWords& words = measured_words.in(language);
  OverlapInput in;
  in.durations = m.durations;
  in.unit = "us";
  in.language = std::string(known_language(language));
  for (const MeasuredComponent& c : m.components) {
    const double v = duration_of(m.durations, c.component);
    std::string worked = std::to_string(c.kernels) + std::string(c.kernels == 1 ? words.kernel : words.kernels) +
                         std::string(words.busy) + short_number(c.busy_us) + " us";
    if (c.component.part == Part::pp) worked += std::string(words.pp_shared) + short_number(v) + " us";
    in.derivation.push_back({c.component, std::string(words.formula), worked, v, v});
  }
  return in;
}

auto measured_costs(const MeasuredChunk& m, const Overlap& model) -> Costs {
  Costs c = overlap_costs(model);
  c.fb = std::clamp(m.span_us, std::max(c.f, c.b), c.f + c.b);
  return c;
}

auto measured_chunk_json(const MeasuredChunk& m, const Overlap& model) -> JsonDocument {
  return detail::document(detail::measured_chunk_tree(m, model));
}

auto detail::measured_chunk_tree(const MeasuredChunk& m, const Overlap& model) -> json {
  json components = json::array();
  for (const MeasuredComponent& c : m.components)
    components.push_back({{"chunk", c.component.pass == Pass::forward ? "F" : "B"},
                          {"component", std::string(part_name(c.component.part))},
                          {"label", figure_label(c.component)},
                          {"lane", lane_key(lane_of(c.component.part))},
                          {"kernels", c.kernels},
                          {"busy_us", number(c.busy_us)}});
  json streams = json::array();
  for (const MeasuredStream& s : m.streams)
    streams.push_back({{"stream", s.stream}, {"lane", lane_key(s.lane)}, {"kernels", s.kernels}, {"busy_us", number(s.busy_us)}});
  json timeline = json::array();
  for (const MeasuredSegment& s : m.timeline) {
    json item{{"lane", lane_key(s.lane)}, {"start", number(s.start)}, {"end", number(s.end)}};
    if (s.component) {
      item["chunk"] = s.component->pass == Pass::forward ? "F" : "B";
      item["component"] = std::string(part_name(s.component->part));
      item["label"] = figure_label(*s.component);
    } else {
      item["chunk"] = nullptr;
      item["component"] = nullptr;
      item["label"] = "?";
    }
    timeline.push_back(std::move(item));
  }
  const Costs costs = measured_costs(m, model);
  return {{"source", "trace"},
          {"rank", m.rank ? json(*m.rank) : json(nullptr)},
          {"world_size", m.world_size ? json(*m.world_size) : json(nullptr)},
          {"device", m.device},
          {"kernels", m.kernels},
          {"other_device_kernels", m.other_device_kernels},
          {"span_us", number(m.span_us)},
          {"compute_busy_us", number(m.compute_busy_us)},
          {"communication_busy_us", number(m.communication_busy_us)},
          {"hidden_comm_us", number(m.hidden_comm_us)},
          {"exposed_comm_us", number(m.exposed_comm_us)},
          {"hidden_fraction", number(m.communication_busy_us > 0 ? m.hidden_comm_us / m.communication_busy_us : 1.0)},
          {"components", std::move(components)},
          {"unattributed", {{"kernels", m.unattributed_kernels},
                            {"compute_us", number(m.unattributed_compute_us)},
                            {"comm_us", number(m.unattributed_comm_us)}}},
          {"attributed_by", {{"launch", m.attributed_by[0]}, {"other_thread", m.attributed_by[1]},
                             {"stream_order", m.attributed_by[2]}, {"none", m.attributed_by[3]}}},
          {"off_lane_kernels", m.off_lane_kernels},
          {"streams", std::move(streams)},
          {"timeline", std::move(timeline)},
          {"model_fb_us", number(model.fb)},
          {"model_over_measured", number(m.span_us > 0 ? model.fb / m.span_us : 0.0)},
          {"costs", {{"F", number(costs.f)}, {"B", number(costs.b)}, {"W", number(costs.w)}, {"FB", number(costs.fb)},
                     {"comm", number(costs.comm)}}}};
}

auto run_measured_overlap(std::string_view trace_text, std::string_view language) -> MeasuredOverlap {
  std::string words;
  try {
    words = std::string(known_language(language));
  } catch (const Error& e) {
    throw e.about("language");  // before the trace is read: a bad language costs no parse
  }
  MeasuredChunk measured = measure_chunk_pair(read_profile_trace(trace_text));
  Overlap model = run_overlap(overlap_input_from(measured, words));
  return {std::move(measured), std::move(model)};
}

auto measured_overlap_json(const MeasuredOverlap& m) -> JsonDocument {
  json out = detail::overlap_tree(m.model);
  out["measured"].update(detail::measured_chunk_tree(m.measured, m.model));
  return detail::document(std::move(out));
}

namespace {

constexpr int text_columns = 96;

/// One lane of the measured pair: forward components in capitals, backward in lower case, '?' for
/// kernels no component claims.
auto measured_row(const MeasuredChunk& m, Lane lane, double per_column) -> std::string {
  std::string row(text_columns, '.');
  for (const MeasuredSegment& s : m.timeline) {
    if (s.lane != lane) continue;
    const int a = std::min(text_columns - 1, static_cast<int>(std::lround(s.start / per_column)));
    const int b = std::clamp(static_cast<int>(std::lround(s.end / per_column)), a + 1, text_columns);
    char mark = '?';
    if (s.component) {
      mark = figure_label(*s.component)[0];
      if (s.component->pass == Pass::backward) mark = static_cast<char>(std::tolower(static_cast<unsigned char>(mark)));
    }
    for (int x = a; x < b; ++x) row[static_cast<std::size_t>(x)] = mark;
  }
  return row;
}

}  // namespace

/// The measured pair's text view in each language ({name}: a value the view fills in).
struct MeasuredViewWords {
  std::string_view heading;       ///< the pair's lanes: {rank}, {device}, {kernels}, {column}, {span}
  std::string_view busy;          ///< {compute}, {communication}, {hidden}, {exposed} (with their unit)
  std::string_view unattributed;  ///< {kernels} kernels no component claims, {compute} and {communication} of their time
  std::string_view one_kernel;    ///< the same for a single kernel
  std::string_view predicted;     ///< the model's {fb} against the measured {span}
  std::string_view costs;         ///< {costs} a pipeline takes from the measurement
};

constexpr Translated<MeasuredViewWords> measured_view_words{
    .en = {.heading = "measured pair (rank {rank}, device {device}, {kernels} kernels; 1 column = {column}; capitals forward, lower case backward, ? unattributed): span {span}",
           .busy = "compute busy {compute}, communication busy {communication}, hidden {hidden}, exposed {exposed}",
           .unattributed = "unattributed: {kernels} kernels ({compute} compute, {communication} communication)",
           .one_kernel = "unattributed: {kernels} kernel ({compute} compute, {communication} communication)",
           .predicted = "the model predicts fb = {fb} for these components; measured span {span}",
           .costs = "measured costs for a pipeline: {costs} (the measured span), comm=0"},
    .pt_br = {.heading = "par medido (rank {rank}, dispositivo {device}, {kernels} kernels; 1 coluna = {column}; maiúsculas forward, minúsculas backward, ? sem componente): duração {span}",
              .busy = "computação ocupada {compute}, comunicação ocupada {communication}, escondida {hidden}, exposta {exposed}",
              .unattributed = "sem componente: {kernels} kernels ({compute} de computação, {communication} de comunicação)",
              .one_kernel = "sem componente: {kernels} kernel ({compute} de computação, {communication} de comunicação)",
              .predicted = "o modelo prevê fb = {fb} para estes componentes; duração medida {span}",
              .costs = "custos medidos para um pipeline: {costs} (a duração medida), comm=0"},
    .zh_cn = {.heading = "实测的一对（rank {rank}，设备 {device}，{kernels} 个 kernel；1 列 = {column}；大写为前向，小写为反向，? 为未归属）：跨度 {span}",
              .busy = "计算忙碌 {compute}，通信忙碌 {communication}，隐藏 {hidden}，暴露 {exposed}",
              .unattributed = "未归属：{kernels} 个 kernel（计算 {compute}，通信 {communication}）",
              .one_kernel = "未归属：{kernels} 个 kernel（计算 {compute}，通信 {communication}）",
              .predicted = "模型预测这些组件的 fb = {fb}；实测跨度 {span}",
              .costs = "供流水线使用的实测成本：{costs}（实测跨度），comm=0"},
};

auto render_measured_chunk_text(const MeasuredChunk& m, const Overlap& model) -> std::string {
  const double scale = std::max({model.fb, m.span_us, 1e-9});
  const double per_column = scale / text_columns;
  const std::string_view language = model.input.language;
  const MeasuredViewWords& words = measured_view_words.in(language);
  const auto us = [](double v) { return short_number(v) + " us"; };
  std::ostringstream os;
  os << "\n"
     << detail::fill(words.heading, {{"rank", m.rank ? std::to_string(*m.rank) : std::string("?")}, {"device", std::to_string(m.device)},
                                     {"kernels", std::to_string(m.kernels)}, {"column", short_number(per_column, 4) + " us"},
                                     {"span", us(m.span_us)}})
     << "\n";
  os << detail::lane_heading(Lane::compute, language) << "|" << measured_row(m, Lane::compute, per_column) << "|\n";
  os << detail::lane_heading(Lane::comm, language) << "|" << measured_row(m, Lane::comm, per_column) << "|\n";
  os << detail::fill(words.busy, {{"compute", us(m.compute_busy_us)}, {"communication", us(m.communication_busy_us)},
                                  {"hidden", us(m.hidden_comm_us)}, {"exposed", us(m.exposed_comm_us)}})
     << "\n";
  os << detail::fill(m.unattributed_kernels == 1 ? words.one_kernel : words.unattributed,
                     {{"kernels", std::to_string(m.unattributed_kernels)}, {"compute", us(m.unattributed_compute_us)},
                      {"communication", us(m.unattributed_comm_us)}})
     << "\n";
  os << detail::fill(words.predicted, {{"fb", us(model.fb)}, {"span", us(m.span_us)}}) << "\n";
  const Costs c = measured_costs(m, model);
  os << detail::fill(words.costs, {{"costs", "F=" + short_number(c.f) + ", B=" + short_number(c.b) + ", W=" + short_number(c.w) +
                                                 ", FB=" + short_number(c.fb)}})
     << "\n";
  return os.str();
}

}  // namespace pipesim
