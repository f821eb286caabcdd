#include "harness.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <time.h>

namespace pipesim::bench {

volatile std::size_t sink = 0;

auto thread_cpu_seconds() -> double {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

auto median_and_min(std::vector<double> seconds) -> Timing {
  Timing t;
  if (seconds.empty()) return t;
  std::sort(seconds.begin(), seconds.end());
  const std::size_t n = seconds.size();
  t.median_s = n % 2 == 1 ? seconds[n / 2] : (seconds[n / 2 - 1] + seconds[n / 2]) / 2;
  t.min_s = seconds.front();
  t.samples = static_cast<int>(n);
  return t;
}

auto ns_per_op(const TimedRow& row, bool fastest) -> double {
  if (row.ops <= 0) return NAN;
  return (fastest ? row.timing.min_s : row.timing.median_s) * 1e9 / static_cast<double>(row.ops);
}

namespace {

auto format(const char* pattern, double value) -> std::string {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

// A duration in the unit that keeps three significant digits readable.
auto duration_text(double seconds) -> std::string {
  if (seconds < 1e-3) return format("%.2f us", seconds * 1e6);
  if (seconds < 1) return format("%.3f ms", seconds * 1e3);
  return format("%.3f s", seconds);
}

auto pad(std::string text, std::size_t width, bool right) -> std::string {
  if (text.size() >= width) return text;
  const std::string fill(width - text.size(), ' ');
  return right ? fill + text : text + fill;
}

auto timed_line(const TimedRow& r) -> std::string {
  const double ns = ns_per_op(r);
  const std::string ops = r.ops > 0 ? std::to_string(r.ops) : "";
  const std::string per_op = r.ops > 0 ? format("%.1f", ns) : "";
  const std::string rate = r.ops > 0 ? format("%.2f", 1e3 / ns) : "";
  return "  " + pad(r.label, 44, false) + pad(ops, 9, true) + pad(duration_text(r.timing.median_s), 13, true) +
         pad(duration_text(r.timing.min_s), 13, true) + pad(per_op, 9, true) + pad(rate, 9, true) + "\n";
}

auto value_line(const ValueRow& r) -> std::string {
  return "  " + pad(r.label, 44, false) + pad(format("%.3f", r.value), 22, true) + " " + r.unit + "\n";
}

}  // namespace

void Report::note_section(const std::string& section) {
  if (std::find(sections_.begin(), sections_.end(), section) == sections_.end()) sections_.push_back(section);
}

void Report::add(TimedRow row) {
  note_section(row.section);
  timed_.push_back(std::move(row));
}

void Report::add(ValueRow row) {
  note_section(row.section);
  values_.push_back(std::move(row));
}

auto Report::find_timed(const std::string& id) const -> const TimedRow* {
  for (const auto& r : timed_)
    if (r.id == id) return &r;
  return nullptr;
}

auto Report::metric(const std::string& name) const -> double {
  for (const auto& v : values_)
    if (v.id == name) return v.value;
  const auto dot = name.rfind('.');
  if (dot == std::string::npos) return NAN;
  const TimedRow* r = find_timed(name.substr(0, dot));
  if (r == nullptr) return NAN;
  const std::string field = name.substr(dot + 1);
  if (field == "median_ms") return r->timing.median_s * 1e3;
  if (field == "min_ms") return r->timing.min_s * 1e3;
  if (field == "ns_per_op") return ns_per_op(*r);
  if (field == "min_ns_per_op") return ns_per_op(*r, true);
  if (field == "mops_per_s") return 1e3 / ns_per_op(*r);
  if (field == "best_mops_per_s") return 1e3 / ns_per_op(*r, true);
  return NAN;
}

auto Report::table() const -> std::string {
  std::string out;
  for (const std::string& section : sections_) {
    out += "\n== " + section + "\n";
    bool header = false;
    for (const auto& r : timed_) {
      if (r.section != section) continue;
      if (!header)
        out += "  " + pad("", 44, false) + pad("ops", 9, true) + pad("median", 13, true) + pad("min", 13, true) +
               pad("ns/op", 9, true) + pad("Mops/s", 9, true) + "\n";
      header = true;
      out += timed_line(r);
    }
    for (const auto& r : values_)
      if (r.section == section) out += value_line(r);
  }
  return out;
}

auto Report::json() const -> nlohmann::json {
  nlohmann::json timed = nlohmann::json::array();
  for (const auto& r : timed_) {
    nlohmann::json row = {{"id", r.id},
                          {"section", r.section},
                          {"label", r.label},
                          {"median_ms", r.timing.median_s * 1e3},
                          {"min_ms", r.timing.min_s * 1e3},
                          {"samples", r.timing.samples},
                          {"calls_per_sample", r.timing.calls_per_sample}};
    if (r.ops > 0) {
      row["ops"] = r.ops;
      row["ns_per_op"] = ns_per_op(r);
      row["mops_per_s"] = 1e3 / ns_per_op(r);
      row["min_ns_per_op"] = ns_per_op(r, true);
      row["best_mops_per_s"] = 1e3 / ns_per_op(r, true);
    }
    timed.push_back(std::move(row));
  }
  nlohmann::json values = nlohmann::json::array();
  for (const auto& r : values_)
    values.push_back({{"id", r.id}, {"section", r.section}, {"label", r.label}, {"value", r.value}, {"unit", r.unit}});
  return {{"timed", std::move(timed)}, {"values", std::move(values)}};
}

auto read_text(const std::string& path, const std::string& what) -> std::string {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + (what.empty() ? "" : what + " ") + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace pipesim::bench
