// Measured runs through the CLI as a user runs them: `pipesim overlap --trace FILE` (one F&B pair)
// and `pipesim simulate --measured DIR_OR_FILES` (a pipeline, one profiler trace per rank).
#include <catch2/catch.hpp>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_run.h"

namespace {

using pipesim::ErrorCode;
using pipesim::test::check_refused;
using pipesim::test::run_cli;

const std::string chunk_pair = std::string(PIPESIM_SOURCE_DIR) + "/tests/data/profiler/chunk_pair.json";

}  // namespace

TEST_CASE("overlap --trace: the JSON's measured block holds the measured pair next to the model") {
  const auto r = run_cli("overlap --trace " + chunk_pair + " --format json");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  const auto& m = j["measured"];
  CHECK(m["source"] == "trace");
  CHECK(m["rank"] == 3);
  CHECK(m["span_us"] == 44);
  CHECK(m["compute_busy_us"] == 42.75);
  CHECK(m["communication_busy_us"] == 28.25);
  CHECK(m["hidden_comm_us"] == 27.5);
  CHECK(m["exposed_comm_us"] == 0.75);
  CHECK(m["unattributed"]["kernels"] == 1);
  // The model's inputs are the measured components, as --forward/--backward would give them.
  CHECK(m["forward"]["attn"] == 10.5);
  CHECK(m["backward"]["attn_b"] == 12);
  CHECK(m["pp"] == 1);
  CHECK(j["unit"] == "us");
  CHECK(j["f"] == 35.25);
  CHECK(j["b"] == 30.5);
  CHECK(m["model_fb_us"] == j["fb"]);
  CHECK(m["costs"]["FB"] == 44);
  CHECK(j["derivation"][0]["formula"] == "measured: the union of its kernels in the trace");
}

TEST_CASE("overlap --trace gives the model the same durations as typing them in") {
  const auto traced = nlohmann::json::parse(run_cli("overlap --trace " + chunk_pair + " --format json").out);
  const auto typed = nlohmann::json::parse(
      run_cli("overlap --forward attn=10.5,dispatch=9.75,mlp=8,combine=6 "
              "--backward combine=5.5,mlp_b=5.5,mlp_w=3.25,dispatch=5,attn_b=12,attn_w=2.5 --pp-comm 1 --format json")
          .out);
  CHECK(traced["fb"] == typed["fb"]);
  CHECK(traced["pair"] == typed["pair"]);
}

TEST_CASE("overlap --trace --simulate runs the pipeline with the measured F, B, W and the measured span as FB") {
  const auto r = run_cli("overlap --trace " + chunk_pair + " --simulate 1f1b --ranks 4 --micro-batches 8 --format json");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["simulation"]["cost"]["F"] == 35.25);
  CHECK(j["simulation"]["cost"]["FB"] == 44);
}

TEST_CASE("overlap --trace text draws the measured pair under the model") {
  const auto r = run_cli("overlap --trace " + chunk_pair);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("measured pair (rank 3, device 0, 15 kernels"));
  CHECK_THAT(r.out, Catch::Contains("the model predicts fb = "));
  CHECK_THAT(r.out, Catch::Contains("measured span 44 us"));
}

TEST_CASE("overlap --trace refuses options that give or rescale durations, and bad traces, in one line") {
  check_refused("overlap --trace " + chunk_pair + " --comm-sms 20", ErrorCode::usage,
                "--comm-sms does not apply with --trace: the trace gives the durations as measured, on the SMs the run "
                "gave to communication");
  check_refused("overlap --trace " + chunk_pair + " --forward attn=1,dispatch=1,mlp=1,combine=1", ErrorCode::usage,
                "--forward does not apply with --trace: the trace gives the durations as measured, on the SMs the run "
                "gave to communication");
  const std::string path = pipesim::test::write_scratch("not_profile.json", R"({"traceEvents": [{"ph": "X", "cat": "x", "ts": 0, "dur": 1}]})");
  check_refused("overlap --trace " + path, ErrorCode::bad_import,
                "not a PyTorch profiler trace: no schemaVersion, distributedInfo or deviceProperties and no profiler event "
                "(cat kernel, cuda_runtime, user_annotation, cpu_op)");
  const auto r = run_cli("overlap --trace - < " + chunk_pair + " --format json");
  CHECK(r.status == 0);
}
