// A measured pipeline next to its model. Two kinds of input:
//   * a simulated run exported in the PyTorch profiler's shape (profiler_trace_of below: torch
//     pipelining's PP: names, an overlapped pair as PP:(0F7;7B3)OVERLAP_F_B, launches with
//     correlation ids and ac2g flows, backward kernels from autograd's thread, two compute streams,
//     a clock in Unix-epoch microseconds and a different baseTimeNanoseconds per rank): it must
//     round-trip, the fitted costs being the costs it was made with;
//   * tests/data/profiler/pipeline_4rank (make_pipeline_4rank.py): a 4-rank 1F1B run with one slow
//     backward and one late forward, named so that only distributedInfo orders the ranks.
#include <catch2/catch.hpp>
#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "helpers.h"
#include "pipesim/custom.h"
#include "pipesim/error.h"
#include "pipesim/limits.h"
#include "pipesim/measured_pipeline.h"
#include "pipesim/run.h"

namespace {

using namespace pipesim;
using nlohmann::json;

constexpr double epoch_us = 1740461679000000.0;

auto split(const std::string& text, char sep) -> std::vector<std::string> {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, sep))
    if (!item.empty()) out.push_back(item);
  return out;
}

/// Rank `rank` of a simulated run as the PyTorch profiler would record it, 1 cost unit = `us` us.
auto profiler_trace_of(const Run& run, int rank, double us) -> std::string {
  const std::vector<std::string> actions = split(split(format_actions(run.schedule), '\n')[static_cast<std::size_t>(rank)], ',');
  const std::int64_t base_ns = 1'000'000LL * rank;  // each rank's file counts from its own base
  const double shift = static_cast<double>(base_ns) / 1000.0;
  const int pid = 500 + rank;
  json events = json::array();
  const auto ops = run.schedule.ops_of(rank);
  std::int64_t correlation = 10'000LL * (rank + 1);
  double cpu = epoch_us - 1e6;  // the host thread runs ahead of the GPU
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const std::size_t at = static_cast<std::size_t>(run.schedule.rank_begin[static_cast<std::size_t>(rank)]) + i;
    const double start = run.timeline.start[at] * us;
    const double end = run.timeline.end[at] * us;
    events.push_back({{"ph", "X"}, {"cat", "user_annotation"}, {"name", "PP:" + actions[i]}, {"pid", pid}, {"tid", pid},
                      {"ts", cpu - shift}, {"dur", 4}});
    const bool backward = ops[i].kind != OpKind::F;
    const int thread = backward ? pid + 1 : pid;  // autograd's thread launches backward kernels
    const double middle = start + (end - start) / 2;
    const double halves[2][2] = {{start, middle}, {middle, end}};
    for (int half = 0; half < 2; ++half) {
      ++correlation;
      const int stream = ops[i].kind == OpKind::W && half == 1 ? 23 : 7;
      const double launch = cpu + 1 + half - shift;
      const double kernel_ts = epoch_us + halves[half][0] - shift;
      events.push_back({{"ph", "X"}, {"cat", "cuda_runtime"}, {"name", "cudaLaunchKernel"}, {"pid", pid}, {"tid", thread},
                        {"ts", launch}, {"dur", 0.5}, {"args", {{"correlation", correlation}}}});
      events.push_back({{"ph", "s"}, {"cat", "ac2g"}, {"name", "ac2g"}, {"id", correlation}, {"pid", pid}, {"tid", thread}, {"ts", launch}});
      events.push_back({{"ph", "f"}, {"cat", "ac2g"}, {"name", "ac2g"}, {"id", correlation}, {"pid", 0}, {"tid", stream},
                        {"ts", kernel_ts}, {"bp", "e"}});
      events.push_back({{"ph", "X"}, {"cat", "kernel"}, {"name", "void cutlass::Kernel<gemm>(Params)"}, {"pid", 0}, {"tid", stream},
                        {"ts", kernel_ts}, {"dur", halves[half][1] - halves[half][0]},
                        {"args", {{"device", 0}, {"stream", stream}, {"correlation", correlation}}}});
    }
    cpu += 6;
  }
  return json{{"schemaVersion", 1}, {"baseTimeNanoseconds", base_ns},
              {"distributedInfo", {{"backend", "nccl"}, {"rank", rank}, {"world_size", run.schedule.ranks()}}},
              {"traceEvents", std::move(events)}}
      .dump();
}

/// Every rank's trace, read back in reverse order (distributedInfo must put them right).
auto round_trip(const Run& run, double us) -> MeasuredPipeline {
  std::vector<ProfileTrace> traces;
  for (int r = run.schedule.ranks() - 1; r >= 0; --r) traces.push_back(read_profile_trace(profiler_trace_of(run, r, us)));
  return measure_pipeline(traces);
}

auto simulated(const std::string& schedule, int ranks, int micro_batches, const std::string& costs, int virtual_stages = 1) -> Run {
  RunRequest request;
  request.schedule = schedule;
  request.params = {ranks, micro_batches, virtual_stages};
  request.costs = parse_costs(costs);
  return run(request);
}

auto fixture_dir() -> std::string { return std::string(PIPESIM_SOURCE_DIR) + "/tests/data/profiler/pipeline_4rank"; }

auto fixture_traces() -> std::vector<ProfileTrace> {
  std::vector<ProfileTrace> out;
  for (const char* name : {"trace_a.json", "trace_b.json", "trace_c.json", "trace_d.json"}) {
    std::ifstream in(fixture_dir() + "/" + name, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    out.push_back(read_profile_trace(os.str()));
  }
  return out;
}

}  // namespace

TEST_CASE("a simulated run exported in the profiler's shape round-trips: fitted costs equal its costs") {
  struct Case {
    std::string schedule;
    int ranks, micro_batches, virtual_stages;
    std::string costs;
  };
  for (const Case& c : {Case{"1f1b", 4, 8, 1, "F=1,B=2"}, Case{"zb-h1", 4, 8, 1, "F=1.5,B=3,W=1"},
                        Case{"interleaved-1f1b", 4, 8, 2, "F=0.75,B=1.5"}, Case{"zb-v", 4, 8, 1, "F=1,B=2,W=0.5"},
                        Case{"gpipe", 3, 5, 1, "F=2,B=4"}, Case{"dualpipev", 4, 10, 1, "F=1,B=2,W=1,FB=2.5"}}) {
    INFO(c.schedule);
    const Run original = simulated(c.schedule, c.ranks, c.micro_batches, c.costs, c.virtual_stages);
    const double us = 1000;
    const MeasuredPipeline m = round_trip(original, us);
    CHECK(m.costs.f == original.costs.f * us);
    CHECK(m.costs.b == original.costs.b * us);
    const bool overlapped = std::any_of(original.schedule.ops.begin(), original.schedule.ops.end(), [](const Op& op) { return op.kind == OpKind::FB; });
    CHECK(m.costs.fb == (overlapped ? original.costs.fb : original.costs.f + original.costs.b) * us);
    CHECK(m.costs.w == (original.schedule.ops.end() != std::find_if(original.schedule.ops.begin(), original.schedule.ops.end(),
                                                                     [](const Op& op) { return op.kind == OpKind::W; })
                            ? original.costs.w * us
                            : 0));
    for (const FittedCost& f : m.fitted) {
      INFO(kind_name(f.kind) << " stage " << f.stage);
      CHECK(f.median_us == original.costs.duration(f.kind) * us);
    }
    CHECK(m.makespan_us == original.metrics.makespan * us);
    CHECK(m.model.metrics.makespan == m.makespan_us);
    CHECK(m.departures.empty());
    for (std::size_t r = 0; r < m.per_rank.size(); ++r) {
      CHECK(m.per_rank[r].trace_rank == static_cast<int>(r));
      CHECK(m.per_rank[r].busy_us == original.metrics.per_rank[r].busy * us);
      CHECK(m.per_rank[r].bubble_us == original.metrics.per_rank[r].bubble * us);
    }
  }
}

TEST_CASE("a run whose stages cost differently round-trips: each stage is fitted and simulated with its own costs") {
  // 1F1B 4 x 8 with a heavy last stage (an LM head and loss): one cost per kind could not give back its
  // makespan; the model runs every stage with the medians measured at that stage.
  RunRequest request;
  request.schedule = "1f1b";
  request.params = {4, 8, 1};
  request.costs = parse_costs("F=1,B=2");
  request.per_stage.overrides.push_back(parse_stage_cost("last:F=3,B=6"));
  const Run original = run(request);
  const MeasuredPipeline m = round_trip(original, 1000);
  for (const FittedCost& f : m.fitted) {
    INFO(kind_name(f.kind) << " stage " << f.stage);
    CHECK(f.median_us == original.stage_costs.stages[static_cast<std::size_t>(f.stage)].duration(f.kind) * 1000);
  }
  REQUIRE(m.model.stage_costs.stages.size() == 4);
  CHECK(m.model.stage_costs.stages[3].f == 3000);
  CHECK(m.model.stage_costs.stages[3].b == 6000);
  CHECK(m.model.stage_costs.stages[0].f == 1000);
  CHECK(m.makespan_us == original.metrics.makespan * 1000);
  CHECK(m.model.metrics.makespan == m.makespan_us);
  CHECK(m.departures.empty());
}

TEST_CASE("a round trip of a run with transfer latency fits the same costs and shows the transfers as late ops") {
  const Run original = simulated("1f1b", 4, 8, "F=1,B=2,comm=0.25");
  const MeasuredPipeline m = round_trip(original, 1000);
  CHECK(m.costs.f == 1000);
  CHECK(m.costs.b == 2000);
  CHECK(m.makespan_us == original.metrics.makespan * 1000);
  CHECK(m.model.metrics.makespan < m.makespan_us);  // the model has comm = 0
  REQUIRE(!m.departures.empty());
  CHECK(m.departures.front().late_by() > 250);
}

TEST_CASE("a measured 4-rank 1F1B run: medians ignore one slow op, the late forward shows as a departure") {
  const MeasuredPipeline m = measure_pipeline(fixture_traces());
  REQUIRE(m.per_rank.size() == 4);
  for (int r = 0; r < 4; ++r) CHECK(m.per_rank[static_cast<std::size_t>(r)].trace_rank == 8 * r);
  CHECK(m.actions == "0F0,0F1,0F2,0F3,0B0,0B1,0B2,0B3\n1F0,1F1,1F2,1B0,1F3,1B1,1B2,1B3\n"
                     "2F0,2F1,2B0,2F2,2B1,2F3,2B2,2B3\n3F0,3B0,3F1,3B1,3F2,3B2,3F3,3B3\n");
  CHECK(m.costs.f == 100);
  CHECK(m.costs.b == 200);  // rank 1's 260 us backward is one sample of four
  CHECK(m.costs.fb == 300);
  CHECK(m.fitted.size() == 8);  // F and B on four stages
  CHECK(m.makespan_us == 2137.5);
  CHECK(m.model.metrics.makespan == 2100);  // (m + p - 1)(F + B)
  CHECK(m.per_rank[0].busy_us == 1200);
  CHECK(m.per_rank[1].busy_us == 1260);
  CHECK(m.per_rank[1].bubble_us == 2137.5 - 1260);
  REQUIRE(m.departures.size() == 9);
  // The first op to depart is the late forward; the latest is rank 0's backward of micro-batch 2,
  // which waits for the late forward (37.5 us) and then for rank 1's slow backward (60 us more).
  const auto first_late = std::min_element(m.departures.begin(), m.departures.end(),
                                           [](const Departure& a, const Departure& b) { return a.measured_start < b.measured_start; });
  CHECK(first_late->action == "2F3");
  CHECK(first_late->late_by() == 37.5);
  CHECK(m.departures.front().action == "0B2");
  CHECK(m.departures.front().late_by() == 97.5);
}

TEST_CASE("clocks apart: --align first-ops places each rank's first op where the model starts it") {
  std::vector<ProfileTrace> traces = fixture_traces();
  for (ProfileTrace& t : traces)
    if (t.rank == 24) t.base_ns += 5'000'000'000LL;  // this host's clock runs 5 s ahead
  const MeasuredPipeline skewed = measure_pipeline(traces);
  CHECK(skewed.makespan_us > 5e6);  // on the profiler's clock the last rank seems to start 5 s late
  const MeasuredPipeline aligned = measure_pipeline(traces, {}, Clock::first_ops);
  CHECK(aligned.makespan_us == 2137.5);
  CHECK(aligned.per_rank[3].ops.front().start == aligned.model.timeline.start[static_cast<std::size_t>(aligned.model.schedule.rank_begin[3])]);
  CHECK(aligned.departures.size() == measure_pipeline(fixture_traces()).departures.size());
  CHECK(nlohmann::json(measured_pipeline_json(aligned))["clock"] == "first-ops");
}

TEST_CASE("ops are named by torch pipelining by default, or by a regular expression per kind") {
  const std::string trace = R"({"schemaVersion": 1, "traceEvents": [
      {"ph": "X", "cat": "user_annotation", "name": "fwd stage=0 mb=0", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
      {"ph": "X", "cat": "user_annotation", "name": "bwd stage=0 mb=0", "pid": 1, "tid": 1, "ts": 10, "dur": 20},
      {"ph": "X", "cat": "user_annotation", "name": "PP:0F0", "pid": 1, "tid": 1, "ts": 40, "dur": 1}]})";
  const std::vector<ProfileTrace> traces{read_profile_trace(trace)};
  const MeasuredPipeline m = measure_pipeline(traces, parse_op_naming(R"J({"F": "fwd stage=(\\d+) mb=(\\d+)", "B": "bwd stage=(\\d+) mb=(\\d+)"})J"));
  CHECK(m.actions == "0F0,0B0\n");
  CHECK(m.costs.f == 10);  // no kernels: timed by the annotations themselves
  CHECK(m.costs.b == 20);
  CHECK_THROWS_WITH(parse_op_naming(R"J({"F": "fwd (\\d+)"})J"), Catch::Contains("F needs two groups"));
  CHECK_THROWS_WITH(parse_op_naming(R"J({"X": "(\\d+)(\\d+)"})J"), Catch::Contains("unknown op kind 'X'"));
  CHECK_THROWS_WITH(parse_op_naming(R"J({"F": "(("})J"), Catch::Contains("F is not a valid regular expression"));
  const std::vector<ProfileTrace> unnamed{read_profile_trace(R"({"schemaVersion": 1, "traceEvents": [
      {"ph": "X", "cat": "user_annotation", "name": "forward", "pid": 1, "tid": 1, "ts": 0, "dur": 10}]})")};
  CHECK_THROWS_WITH(measure_pipeline(unnamed), "trace 1 (pipeline rank 0) has no pipeline op: expected record_function names like "
                                               "PP:0F0, PP:1I3, PP:2W0, PP:0B1 (torch.distributed.pipelining)");
}

TEST_CASE("simulate --measured FOLDER prints the measured pipeline next to the model") {
  const auto r = pipesim::test::run_cli("simulate --measured " + fixture_dir() + " --format json");
  REQUIRE(r.status == 0);
  const auto j = json::parse(r.out);
  CHECK(j["makespan_us"] == 2137.5);
  CHECK(j["model_makespan_us"] == 2100);
  CHECK(j["sentence"] == "your schedule with your measured costs would take 2100 us; you measured 2137.5 us");
  CHECK(j["per_rank"][1]["busy_us"] == 1260);
  CHECK(j["costs"]["B"] == 200);
  CHECK(j["timeline"][3]["ops"][0]["action"] == "3F0");
  const auto text = pipesim::test::run_cli("simulate --measured " + fixture_dir() + "/trace_a.json," + fixture_dir() + "/trace_b.json," +
                                           fixture_dir() + "/trace_c.json," + fixture_dir() + "/trace_d.json");
  REQUIRE(text.status == 0);
  CHECK_THAT(text.out, Catch::Contains("your schedule with your measured costs would take 2100 us; you measured 2137.5 us"));
  // The model's row above the measured one: rank 3 starts with its forward of micro-batch 0 at 300 us.
  CHECK_THAT(text.out, Catch::Contains("  rank 3 model    |.............FFFFFBBBBBBBBB"));
  CHECK_THAT(text.out, Catch::Contains("  rank 3 measured |.............FFFFFBBBBBBBBB"));
}

TEST_CASE("simulate --measured refuses options that would set the schedule or costs, and bad traces, naming the file") {
  pipesim::test::check_refused("simulate --measured " + fixture_dir() + " --cost F=1", ErrorCode::usage,
                               "--cost does not apply with --measured: the traces give the schedule and its costs");
  pipesim::test::check_refused("simulate --op-names '{}'", ErrorCode::usage, "--op-names applies only with --measured");
  pipesim::test::check_refused("simulate --align first-ops", ErrorCode::usage, "--align applies only with --measured");
  pipesim::test::check_refused("simulate --measured " + fixture_dir() + " --align hosts", ErrorCode::unknown_name,
                               "--align must be one of profiler|first-ops, got 'hosts'");
  const std::string bad = pipesim::test::write_scratch("measured_bad.json", "{\"traceEvents\": [");
  const auto r = pipesim::test::run_cli("simulate --measured " + bad);
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::StartsWith("pipesim: error[bad_import]: '" + bad + "': the profiler trace is not valid JSON"));
}

TEST_CASE("a refused measured pipeline carries its rule's key and values: the op kind, the trace and its rank") {
  using Params = std::vector<std::pair<std::string, std::string>>;
  const auto wording_of = [](const auto& call) { return pipesim::test::refused_wording(call); };
  CHECK(wording_of([] { (void)parse_op_naming("{"); }).key == "op_names.not_json");
  CHECK(wording_of([] { (void)parse_op_naming("{}"); }).key == "op_names.not_object");
  const Wording unknown = wording_of([] { (void)parse_op_naming(R"J({"X": "(\\d+)(\\d+)"})J"); });
  CHECK(unknown.key == "op_names.unknown_kind");
  CHECK(unknown.params == Params{{"name", "X"}});
  CHECK(wording_of([] { (void)parse_op_naming(R"J({"B": 3})J"); }).params == Params{{"kind", "B"}});
  CHECK(wording_of([] { (void)parse_op_naming(R"J({"W": "(("})J"); }).key == "op_names.bad_regex");
  const Wording groups = wording_of([] { (void)parse_op_naming(R"J({"F": "fwd (\\d+)"})J"); });
  CHECK(groups.key == "op_names.groups");
  CHECK(groups.params == Params{{"kind", "F"}});

  CHECK(wording_of([] { (void)measure_pipeline({}); }).key == "measured.no_traces");
  const Wording too_many =
      wording_of([] { (void)measure_pipeline(std::vector<ProfileTrace>(static_cast<std::size_t>(limits::max_profile_trace_files) + 1)); });
  CHECK(too_many.key == "measured.too_many_traces");
  CHECK(too_many.params == Params{{"what", "a measured pipeline"}, {"max", std::to_string(limits::max_profile_trace_files)}});
  // The second trace file (1-based, as the English says it) has no op: the default names, then names given.
  const std::vector<ProfileTrace> second_empty{read_profile_trace(R"({"schemaVersion": 1, "traceEvents": [
      {"ph": "X", "cat": "user_annotation", "name": "PP:0F0", "pid": 1, "tid": 1, "ts": 0, "dur": 10}]})"),
                                               read_profile_trace(R"({"schemaVersion": 1, "traceEvents": [
      {"ph": "X", "cat": "user_annotation", "name": "forward", "pid": 1, "tid": 1, "ts": 0, "dur": 10}]})")};
  const Wording no_ops = wording_of([&] { (void)measure_pipeline(second_empty); });
  CHECK(no_ops.key == "measured.no_pipelining_ops");
  CHECK(no_ops.params == Params{{"trace", "2"}, {"rank", "1"}});
  const Wording unmatched = wording_of([&] { (void)measure_pipeline(second_empty, parse_op_naming(R"J({"F": "fwd s(\\d+) mb(\\d+)"})J")); });
  CHECK(unmatched.key == "measured.no_named_ops");
  CHECK(unmatched.params == Params{{"trace", "1"}, {"rank", "0"}});
}
