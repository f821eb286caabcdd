// The timeline as a standalone SVG, drawn like the page's canvas (web/src/timeline/timeline_view.ts).
// Presentation attributes only: no <style>, no script, no external font or image, so the file renders
// under a strict Content-Security-Policy and in slide software.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "detail/export_names.h"
#include "detail/short_number.h"
#include "pipesim/export.h"

namespace pipesim {

namespace {

constexpr double margin = 12;
constexpr double gutter = 70;       // left of the plot: rank labels
constexpr double top = 68;          // title, cost line and axis labels above the first row
constexpr double row_height = 22;
constexpr double min_plot = 600;
constexpr double max_plot = 1600;
constexpr double px_per_unit = 24;  // F = 1 is 24 px wide: room for a two-digit micro-batch
constexpr double tick_spacing = 70;
constexpr const char* font = "DejaVu Sans Mono, Menlo, Consolas, monospace";
constexpr const char* ink = "#1a1a1a";
constexpr const char* ink_soft = "#555555";
constexpr const char* grid = "#e6e6e0";
constexpr const char* border = "#111111";

/// DeepSeek's colours: [dark, light]; light marks direction 1, the way back of a V, an odd chunk.
struct Shades {
  const char* fill[2];
  const char* text[2];  ///< the page's textFor(): white on dark fills
};
constexpr Shades forward{{"#f28e2b", "#fcc68e"}, {ink, ink}};
constexpr Shades backward{{"#4f9a45", "#a8d59d"}, {"#ffffff", ink}};
constexpr Shades weight{{"#4e79a7", "#a9c7e8"}, {"#ffffff", ink}};

auto shades(OpKind kind) -> const Shades& {
  if (kind == OpKind::F) return forward;
  if (kind == OpKind::W) return weight;
  return backward;  // B, I; an FB is drawn as its two halves
}

/// XML text and attribute values: the five entities, and no control characters XML 1.0 forbids.
auto escape(const std::string& text) -> std::string {
  std::string out;
  for (const char ch : text) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (static_cast<unsigned char>(ch) >= 0x20 || ch == '\t' || ch == '\n') out += ch;
    }
  }
  return out;
}

/// Pixels with at most two decimals: "12.5", "3".
auto px(double v) -> std::string {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s(buf);
  s.erase(s.find_last_not_of('0') + 1);
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

auto rect(double x, double y, double w, double h, const std::string& fill, const std::string& extra = "") -> std::string {
  return "<rect x=\"" + px(x) + "\" y=\"" + px(y) + "\" width=\"" + px(w) + "\" height=\"" + px(h) + "\" fill=\"" +
         fill + "\"" + extra;
}

auto text(double x, double y, const std::string& content, const std::string& attributes) -> std::string {
  return "<text x=\"" + px(x) + "\" y=\"" + px(y) + "\" " + attributes + ">" + escape(content) + "</text>\n";
}

/// 1, 2 or 5 times a power of ten: the axis step that gives ticks about `tick_spacing` px apart.
auto nice_step(double span, double ticks) -> double {
  const double raw = span / std::max(1.0, ticks);
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0})
    if (m * power >= raw) return m * power;
  return 10 * power;
}

auto percent(double fraction) -> std::string {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f%%", fraction * 100);
  return buf;
}

/// The geometry every part of the drawing shares.
struct Frame {
  double makespan = 1;  ///< time drawn, at least 1 so an empty run still has an axis
  double scale = 1;     ///< px per time unit
  double plot = 0;      ///< plot width in px
  int ranks = 0;
  [[nodiscard]] auto x(double t) const -> double { return margin + gutter + t * scale; }
  [[nodiscard]] auto row_y(int rank) const -> double { return top + rank * row_height; }
  [[nodiscard]] auto rows_bottom() const -> double { return row_y(ranks); }
};

auto make_frame(const Run& run) -> Frame {
  Frame f;
  f.ranks = run.schedule.ranks();
  f.makespan = run.metrics.makespan > 0 ? run.metrics.makespan : 1;
  f.plot = std::clamp(f.makespan * px_per_unit, min_plot, max_plot);
  f.scale = f.plot / f.makespan;
  return f;
}

auto title_lines(const Run& run) -> std::string {
  const Schedule& s = run.schedule;
  const std::string title = std::string(run.spec->texts.en.title) + ": " + std::to_string(s.ranks()) + " ranks, " +
                            std::to_string(s.params.micro_batches) + " micro-batches, makespan " +
                            detail::short_number(run.metrics.makespan) + ", bubble " +
                            percent(run.metrics.bubble_fraction);
  std::string out = text(margin, margin + 14, title, "font-size=\"14\" font-weight=\"bold\" fill=\"" + std::string(ink) + "\"");
  out += text(margin, margin + 32, "costs " + format_costs(run.costs) + " (time in cost units)",
              "font-size=\"11\" fill=\"" + std::string(ink_soft) + "\"");
  return out;
}

auto axis(const Frame& f) -> std::string {
  std::string out;
  const double step = nice_step(f.makespan, f.plot / tick_spacing);
  // A zero or infinite step would never end the loop; costs are validated, this stays a safeguard.
  if (!(std::isfinite(step) && step > 0)) return out;
  const double y0 = top - 6;
  for (double t = 0; t <= f.makespan + step * 1e-9; t += step) {
    const double x = f.x(t);
    out += "<line x1=\"" + px(x) + "\" y1=\"" + px(y0) + "\" x2=\"" + px(x) + "\" y2=\"" + px(f.rows_bottom()) +
           "\" stroke=\"" + grid + "\" stroke-width=\"1\"/>\n";
    out += text(x, y0 - 4, detail::short_number(t), "font-size=\"10\" text-anchor=\"middle\" fill=\"" + std::string(ink_soft) + "\"");
  }
  return out;
}

auto rows(const Frame& f) -> std::string {
  std::string out;
  for (int r = 0; r < f.ranks; ++r) {
    const double y = f.row_y(r);
    out += rect(f.x(0), y + 1, f.plot, row_height - 2, "#ffffff", " stroke=\"" + std::string(grid) + "\"/>\n");
    out += text(margin + gutter - 6, y + row_height / 2 + 4, "rank " + std::to_string(r),
                "font-size=\"11\" text-anchor=\"end\" fill=\"" + std::string(ink_soft) + "\"");
  }
  return out;
}

/// The micro-batch number centred in a cell, when it fits (about 7 px per digit at 11 px).
auto cell_label(int mb, double x, double w, double y, const char* colour) -> std::string {
  const std::string digits = std::to_string(mb);
  if (w < 7.0 * static_cast<double>(digits.size()) + 3) return "";
  return text(x + w / 2, y + row_height / 2 + 4, digits,
              "font-size=\"11\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"" + std::string(colour) + "\"");
}

auto op_cell(const Run& run, const Frame& f, int rank, std::size_t i, const std::string& word) -> std::string {
  const Op& op = run.schedule.ops[i];
  const double start = run.timeline.start[i];
  const double end = run.timeline.end[i];
  const double x = f.x(start);
  const double span = (end - start) * f.scale;
  const double w = std::max(1.0, span - (span > 4 ? 1 : 0));  // a hairline gap between neighbours
  const double y = f.row_y(rank) + 1;
  const double h = row_height - 2;
  const std::string tip = "<title>" + escape("rank " + std::to_string(rank) + ": " + detail::op_name(op, word) + ", " +
                                             detail::short_number(start) + " to " + detail::short_number(end)) +
                          "</title></rect>\n";
  const auto shade = [](const Chunk& c) { return c.phase % 2 == 1 ? 1 : 0; };
  if (op.kind != OpKind::FB) {
    const Shades& sh = shades(op.kind);
    const int k = shade(op.chunk);
    return rect(x, y, w, h, sh.fill[k], ">") + tip + cell_label(op.chunk.mb, x, w, y - 1, sh.text[k]);
  }
  const double fb = run.costs.f + run.costs.b;
  const double fw = w * (fb > 0 ? run.costs.f / fb : 0.5);
  const int kf = shade(op.chunk);
  const int kb = shade(op.backward);
  std::string out = rect(x, y, fw, h, forward.fill[kf], "/>\n");
  out += rect(x + fw, y, w - fw, h, backward.fill[kb], "/>\n");
  out += rect(x + 0.75, y + 0.75, std::max(0.0, w - 1.5), h - 1.5, "none",
              " stroke=\"" + std::string(border) + "\" stroke-width=\"1.5\">") + tip;
  out += cell_label(op.chunk.mb, x, fw, y - 1, forward.text[kf]);
  out += cell_label(op.backward.mb, x + fw, w - fw, y - 1, backward.text[kb]);
  return out;
}

/// Every op's cell, handed to `buffer` as they come: the one part of the drawing that grows with the run.
void cells(const Run& run, const Frame& f, detail::SinkBuffer& buffer) {
  const Schedule& s = run.schedule;
  const std::string word = detail::phase_word(s);
  for (int r = 0; r < s.ranks(); ++r)
    for (int i = s.rank_begin[r]; i < s.rank_begin[r + 1]; ++i) {
      buffer.text() += op_cell(run, f, r, static_cast<std::size_t>(i), word);
      buffer.flush_if_full();
    }
}

struct LegendItem {
  std::string fill;
  std::string label;
  bool bordered = false;
};

auto legend_items(const Run& run) -> std::vector<LegendItem> {
  const Schedule& s = run.schedule;
  const auto any = [&](auto predicate) { return std::any_of(s.ops.begin(), s.ops.end(), predicate); };
  std::vector<LegendItem> items{{forward.fill[0], "F forward"}, {backward.fill[0], "B backward (I: input only)"}};
  if (any([](const Op& op) { return op.kind == OpKind::W; })) items.push_back({weight.fill[0], "W weight gradient"});
  if (any([](const Op& op) { return op.kind == OpKind::FB; })) items.push_back({forward.fill[0], "F&B overlapped pair", true});
  if (any([](const Op& op) { return op.chunk.phase % 2 == 1 || (op.kind == OpKind::FB && op.backward.phase % 2 == 1); })) {
    const std::string word = detail::phase_word(s);
    const std::string meaning = word == "dir" ? "direction 1 (enters at the last rank)"
                                : word == "leg" ? "the way back of the V"
                                                : "odd virtual chunks";
    items.push_back({forward.fill[1], "light: " + meaning});
  }
  items.push_back({"#ffffff", "idle"});
  return items;
}

/// Swatches with labels, left to right, wrapping at the plot's right edge. Returns the drawing and
/// sets `bottom` to the last line's lower edge.
auto legend(const Run& run, const Frame& f, double& bottom) -> std::string {
  std::string out;
  const double right = f.x(f.makespan);
  double x = margin + gutter;
  double y = f.rows_bottom() + 14;
  for (const LegendItem& item : legend_items(run)) {
    const double width = 18 + 6.6 * static_cast<double>(item.label.size()) + 16;
    if (x + width > right && x > margin + gutter) {
      x = margin + gutter;
      y += 18;
    }
    if (item.bordered) {  // the pair: forward and backward halves in one bordered cell
      out += rect(x, y, 6, 12, forward.fill[0], "/>\n") + rect(x + 6, y, 6, 12, backward.fill[0], "/>\n");
      out += rect(x + 0.75, y + 0.75, 10.5, 10.5, "none", " stroke=\"" + std::string(border) + "\" stroke-width=\"1.5\"/>\n");
    } else {
      out += rect(x, y, 12, 12, item.fill, " stroke=\"" + std::string(ink_soft) + "\" stroke-width=\"0.5\"/>\n");
    }
    out += text(x + 18, y + 10, item.label, "font-size=\"11\" fill=\"" + std::string(ink) + "\"");
    x += width;
  }
  bottom = y + 12;
  return out;
}

}  // namespace

void write_svg(const Run& run, TextSink& sink) {
  const Frame f = make_frame(run);
  double legend_bottom = 0;
  const std::string drawn_legend = legend(run, f, legend_bottom);
  const double width = f.x(f.makespan) + 2 * margin;
  const double height = legend_bottom + margin;
  detail::SinkBuffer buffer(sink);
  buffer.expect_records(run.schedule.ops.size() + 1);  // the frame, then one cell per op
  std::string& out = buffer.text();
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + px(width) + "\" height=\"" + px(height) +
         "\" viewBox=\"0 0 " + px(width) + " " + px(height) + "\" font-family=\"" + font + "\">\n";
  out += "<title>" + escape(std::string(run.spec->texts.en.title) + " timeline, written by pipesim") + "</title>\n";
  out += rect(0, 0, width, height, "#ffffff", "/>\n");
  out += title_lines(run);
  out += axis(f);
  out += rows(f);
  buffer.flush_if_full();
  cells(run, f, buffer);
  out += drawn_legend;
  out += "</svg>\n";
  buffer.flush();
}

auto to_svg(const Run& run) -> std::string {
  StringSink out;
  write_svg(run, out);
  return out.take();
}

}  // namespace pipesim
