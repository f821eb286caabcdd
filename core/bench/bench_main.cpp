// pipesim_bench: the native half of `npm run bench`. Times the engine on the workloads the page and the
// CLI produce, measures heap bytes per op, and checks the results against scripts/bench-targets.json.
// Exit status: 0 when every target passes, 1 when one fails, 2 on bad usage.
// Speed targets live here and not in the Catch2 suite: timed tests are flaky on shared machines, and a
// benchmark run on purpose can take the time to repeat and report medians.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "harness.h"
#include "targets.h"
#include "workloads.h"

namespace {

using namespace pipesim::bench;

constexpr std::string_view usage = R"(usage: pipesim_bench [--json] [--json-out FILE] [--targets FILE] [--samples N] [--quick]
  --json        print the results as JSON instead of the table
  --json-out    also write the JSON to FILE
  --targets     targets file (default: scripts/bench-targets.json of the source tree)
  --samples N   timed samples per case after the warm-up (default 7)
  --quick       3 samples of at least 5 ms each: a smoke run; its numbers are noisier
  --only LIST   run only these sections (comma-separated: memory, page, scale, scaling, sweep, models,
                exports, cli, curve, reference) and print them without checking targets
)";

struct Args {
  bool json = false;
  std::string json_out;
  std::string targets = PIPESIM_SOURCE_DIR "/scripts/bench-targets.json";
  Options options{{}, PIPESIM_SOURCE_DIR};
  std::string only;  ///< comma-separated section names; empty: all, with the targets checked
};

auto parse_args(const std::vector<std::string_view>& argv) -> Args {
  Args a;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string_view arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argv.size()) throw std::invalid_argument(std::string(arg) + " needs a value");
      return std::string(argv[++i]);
    };
    if (arg == "--json") a.json = true;
    else if (arg == "--json-out") a.json_out = value();
    else if (arg == "--targets") a.targets = value();
    else if (arg == "--samples") a.options.timing.samples = std::stoi(value());
    else if (arg == "--quick") a.options.timing = {3, 0.005};
    else if (arg == "--only") a.only = value();
    else throw std::invalid_argument("unknown option " + std::string(arg));
  }
  if (a.options.timing.samples < 1) throw std::invalid_argument("--samples must be at least 1");
  return a;
}

auto split_names(const std::string& list) -> std::vector<std::string_view> {
  std::vector<std::string_view> out;
  std::string_view rest = list;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    out.push_back(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
  }
  return out;
}

struct Section {
  std::string_view name;
  void (*run)(Report&, const Options&);
};

// Memory first, while the process holds little, so its RSS reading means something.
constexpr Section sections[] = {{"memory", bench_memory}, {"page", bench_page},     {"scale", bench_scale},
                                {"scaling", bench_scaling}, {"sweep", bench_sweep}, {"models", bench_models},
                                {"exports", bench_exports}, {"cli", bench_cli},     {"curve", bench_curve},
                                {"reference", bench_reference}};

auto selected(std::string_view name, const std::string& only) -> bool {
  if (only.empty()) return true;
  return ("," + only + ",").find("," + std::string(name) + ",") != std::string::npos;
}

auto run_all(const Options& o, const std::string& only = "") -> Report {
  Report report;
  for (const Section& section : sections)
    if (selected(section.name, only)) section.run(report, o);
  return report;
}

auto machine_line(const Options& o) -> std::string {
  return "pipesim_bench: " + std::to_string(o.timing.samples) + " samples of >= " +
         std::to_string(static_cast<int>(o.timing.min_sample_s * 1e3)) +
         " ms per case after a warm-up; median and fastest sample per call\n";
}

/// Linux's CPU pressure (PSI): the share of the last minute in which a runnable task here waited for
/// a CPU. On a shared machine it says how much other tenants inflated the timings; -1 if unknown.
auto cpu_pressure_percent() -> double {
  std::ifstream in("/proc/pressure/cpu");
  std::string line;
  if (!std::getline(in, line)) return -1;
  const auto at = line.find("avg60=");
  return at == std::string::npos ? -1 : std::atof(line.c_str() + at + 6);
}

auto pressure_line(double percent) -> std::string {
  if (percent < 0) return "";
  char buffer[160];
  std::snprintf(buffer, sizeof buffer,
                "\nCPU pressure over the last minute: %.0f%% (time a task here waited for a CPU; high means other "
                "load inflated the timings)\n",
                percent);
  return buffer;
}

}  // namespace

auto main(int argc, char** argv) -> int {
  Args args;
  try {
    args = parse_args(std::vector<std::string_view>(argv + 1, argv + argc));
  } catch (const std::exception& e) {
    std::cerr << "pipesim_bench: " << e.what() << "\n" << usage;
    return 2;
  }
  try {
    if (!args.only.empty()) {
      for (std::string_view name : split_names(args.only))
        if (std::none_of(std::begin(sections), std::end(sections), [&](const Section& s) { return s.name == name; }))
          throw std::invalid_argument("unknown section '" + std::string(name) + "' for --only");
      const Report report = run_all(args.options, args.only);
      std::cout << (args.json ? report.json().dump(2) + "\n" : report.table());
      if (!args.json_out.empty()) std::ofstream(args.json_out) << report.json().dump(2) << "\n";
      return 0;
    }
    const auto targets = load_targets(args.targets, "native");
    if (!args.json) std::cout << machine_line(args.options) << std::flush;
    const Report report = run_all(args.options);
    auto verdicts = check_targets(targets, report);
    nlohmann::json json = report.json();
    if (!all_pass(verdicts)) {
      if (!args.json) std::cout << report.table() << "\nA target failed: measuring everything again to confirm.\n";
      const Report again = run_all(args.options);
      verdicts = confirm(std::move(verdicts), check_targets(targets, again));
      json["confirmation"] = again.json();
    } else if (!args.json) {
      std::cout << report.table();
    }
    const bool pass = all_pass(verdicts);
    const double pressure = cpu_pressure_percent();
    json["targets"] = verdicts_json(verdicts);
    json["pass"] = pass;
    json["cpu_pressure_avg60_percent"] = pressure;
    if (args.json) std::cout << json.dump(2) << "\n";
    else std::cout << pressure_line(pressure) << verdicts_text(verdicts, args.targets)
                   << (pass ? "\nnative: all targets PASS\n" : "\nnative: FAIL\n");
    if (!args.json_out.empty()) std::ofstream(args.json_out) << json.dump(2) << "\n";
    return pass ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "pipesim_bench: " << e.what() << "\n";
    return 2;
  }
}
