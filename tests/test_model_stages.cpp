// A planner model file divided into a schedule's stages (model_stages.h, `simulate --model`): layers
// per stage, the embedding on the first stage, the LM head on the last, costs from the planner's model.
#include <catch2/catch.hpp>

#include <fstream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "helpers.h"
#include "pipesim/custom.h"
#include "pipesim/model_stages.h"
#include "pipesim/planner.h"

using pipesim::Error;
using pipesim::ErrorCode;
using pipesim::ModelDivision;
using pipesim::test::Refused;

namespace {

// A dense model whose numbers are easy by hand: one 1 TFLOPS GPU at mfu 1 (1e12 FLOPs/s) with 1 GB/s
// of HBM, T = 1000 tokens per micro-batch, hidden 1000, FFN width 3000, vocabulary 5000, 6 layers on
// 4 ranks.
//   a layer's parameters: 4 h^2 + 3 h x 3000 = 4e6 + 9e6 = 13e6; attention scores 2 x seq x h = 2e6
//   a layer's forward: T x (2 x 13e6 + 2e6) = 2.8e10 FLOPs = 28 ms; B = 2 F, W = F
//   the LM head, a matmul: vocab x h = 5e6 parameters, T x 2 x 5e6 = 1e10 FLOPs = 10 ms; B 20, W 10
//   the input embedding, a lookup of T x h = 1e6 values: the gather reads 2 bytes (bf16 weight) and
//   writes 2 (bf16 activation) each, 4e6 bytes = 4 ms; the scatter-add reads the 2-byte gradient and
//   reads and writes the 4-byte weight gradient, 10e6 bytes = 10 ms, all of it W (B = W = 10)
//   a pipeline send: T x h x 2 bytes = 2e6 bytes over NVLink at 1 GB/s = 2 ms
// A dense model has nothing to overlap: F&B = F + B.
const char* const tiny_model = R"({
  "cluster": {"gpus": 4, "gpus_per_node": 8, "gpu": {"name": "unit", "tflops": 1, "memory_gb": 80, "hbm_gb_s": 1},
              "nvlink_gb_s": 1, "ib_gb_s": 1},
  "model": {"name": "tiny", "layers": 6, "hidden": 1000, "ffn_hidden": 3000, "vocab": 5000,
            "seq_len": 1000, "micro_batches": 1, "pp": 4},
  "assumptions": {"mfu": 1}
})";

auto tiny_input() -> pipesim::PlanInput { return pipesim::parse_plan_input(tiny_model); }

auto forwards(const ModelDivision& d) -> std::vector<double> {
  std::vector<double> out;
  for (const auto& s : d.stages) out.push_back(s.costs.f);
  return out;
}

auto backwards(const ModelDivision& d) -> std::vector<double> {
  std::vector<double> out;
  for (const auto& s : d.stages) out.push_back(s.costs.b);
  return out;
}

auto weight_backwards(const ModelDivision& d) -> std::vector<double> {
  std::vector<double> out;
  for (const auto& s : d.stages) out.push_back(s.costs.w);
  return out;
}

using pipesim::test::example;

}  // namespace

TEST_CASE("balanced layers give the remainder to the stages after the embedding's", "[model_stages]") {
  CHECK(pipesim::balanced_layers(6, 4, "1f1b on 4 ranks") == std::vector<int>{1, 2, 2, 1});
  CHECK(pipesim::balanced_layers(8, 4, "1f1b on 4 ranks") == std::vector<int>{2, 2, 2, 2});
  // DeepSeek-V3's 61 layers on DualPipeV's 32 stages (16 ranks): 1 each, 29 more for stages 1 to 29.
  const std::vector<int> v3 = pipesim::balanced_layers(61, 32, "dualpipev on 16 ranks");
  CHECK(v3.front() == 1);
  CHECK(v3[1] == 2);
  CHECK(v3[29] == 2);
  CHECK(v3[30] == 1);
  CHECK(v3.back() == 1);
  CHECK(std::accumulate(v3.begin(), v3.end(), 0) == 61);
}

TEST_CASE("each stage costs its own layers, plus the embedding on the first and the LM head on the last", "[model_stages]") {
  const ModelDivision d = pipesim::divide_model(tiny_input(), 4, {}, "1f1b on 4 ranks");
  REQUIRE(d.stages.size() == 4);
  // 1, 2, 2, 1 layers: 28 + 4 (the gather), 2 x 28, 2 x 28, 28 + 10 (the LM head) ms.
  CHECK(forwards(d) == std::vector<double>{32, 56, 56, 38});
  // B: 56 + 10 (the scatter-add), 112, 112, 56 + 20; W: 28 + 10, 56, 56, 28 + 10.
  CHECK(backwards(d) == std::vector<double>{66, 112, 112, 76});
  CHECK(weight_backwards(d) == std::vector<double>{38, 56, 56, 38});
  CHECK(d.stages[0].embedding);
  CHECK_FALSE(d.stages[0].head);
  CHECK(d.stages[3].head);
  for (const auto& s : d.stages) {
    CHECK(s.costs.fb == s.costs.f + s.costs.b);
    CHECK(s.costs.comm == Approx(2));
  }
  // Parameters: 13e6 per layer, 5e6 per embedding.
  CHECK(d.stages[0].params == 18e6);
  CHECK(d.stages[1].params == 26e6);
}

TEST_CASE("layers listed per stage: the first and last stage may hold only their embeddings", "[model_stages]") {
  const ModelDivision d = pipesim::divide_model(tiny_input(), 4, {0, 3, 3, 0}, "1f1b on 4 ranks");
  // An embedding-only first stage: the gather forward (4 ms), the scatter-add backward (B = W = 10 ms).
  CHECK(forwards(d) == std::vector<double>{4, 84, 84, 10});
  CHECK(backwards(d) == std::vector<double>{10, 168, 168, 20});
  CHECK(weight_backwards(d) == std::vector<double>{10, 84, 84, 10});
  CHECK(d.stages[1].first_layer == 0);
  CHECK(d.stages[2].first_layer == 3);
}

TEST_CASE("the stages of a model add up to the planner's whole model, MoE and given totals included", "[model_stages]") {
  const pipesim::PlanInput input = pipesim::parse_plan_input(example("deepseek-v3.json"));
  const pipesim::ModelCosts whole = pipesim::model_costs(input, pipesim::parameter_split(input.model));
  for (const int stages : {16, 32}) {
    const ModelDivision d = pipesim::divide_model(input, stages, {}, "a schedule");
    double forward = 0, a2a = 0, activations = 0, params = 0;
    int moe = 0;
    for (const auto& s : d.stages) {
      forward += s.part.forward_ms;
      a2a += s.part.a2a_forward_ms;
      activations += s.part.activation_bytes;
      params += s.params;
      moe += s.moe_layers;
    }
    CHECK(forward == Approx(whole.forward_ms).epsilon(1e-12));
    CHECK(a2a == Approx(whole.a2a_forward_ms).epsilon(1e-12));
    CHECK(activations == Approx(whole.activation_bytes).epsilon(1e-12));
    CHECK(params == Approx(d.parameters.total).epsilon(1e-12));
    CHECK(moe == 58);  // 61 layers, the first 3 dense
  }
  // The first three layers are dense: DualPipeV's stage 2 (layers 3 and 4) is the first with an all-to-all.
  const ModelDivision v = pipesim::divide_model(input, 32, {}, "dualpipev on 16 ranks");
  CHECK(v.stages[1].moe_layers == 0);
  CHECK(v.stages[1].part.a2a_forward_ms == 0);
  CHECK(v.stages[2].moe_layers == 2);
  CHECK(v.stages[2].part.a2a_forward_ms == Approx(2 * whole.a2a_forward_ms / 58));
}

TEST_CASE("a model without embeddings cut evenly times every stage alike, as --cost does", "[model_stages]") {
  std::string text = tiny_model;
  text.replace(text.find("\"vocab\": 5000"), 13, "\"vocab\": 0");
  text.replace(text.find("\"layers\": 6"), 11, "\"layers\": 8");
  const std::string path = pipesim::test::write_scratch("no_embeddings.json", text);
  const auto model = pipesim::test::run_cli("simulate --schedule dualpipe --model " + path + " --micro-batches 8 --format summary");
  REQUIRE(model.status == 0);
  // Two layers a stage: F = 56, B = 112, W = 56, F&B = 168 ms, comm 2 ms.
  const auto cost = pipesim::test::run_cli("simulate --schedule dualpipe --ranks 4 --micro-batches 8 --cost F=56,B=112,W=56,FB=168,comm=2 --format summary");
  REQUIRE(cost.status == 0);
  auto a = nlohmann::json::parse(model.out);
  const auto b = nlohmann::json::parse(cost.out);
  for (auto& rank : a["per_rank"]) rank.erase("memory_bytes");  // what --cost cannot know
  CHECK(a["makespan"] == b["makespan"]);
  CHECK(a["per_rank"] == b["per_rank"]);
  CHECK(a["formula"] == b["formula"]);  // the stages are uniform: the closed form is not marked as per-stage
}

TEST_CASE("simulate --model --timing reference times the model's stages as the reference program runs them", "[model_stages][cli]") {
  std::string text = tiny_model;  // two layers a stage, as --cost F=56,B=112,W=56,FB=168,comm=2
  text.replace(text.find("\"vocab\": 5000"), 13, "\"vocab\": 0");
  text.replace(text.find("\"layers\": 6"), 11, "\"layers\": 8");
  const std::string path = pipesim::test::write_scratch("no_embeddings_reference.json", text);
  const auto summary = [&](const std::string& args) {
    const auto r = pipesim::test::run_cli("simulate --schedule dualpipe --micro-batches 8 --format summary " + args);
    REQUIRE(r.status == 0);
    return nlohmann::json::parse(r.out);
  };
  const auto model = summary("--model " + path + " --timing reference");
  const auto cost = summary("--ranks 4 --cost F=56,B=112,W=56,FB=168,comm=2 --timing reference");
  const auto dataflow = summary("--model " + path);
  CHECK(model["timing"] == "reference");
  CHECK(model["sends"] == "rendezvous");
  CHECK(model["makespan"] == cost["makespan"]);
  CHECK(model["waits"] == cost["waits"]);
  CHECK(dataflow["timing"] == "dataflow");
  // DeepSeek's batched sends and receives make some ops wait on transfers the dataflow ideal skips.
  CHECK(model["makespan"].get<double>() > dataflow["makespan"].get<double>());
}

TEST_CASE("simulate --schedule-file --model prices a custom schedule with the model's stages", "[model_stages][cli]") {
  const std::string path = pipesim::test::write_scratch("tiny_custom.json", tiny_model);
  const std::string four_ranks =
      pipesim::test::write_scratch("four_ranks.txt", "0F0,0F1,0B0,0B1\n1F0,1B0,1F1,1B1\n2F0,2B0,2F1,2B1\n3F0,3B0,3F1,3B1\n");
  const auto r = pipesim::test::run_cli("simulate --schedule-file " + four_ranks + " --model " + path + " --format summary");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["ranks"] == 4);
  CHECK(j["micro_batches"] == 2);  // the file's, not the model's
  CHECK(j["model"]["layers_per_stage"] == nlohmann::json::array({1, 2, 2, 1}));
  // F 32, 56, 56, 38 and B 66, 112, 112, 76 per stage, comm 2. Micro-batch 0 forward ends at 188 and its
  // backward at 560 (rank 0); rank 1 runs F1 only after B0 (492..548), so micro-batch 1 reaches rank 2
  // at 550: F 550..606, rank 3 608..646, B 646..722, rank 2 724..836, rank 1 838..950, rank 0 952..1018.
  CHECK(j["makespan"] == 1018);
}

TEST_CASE("simulate --model: one micro-batch through 1F1B takes every stage's F and B and every send", "[model_stages][cli]") {
  const std::string path = pipesim::test::write_scratch("tiny.json", tiny_model);
  const auto r = pipesim::test::run_cli("simulate --schedule 1f1b --model " + path + " --format summary");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  // F: 32 + 56 + 56 + 38 = 182, B: 66 + 112 + 112 + 76 = 366, 3 sends each way at 2 ms: 12.
  CHECK(j["makespan"] == 560);
  CHECK(j["ranks"] == 4);  // the file's model.pp
  CHECK(j["micro_batches"] == 1);  // the file's model.micro_batches
  CHECK(j["cost_basis"] == "model-file");
  CHECK(j["model"]["layers_per_stage"] == nlohmann::json::array({1, 2, 2, 1}));
  CHECK(j["model"]["units"] == "ms");
  CHECK(j["stage_costs"][0]["F"] == 32);
  CHECK(j["stage_costs"][1]["F"] == 56);
  CHECK(j["formula"]["exact"] == false);  // the stages differ
}

TEST_CASE("simulate --model refuses, naming the field, layouts the model does not fit", "[model_stages][cli]") {
  const std::string path = pipesim::test::write_scratch("tiny_refusals.json", tiny_model);
  const auto refusal = [&](const std::string& extra) {
    const auto r = pipesim::test::run_cli("simulate --schedule 1f1b --model " + path + " " + extra);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    return r.err;
  };
  CHECK(refusal("--layers-per-stage 1,2,3") ==
        "pipesim: error[bad_value]: --layers-per-stage lists 3 stages but 1f1b on 4 ranks has 4 stages\n");
  CHECK(refusal("--layers-per-stage 1,2,2,2") ==
        "pipesim: error[bad_value]: --layers-per-stage adds up to 7 layers but the model file's model.layers is 6\n");
  CHECK(refusal("--layers-per-stage 3,0,2,1") ==
        "pipesim: error[bad_value]: --layers-per-stage gives stage 1 no layers: only the first and the last stage, which "
        "hold the embeddings, may have none\n");
  CHECK(refusal("--layers-per-stage 1,-2,2,5") ==
        "pipesim: error[bad_value]: --layers-per-stage entry 1 must be a whole number from 0 to 100000, got -2\n");
  CHECK(refusal("--ranks 3") ==
        "pipesim: error[bad_value]: --ranks 3 does not divide the model file's cluster.gpus (4): every pipeline stage needs "
        "as many GPUs as the others\n");
  CHECK(refusal("--ranks 300") ==
        "pipesim: error[bad_value]: --ranks must be from 1 to 256 with a model file, the pipeline sizes its model.pp may give (got 300)\n");
  CHECK(refusal("--cost F=1") ==
        "pipesim: error[usage]: --cost cannot be given with --model: the model file gives every stage's costs\n");
  const auto zbv = pipesim::test::run_cli("simulate --schedule zb-v --model " + path);
  CHECK(zbv.status == 2);
  CHECK(zbv.err ==
        "pipesim: error[bad_value]: model file: model.layers (6) is fewer than the 8 stages of zb-v on 4 ranks: every stage "
        "needs a layer (fewer ranks, or a schedule with fewer stages per rank)\n");
  const std::string two_ranks = pipesim::test::write_scratch("two_ranks.txt", "0F0,0F1,0B0,0B1\n1F0,1B0,1F1,1B1\n");
  const auto custom = pipesim::test::run_cli("simulate --schedule-file " + two_ranks + " --model " + path);
  CHECK(custom.status == 2);
  CHECK(custom.err == "pipesim: error[usage]: the schedule file has 2 ranks but the model file's model.pp is 4\n");
  const auto no_model = pipesim::test::run_cli("simulate --layers-per-stage 1,2");
  CHECK(no_model.status == 2);
  CHECK(no_model.err == "pipesim: error[usage]: --layers-per-stage applies only with --model FILE\n");
}

/// `text` with its model.pp set to `pp`, as a user would write the file for that pipeline size.
auto with_pipeline_size(const std::string& text, int pp) -> std::string {
  nlohmann::json file = nlohmann::json::parse(text);
  file["model"]["pp"] = pp;
  return file.dump();
}

TEST_CASE("simulate --model --ranks N cuts the file's cluster into N stages, as a file whose model.pp is N would", "[model_stages][cli]") {
  const std::string path = pipesim::test::write_scratch("tiny_ranks.json", tiny_model);
  const std::string two = pipesim::test::write_scratch("tiny_pp2.json", with_pipeline_size(tiny_model, 2));
  for (const std::string schedule : {"1f1b", "dualpipe", "gpipe"}) {
    const auto resized = pipesim::test::run_cli("simulate --schedule " + schedule + " --model " + path + " --ranks 2 --micro-batches 4 --format summary");
    const auto file = pipesim::test::run_cli("simulate --schedule " + schedule + " --model " + two + " --micro-batches 4 --format summary");
    REQUIRE(resized.status == 0);
    REQUIRE(file.status == 0);
    CHECK(resized.out == file.out);
    const auto j = nlohmann::json::parse(resized.out);
    CHECK(j["ranks"] == 2);
    CHECK(j["micro_batches"] == 4);
  }
  // 6 layers on 2 stages of 1F1B: 3 each; --micro-batches still defaults to the file's (1).
  const auto j = nlohmann::json::parse(pipesim::test::run_cli("simulate --schedule 1f1b --model " + path + " --ranks 2 --format summary").out);
  CHECK(j["model"]["layers_per_stage"] == nlohmann::json::array({3, 3}));
  CHECK(j["micro_batches"] == 1);
  // --ranks equal to model.pp is the file's own run.
  CHECK(pipesim::test::run_cli("simulate --model " + path + " --ranks 4 --format summary").out ==
        pipesim::test::run_cli("simulate --model " + path + " --format summary").out);
}

TEST_CASE("a model file at another pipeline size keeps the file's rules, refused naming the input that set the size", "[model_stages]") {
  const std::string moe = example("moe-one-node-ep.json");  // 64 GPUs, model.pp 8, model.ep 8
  const pipesim::PlanInput sixteen_stages_of_four = [&] {
    nlohmann::json file = nlohmann::json::parse(moe);
    file["model"].erase("ep");
    return pipesim::parse_plan_input(file.dump(), 16, "--ranks");
  }();
  // model.ep left to its default is chosen again for the new stage: gcd(8 experts, 64 / 16 GPUs) = 4.
  CHECK(sixteen_stages_of_four.model.pp == 16);
  CHECK(sixteen_stages_of_four.model.ep == 4);
  CHECK(pipesim::parse_plan_input(moe, 4, "ranks").model.ep == 8);  // as written: it divides 16 GPUs
  const auto refused = [&](int ranks, const char* name) {
    try {
      (void)pipesim::parse_plan_input(moe, ranks, name);
    } catch (const Error& e) {
      CHECK(e.field() == "ranks");
      return std::pair(std::string(e.what()), e.wording());
    }
    FAIL("accepted");
    return std::pair(std::string(), pipesim::Wording{});
  };
  const auto [split, split_wording] = refused(16, "ranks");
  CHECK(split == "ranks 16 leaves 4 GPUs to a pipeline stage (cluster.gpus / ranks), which the model file's model.ep (8) does not divide");
  CHECK(split_wording.key == "model.ranks_split_ep");
  CHECK(split_wording.params == std::vector<std::pair<std::string, std::string>>{{"field", "ranks"}, {"ranks", "16"}, {"per_stage", "4"}, {"ep", "8"}});
  const auto [divide, divide_wording] = refused(5, "--ranks");
  CHECK(divide == "--ranks 5 does not divide the model file's cluster.gpus (64): every pipeline stage needs as many GPUs as the others");
  CHECK(divide_wording.key == "model.ranks_divide_gpus");
  for (const int ranks : {0, -1, 257, 4096}) CHECK(refused(ranks, "ranks").second.key == "model.ranks_range");
  // The file itself must hold: its own model.pp is checked as written, whatever the new size.
  CHECK(pipesim::test::refused_wording([&] { (void)pipesim::parse_plan_input(with_pipeline_size(moe, 5), 8, "ranks"); }).key == "plan.gpus_multiple_of_pp");
}

TEST_CASE("an end stage without layers needs embeddings to do any work", "[model_stages]") {
  std::string text = tiny_model;
  text.replace(text.find("\"vocab\": 5000"), 13, "\"vocab\": 0");
  CHECK_THROWS_MATCHES(pipesim::divide_model(pipesim::parse_plan_input(text), 4, {0, 3, 3, 0}, "1f1b on 4 ranks"), Error,
                       Refused(ErrorCode::bad_value, "--layers-per-stage gives stage 0 no layers, and the model has no "
                                                     "embeddings (model.vocab is 0): the stage would do no work"));
}

TEST_CASE("given totals too small for the embeddings are refused, naming the field", "[model_stages]") {
  std::string text = tiny_model;
  text.replace(text.find("\"pp\": 4"), 7, "\"pp\": 4, \"params_b\": 0.005");
  CHECK_THROWS_MATCHES(pipesim::divide_model(pipesim::parse_plan_input(text), 4, {}, "1f1b on 4 ranks"), Error,
                       Refused(ErrorCode::bad_value, "model file: model.params_b (0.005B) leaves nothing for the layers once "
                                                     "the embeddings (2 x vocab x hidden = 0.01B) are taken out"));
}

TEST_CASE("bytes per rank: the stages it holds, and each live chunk weighed by its stage's activations", "[model_stages][memory]") {
  // The tiny model on 1F1B, 4 micro-batches. A layer's activations: T x (8h + h + 3 x 3000) values x 2
  // bytes = 1000 x 18000 x 2 = 36e6 bytes; stage 0 holds 1 layer (36e6 a chunk), stage 1 2 (72e6).
  // Weights 2, gradients 4, optimizer 12 bytes a parameter; one replica (4 GPUs, pp 4), one copy.
  const std::string path = pipesim::test::write_scratch("tiny_memory.json", tiny_model);
  const auto r = pipesim::test::run_cli("simulate --schedule 1f1b --model " + path + " --micro-batches 4 --format json");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["memory"]["units"] == "bytes");
  CHECK(j["memory"]["gpu_bytes"] == 80e9);
  CHECK(j["memory"]["fits"] == true);
  const auto& rank0 = j["per_rank"][0]["memory_bytes"];
  CHECK(rank0["stages"] == nlohmann::json::array({0}));
  CHECK(rank0["weights"] == 36e6);     // 18e6 parameters x 2
  CHECK(rank0["gradients"] == 72e6);   // x 4
  CHECK(rank0["optimizer"] == 216e6);  // x 12
  // 1F1B's rank 0 holds 4 chunks once its fourth forward starts, at 3 x 32 ms.
  CHECK(rank0["activations_peak"] == 4 * 36e6);
  CHECK(rank0["activations_peak_time"] == 96);
  CHECK(rank0["total"] == 36e6 + 72e6 + 216e6 + 144e6);
  CHECK(rank0["activation_curve"][1] == nlohmann::json::array({32, 72e6}));
  const auto& rank1 = j["per_rank"][1]["memory_bytes"];
  CHECK(rank1["weights"] == 52e6);  // 2 layers: 26e6 parameters
  CHECK(rank1["activations_peak"] == 3 * 72e6);  // 3 chunks of 2 layers
  CHECK(j["per_rank"][1]["peak_activations"] == 3);
}

TEST_CASE("DualPipe holds every stage twice and shards the optimizer state over both copies", "[model_stages][memory]") {
  const std::string path = pipesim::test::write_scratch("tiny_dualpipe.json", tiny_model);
  const auto r = pipesim::test::run_cli("simulate --schedule dualpipe --model " + path + " --micro-batches 8 --format summary");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  const auto& rank0 = j["per_rank"][0]["memory_bytes"];
  // Rank 0 runs stage 0 one way and stage 3 the other: both ends, 18e6 parameters each.
  CHECK(rank0["stages"] == nlohmann::json::array({0, 3}));
  CHECK(rank0["weights"] == 2 * 18e6 * 2);
  CHECK(rank0["gradients"] == 2 * 18e6 * 4);
  CHECK(rank0["optimizer"] == 2 * 18e6 * 12 / 2);
  CHECK_FALSE(rank0.contains("activation_curve"));  // the summary leaves the curve out
}

TEST_CASE("a rank over the GPU's memory makes the run not fit", "[model_stages][memory]") {
  std::string text = tiny_model;
  text.replace(text.find("\"memory_gb\": 80"), 15, "\"memory_gb\": 1");
  text.replace(text.find("\"seq_len\": 1000"), 15, "\"seq_len\": 10000");
  const std::string path = pipesim::test::write_scratch("tiny_small_gpu.json", text);
  const auto r = pipesim::test::run_cli("simulate --schedule gpipe --model " + path + " --micro-batches 8 --format summary");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  // GPipe's rank 1 keeps all 8 chunks of 2 layers: 8 x 10000 x 18000 x 2 x 2 = 5.76e9 bytes > 1e9.
  CHECK(j["per_rank"][1]["memory_bytes"]["activations_peak"] == 5.76e9);
  CHECK(j["per_rank"][1]["memory_bytes"]["fits"] == false);
  CHECK(j["memory"]["fits"] == false);
}

TEST_CASE("a model that does not fit its stages is refused with its rule's key and the counts it quotes", "[model_stages]") {
  using Params = std::vector<std::pair<std::string, std::string>>;
  const auto wording_of = [](const auto& call) { return pipesim::test::refused_wording(call); };
  const pipesim::PlanInput tiny = tiny_input();
  const auto divide = [&](int stages, std::vector<int> layers) {
    return [&tiny, stages, layers] { (void)pipesim::divide_model(tiny, stages, layers, "1f1b on 4 ranks"); };
  };
  const pipesim::Wording count = wording_of(divide(4, {1, 2, 3}));
  CHECK(count.key == "layers_per_stage.count");
  CHECK(count.params == Params{{"listed", "3"}, {"stages", "4"}});
  const pipesim::Wording sum = wording_of(divide(4, {1, 2, 2, 2}));
  CHECK(sum.key == "layers_per_stage.sum");
  CHECK(sum.params == Params{{"sum", "7"}, {"layers", "6"}});
  const pipesim::Wording middle = wording_of(divide(4, {3, 0, 2, 1}));
  CHECK(middle.key == "layers_per_stage.middle_empty");
  CHECK(middle.params == Params{{"stage", "1"}});
  // 6 layers cannot fill the 8 stages of a two-stage-per-rank schedule on 4 ranks.
  const pipesim::Wording fewer = wording_of(divide(8, {}));
  CHECK(fewer.key == "model.fewer_layers_than_stages");
  CHECK(fewer.params == Params{{"layers", "6"}, {"stages", "8"}});

  std::string no_vocab = tiny_model;
  no_vocab.replace(no_vocab.find("\"vocab\": 5000"), 13, "\"vocab\": 0");
  const pipesim::Wording end = wording_of([&] { (void)pipesim::divide_model(pipesim::parse_plan_input(no_vocab), 4, {0, 3, 3, 0}, "x"); });
  CHECK(end.key == "layers_per_stage.end_empty");
  CHECK(end.params == Params{{"stage", "0"}});
  // 0.005B given, the embeddings alone 2 x 5000 x 1000 = 0.01B.
  std::string small = tiny_model;
  small.replace(small.find("\"pp\": 4"), 7, "\"pp\": 4, \"params_b\": 0.005");
  const pipesim::Wording nothing = wording_of([&] { (void)pipesim::divide_model(pipesim::parse_plan_input(small), 4, {}, "x"); });
  CHECK(nothing.key == "model.nothing_for_layers");
  CHECK(nothing.params == Params{{"name", "model.params_b"}, {"given", "0.005"}, {"embeddings", "0.01"}});

  // A schedule given as text brings its own rank count: 2 ranks against the file's pp of 4.
  pipesim::RunRequest custom;
  custom.schedule = "custom";
  custom.custom_schedule = "0F0,0F1,0B0,0B1\n1F0,1B0,1F1,1B1\n";
  const pipesim::Wording ranks =
      wording_of([&] { (void)pipesim::model_request(tiny, custom, pipesim::schedule_from_text(custom.custom_schedule), {}); });
  CHECK(ranks.key == "model.schedule_ranks");
  CHECK(ranks.params == Params{{"ranks", "2"}, {"pp", "4"}});
}
