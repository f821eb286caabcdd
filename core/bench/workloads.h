#pragma once
// The benchmark's cases, one function per section of the report.
#include <string>

#include "harness.h"

namespace pipesim::bench {

struct Options {
  TimingPlan timing;
  std::string source_dir;  ///< the repository, for core/data/plan_examples/
};

void bench_page(Report& report, const Options& o);      ///< one run() per slider move, 8 x 20
void bench_scale(Report& report, const Options& o);     ///< simulate() and run() at 64 x 1024
void bench_scaling(Report& report, const Options& o);   ///< time per op at 1x, 4x, 16x the size
void bench_sweep(Report& report, const Options& o);     ///< the Charts tab's sweeps
void bench_memory(Report& report, const Options& o);    ///< heap bytes per op of a run
void bench_models(Report& report, const Options& o);    ///< chunk model and planner
void bench_exports(Report& report, const Options& o);   ///< Chrome trace, SVG, CSV
void bench_cli(Report& report, const Options& o);       ///< the CLI process, every schedule at 64 x 8192
void bench_curve(Report& report, const Options& o);     ///< time against size, 10^3 to 10^7 ops
void bench_reference(Report& report, const Options& o); ///< reference timing against dataflow, DualPipe 64 x 8192

}  // namespace pipesim::bench
