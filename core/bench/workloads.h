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

}  // namespace pipesim::bench
