#include "targets.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace pipesim::bench {

namespace {

auto parse_target(const nlohmann::json& j, const std::string& path) -> Target {
  Target t;
  if (!j.is_object() || !j.contains("metric") || !j["metric"].is_string())
    throw std::runtime_error(path + ": every target needs a \"metric\" string");
  t.metric = j["metric"].get<std::string>();
  if (j.contains("max")) t.max = j["max"].get<double>();
  if (j.contains("min")) t.min = j["min"].get<double>();
  if (!t.max && !t.min) throw std::runtime_error(path + ": target " + t.metric + " needs \"max\" or \"min\"");
  t.why = j.value("why", "");
  return t;
}

auto bound_text(const Target& t) -> std::string {
  char buffer[96];
  if (t.max && t.min) std::snprintf(buffer, sizeof buffer, "in [%g, %g]", *t.min, *t.max);
  else if (t.max) std::snprintf(buffer, sizeof buffer, "<= %g", *t.max);
  else std::snprintf(buffer, sizeof buffer, ">= %g", *t.min);
  return buffer;
}

auto value_text(double v) -> std::string {
  if (!std::isfinite(v)) return "missing";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4g", v);
  return buffer;
}

}  // namespace

auto load_targets(const std::string& path, const std::string& side) -> std::vector<Target> {
  const nlohmann::json file = nlohmann::json::parse(read_text(path, "targets file"));
  if (!file.contains(side) || !file[side].is_array()) throw std::runtime_error(path + ": no \"" + side + "\" array");
  std::vector<Target> out;
  for (const auto& j : file[side]) out.push_back(parse_target(j, path));
  return out;
}

auto check_targets(const std::vector<Target>& targets, const Report& report) -> std::vector<Verdict> {
  std::vector<Verdict> out;
  for (const Target& t : targets) {
    const double v = report.metric(t.metric);
    // NAN (a metric this run did not produce) fails both comparisons.
    const bool pass = std::isfinite(v) && (!t.max || v <= *t.max) && (!t.min || v >= *t.min);
    out.push_back({t, v, pass, std::nullopt});
  }
  return out;
}

auto all_pass(const std::vector<Verdict>& verdicts) -> bool {
  return std::all_of(verdicts.begin(), verdicts.end(), [](const Verdict& v) { return v.pass; });
}

auto confirm(std::vector<Verdict> first, const std::vector<Verdict>& second) -> std::vector<Verdict> {
  for (std::size_t k = 0; k < first.size() && k < second.size(); ++k) {
    if (first[k].pass) continue;
    first[k].again = second[k].value;
    first[k].pass = second[k].pass;
  }
  return first;
}

auto verdicts_text(const std::vector<Verdict>& verdicts, const std::string& path) -> std::string {
  std::string out = "\n== targets (" + path + ")\n";
  for (const Verdict& v : verdicts) {
    char line[256];
    std::snprintf(line, sizeof line, "  %s  %-48s %12s  %s%s\n", v.pass ? "PASS" : "FAIL", v.target.metric.c_str(),
                  value_text(v.value).c_str(), bound_text(v.target).c_str(),
                  v.again ? ("  (again: " + value_text(*v.again) + ")").c_str() : "");
    out += line;
    if (!v.pass) out += "        why this target: " + v.target.why + "\n";
  }
  return out;
}

auto verdicts_json(const std::vector<Verdict>& verdicts) -> nlohmann::json {
  nlohmann::json out = nlohmann::json::array();
  for (const Verdict& v : verdicts) {
    nlohmann::json row = {{"metric", v.target.metric}, {"pass", v.pass}, {"why", v.target.why}};
    row["value"] = std::isfinite(v.value) ? nlohmann::json(v.value) : nlohmann::json(nullptr);
    if (v.again) row["again"] = std::isfinite(*v.again) ? nlohmann::json(*v.again) : nlohmann::json(nullptr);
    if (v.target.max) row["max"] = *v.target.max;
    if (v.target.min) row["min"] = *v.target.min;
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace pipesim::bench
