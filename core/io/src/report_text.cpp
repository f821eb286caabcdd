// The terminal view: one row per rank, one column pair per time unit, like DeepSeek's Fig. 5.
#include <algorithm>
#include <array>
#include <cmath>
#include <cctype>
#include <numeric>
#include <sstream>

#include "detail/short_number.h"
#include "pipesim/presets.h"
#include "pipesim/registry.h"
#include "pipesim/report.h"

namespace pipesim {

namespace {

constexpr int max_line_width = 120;

// The largest time step that divides every duration, so cells line up exactly; 0 if none is found
// with a denominator up to 1000 (then the view is drawn to scale instead).
auto exact_quantum(const Run& run) -> double {
  // The durations ops actually took (per-stage costs and rank speeds make more than one per kind) and
  // the send latencies: a handful of values, or too many to line up (then drawn to scale).
  constexpr std::size_t most_values = 64;
  std::vector<double> values;
  const auto add = [&](double v) {
    if (std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
  };
  for (const Costs& c : run.stage_costs.stages) add(c.comm);
  for (std::size_t i = 0; i < run.timeline.end.size() && values.size() <= most_values; ++i)
    add(run.timeline.end[i] - run.timeline.start[i]);
  if (values.size() > most_values) return 0;
  for (long long denominator = 1; denominator <= 1000; ++denominator) {
    long long g = 0;
    bool integral = true;
    for (double v : values) {
      const double scaled = v * static_cast<double>(denominator);
      // Past 2^53 a double holds no fraction to test, and llround could overflow.
      if (scaled > 9.0e15 || std::fabs(scaled - std::round(scaled)) > 1e-9 * std::max(1.0, scaled)) {
        integral = false;
        break;
      }
      g = std::gcd(g, std::llround(scaled));
    }
    if (integral && g > 0) return static_cast<double>(g) / static_cast<double>(denominator);
  }
  return 0;
}

// The stages and ranks that differ from `costs`: what the per-stage options changed.
void write_stage_costs(std::ostream& os, const Run& run) {
  const Costs& base = run.costs;
  const auto& stages = run.stage_costs.stages;
  for (std::size_t s = 0; s < stages.size(); ++s)
    if (format_costs(stages[s]) != format_costs(base)) os << "stage " << s << " costs " << format_costs(stages[s]) << "\n";
  const auto& speed = run.stage_costs.rank_speed;
  for (std::size_t r = 0; r < speed.size(); ++r)
    if (speed[r] != 1) os << "rank " << r << " runs at " << format_number(speed[r]) << "x speed\n";
}

auto label(char kind, const Chunk& c) -> std::string {
  const char letter = c.phase % 2 == 1 ? static_cast<char>(std::tolower(static_cast<unsigned char>(kind))) : kind;
  return std::string(1, letter) + std::to_string(c.mb);
}

auto cell_text(const Op& op, int width) -> std::string {
  std::string text = op.kind == OpKind::FB ? "[" + label('F', op.chunk) + label('B', op.backward) + "]"
                                           : label(kind_name(op.kind)[0], op.chunk);
  if (static_cast<int>(text.size()) > width) text = op.kind == OpKind::FB ? std::string("[]").substr(0, static_cast<std::size_t>(width)) : text.substr(0, static_cast<std::size_t>(width));
  if (op.kind == OpKind::FB && width >= 2 && static_cast<int>(text.size()) < width) text.insert(text.size() - 1, static_cast<std::size_t>(width) - text.size(), ' ');
  text.resize(static_cast<std::size_t>(width), op.kind == OpKind::FB ? ' ' : '-');
  return text;
}

// ANSI 256-colour backgrounds: direction 0 dark, direction 1 light, as DeepSeek's figures shade them.
auto colour(OpKind kind, int phase) -> int {
  const bool light = phase % 2 == 1;
  switch (kind) {
    case OpKind::F: return light ? 222 : 214;
    case OpKind::B:
    case OpKind::I: return light ? 151 : 71;
    case OpKind::W: return light ? 153 : 75;
    case OpKind::FB: return light ? 186 : 143;
  }
  return 0;
}

struct Row {
  std::string text;
  std::vector<int> colour;  // per column, 0 = none
};

auto draw_rows(const Run& run, double quantum, int unit_width, int columns) -> std::vector<Row> {
  std::vector<Row> rows;
  const Schedule& s = run.schedule;
  for (int r = 0; r < s.ranks(); ++r) {
    Row row{std::string(static_cast<std::size_t>(columns), '.'), std::vector<int>(static_cast<std::size_t>(columns), 0)};
    for (int i = s.rank_begin[r]; i < s.rank_begin[r + 1]; ++i) {
      const auto ui = static_cast<std::size_t>(i);
      const Op& op = s.ops[ui];
      const int a = static_cast<int>(std::lround(run.timeline.start[ui] / quantum)) * unit_width;
      const int b = std::min(columns, static_cast<int>(std::lround(run.timeline.end[ui] / quantum)) * unit_width);
      if (b <= a) continue;
      const std::string text = cell_text(op, b - a);
      for (int col = a; col < b; ++col) {
        row.text[static_cast<std::size_t>(col)] = text[static_cast<std::size_t>(col - a)];
        row.colour[static_cast<std::size_t>(col)] = colour(op.kind, op.chunk.phase);
      }
      if (op.kind == OpKind::FB) {  // the backward share of the pair in the backward's colour
        const int split = a + static_cast<int>(std::lround((b - a) * run.costs.f / (run.costs.f + run.costs.b)));
        for (int col = split; col < b; ++col) row.colour[static_cast<std::size_t>(col)] = colour(OpKind::B, op.backward.phase);
        for (int col = a; col < split; ++col) row.colour[static_cast<std::size_t>(col)] = colour(OpKind::F, op.chunk.phase);
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

auto paint(const Row& row, int from, int to, bool colour_on) -> std::string {
  if (!colour_on) return row.text.substr(static_cast<std::size_t>(from), static_cast<std::size_t>(to - from));
  std::string out;
  int current = -1;
  for (int col = from; col < to; ++col) {
    const int c = row.colour[static_cast<std::size_t>(col)];
    if (c != current) {
      out += c == 0 ? "\x1b[0m" : "\x1b[30;48;5;" + std::to_string(c) + "m";
      current = c;
    }
    out += row.text[static_cast<std::size_t>(col)];
  }
  return out + "\x1b[0m";
}

auto pad(std::string s, std::size_t width) -> std::string {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

auto percent(double fraction) -> std::string {
  std::ostringstream os;
  os.setf(std::ios::fixed);
  os.precision(2);
  os << fraction * 100 << "%";
  return os.str();
}

void write_timeline(std::ostringstream& os, const Run& run, bool colour_on) {
  const double exact = exact_quantum(run);
  int max_mb = 0;
  for (const Op& op : run.schedule.ops) max_mb = std::max({max_mb, op.chunk.mb, op.backward.mb});
  const int unit_width = 1 + static_cast<int>(std::to_string(max_mb).size());
  const double makespan = run.metrics.makespan;
  // To scale when no exact step exists or the exact one would need thousands of columns.
  const double quantum = exact > 0 && makespan / exact <= 2000 ? exact : makespan / 200;
  if (quantum <= 0) return;
  const int units = static_cast<int>(std::lround(makespan / quantum));
  const int columns = units * unit_width;
  const std::string prefix_blank(8, ' ');
  os << "one column " << (unit_width == 2 ? "pair" : "group") << " = " << format_number(quantum) << " time unit"
     << (quantum == 1 ? "" : "s") << (exact > 0 && quantum == exact ? "" : " (drawn to scale, rounded)") << "\n";
  const auto rows = draw_rows(run, quantum, unit_width, columns);
  const int units_per_block = std::max(10, ((max_line_width - 8) / unit_width) / 10 * 10);
  for (int first = 0; first < units; first += units_per_block) {
    const int last = std::min(units, first + units_per_block);
    std::string ruler(static_cast<std::size_t>((last - first) * unit_width), ' ');
    for (int u = first; u < last; u += 10) {
      const std::string mark = format_number(u * quantum);
      ruler.replace(static_cast<std::size_t>((u - first) * unit_width), std::min(mark.size(), ruler.size() - static_cast<std::size_t>((u - first) * unit_width)), mark);
    }
    os << "\n" << prefix_blank << ruler << "\n";
    for (std::size_t r = 0; r < rows.size(); ++r)
      os << pad("rank " + std::to_string(r), 7) << "|" << paint(rows[r], first * unit_width, last * unit_width, colour_on) << "\n";
  }
  os << "\nF forward  B full backward  I backward for input  W weight gradient  [F5b2] overlapped F&B  . idle";
  if (run.schedule.layout.directions == 2) os << "\nlower case = direction 1 (enters at the last rank); upper case = direction 0";
  else if (std::any_of(run.schedule.ops.begin(), run.schedule.ops.end(), [](const Op& op) { return op.chunk.phase != 0; }))
    os << "\nlower case = odd phase (the way back of a V, or an odd virtual chunk)";
  os << "\n";
}

}  // namespace

auto render_text(const Run& run, bool colour_on) -> std::string {
  const Schedule& s = run.schedule;
  const Metrics& m = run.metrics;
  std::ostringstream os;
  os << run.spec->texts.en.title << ": " << s.ranks() << " ranks, " << s.params.micro_batches << " micro-batches";
  if (s.layout.directions == 2) os << " (" << s.micro_batches_per_path() << " per direction)";
  os << ", " << s.layout.stages << " stages" << (s.layout.directions == 2 ? " per direction" : "");
  if (s.params.virtual_stages > 1) os << " (" << s.params.virtual_stages << " per rank)";
  os << "\ncosts " << format_costs(run.costs) << "\n";
  write_stage_costs(os, run);
  write_timeline(os, run, colour_on);
  // Columns as wide as their longest entry; times rounded to 6 significant digits for reading.
  const auto short_num = [](double v) { return detail::short_number(v); };
  std::size_t busy_w = 6, bubble_w = 8;
  for (const RankMetrics& rm : m.per_rank) {
    busy_w = std::max(busy_w, short_num(rm.busy).size() + 2);
    bubble_w = std::max(bubble_w, short_num(rm.bubble).size() + 2);
  }
  os << "\n" << pad("rank", 6) << pad("busy", busy_w) << pad("bubble", bubble_w) << pad("peak act.", 11) << "stages held\n";
  for (int r = 0; r < s.ranks(); ++r) {
    const RankMetrics& rm = m.per_rank[static_cast<std::size_t>(r)];
    os << pad(std::to_string(r), 6) << pad(short_num(rm.busy), busy_w) << pad(short_num(rm.bubble), bubble_w)
       << pad(std::to_string(rm.peak_activations), 11) << rm.stages_held << "\n";
  }
  os << "\nmakespan " << short_num(m.makespan) << "   bubble fraction " << percent(m.bubble_fraction)
     << "   largest rank bubble " << short_num(m.max_bubble) << "   peak activations " << m.peak_activations << "\n";
  os << "span " << short_num(m.span) << "   span bubble fraction " << percent(m.span_bubble_fraction)
     << "   (span = a rank's first op start to last op end, as Sea AI Lab reports)\n";
  const Formula& f = run.formula;
  os << "formula " << f.text << " = " << short_num(f.value) << " vs simulated "
     << short_num(f.over_span ? m.max_span_bubble : m.max_bubble) << " ("
     << (f.exact ? "the closed form holds here" : "closed form not exact here: trust the simulation") << "; "
     << f.condition.en << ")\n";
  return os.str();
}

auto render_schedule_list(std::string_view language) -> std::string {
  const Translated<std::string_view> rules{.en = "rules", .pt_br = "regras", .zh_cn = "规则"};
  const Translated<std::string_view> source{.en = "source", .pt_br = "fonte", .zh_cn = "来源"};
  // Chinese text takes a full-width colon.
  const std::string_view colon = Translated<std::string_view>{.en = ": ", .pt_br = ": ", .zh_cn = "："}.in(language);
  std::ostringstream os;
  for (const ScheduleSpec* s : schedules()) {
    const ScheduleTexts& t = s->texts.in(language);
    os << pad(std::string(s->name), 18) << t.title << colon << t.summary << "\n"
       << pad("", 18) << rules.in(language) << colon << t.constraints << "\n"
       << pad("", 18) << source.in(language) << colon << s->source << "\n";
  }
  return os.str();
}

auto render_schedule_table(std::string_view language) -> std::string {
  const Translated<std::string_view> heading{.en = "| name | what | rules | source |",
                                             .pt_br = "| nome | o que é | regras | fonte |",
                                             .zh_cn = "| 名称 | 是什么 | 规则 | 来源 |"};
  const std::string_view colon = Translated<std::string_view>{.en = ": ", .pt_br = ": ", .zh_cn = "："}.in(language);
  // A cell's text may not end the cell early.
  const auto cell = [](std::string_view text) {
    std::string out;
    for (const char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
  };
  std::ostringstream os;
  os << heading.in(language) << "\n|---|---|---|---|\n";
  for (const ScheduleSpec* s : schedules()) {
    const ScheduleTexts& t = s->texts.in(language);
    os << "| `" << s->name << "` | " << cell(t.title) << colon << cell(t.summary) << " | " << cell(t.constraints) << " | "
       << cell(s->source) << " |\n";
  }
  return os.str();
}

auto render_preset_list(std::string_view language) -> std::string {
  std::ostringstream os;
  for (const Preset& p : presets()) {
    os << pad(std::string(p.id), 12) << p.name.in(language) << "\n"
       << pad("", 12) << "pipesim simulate --schedule " << p.schedule << " --ranks " << p.ranks << " --micro-batches "
       << p.micro_batches;
    if (p.virtual_stages != 1) os << " --virtual-stages " << p.virtual_stages;
    os << " --cost " << p.cost << "\n";
  }
  return os.str();
}

}  // namespace pipesim
