// The chunk-pair overlap model (DeepSeek-V3 Fig. 4): lanes, bounds, SM split, ratio, workloads, costs.
#include <catch2/catch.hpp>

#include <random>

#include "pipesim/error.h"
#include "pipesim/overlap.h"
#include "pipesim/overlap_request.h"
#include "pipesim/run.h"
#include "pipesim/workload.h"

using namespace pipesim;

namespace {

auto durations(ForwardDurations f, BackwardDurations b, double pp = 0) -> ChunkDurations { return {f, b, pp}; }

auto slot(const LaneSchedule& s, Pass pass, Part part) -> Slot {
  for (const Slot& x : s.slots)
    if (x.component == Component{pass, part}) return x;
  FAIL("no slot for " << figure_label({pass, part}));
  return {};
}

auto compute_sum(const ChunkDurations& d) -> double {
  return d.forward.attn + d.forward.mlp + d.backward.mlp_b + d.backward.mlp_w + d.backward.attn_b + d.backward.attn_w;
}

auto random_durations(std::mt19937& rng) -> ChunkDurations {
  std::uniform_real_distribution<double> u(0, 10);
  // Some zeros too: absent components must not break the bounds.
  const auto v = [&] { return rng() % 7 == 0 ? 0.0 : u(rng); };
  return durations({v(), v(), v(), v()}, {v(), v(), v(), v(), v(), v()}, v());
}

}  // namespace

TEST_CASE("overlap: communication shorter than the opposite compute is fully hidden") {
  // Each comm component fits under the compute it is paired with in Fig. 4.
  const auto d = durations({.attn = 2, .dispatch = 1, .mlp = 3, .combine = 1},
                           {.combine = 1, .mlp_b = 2, .mlp_w = 2, .dispatch = 1, .attn_b = 2, .attn_w = 2}, 1);
  const Overlap o = simulate_overlap(d);
  CHECK(o.fb == compute_sum(d));  // 13: the compute lane never waits
  CHECK(o.fb == o.pair.compute);
  CHECK(o.exposed_comm == 0);
  CHECK(o.hidden_fraction == 1);
  CHECK(o.f == 2 + 1 + 3 + 1 + 1);                   // a chain: nothing of one chunk overlaps itself
  CHECK(o.b == 1 + 2 + std::max(2, 1) + 2 + std::max(2, 1));  // MLP(W) hides DISPATCH(B), ATTN(W) hides PP(B)
  CHECK(o.sequential == o.f + o.b);
  // The lane orders of Fig. 4: COMBINE(B) under ATTN(F), DISPATCH(F) under MLP(B), ...
  CHECK(slot(o.pair, Pass::backward, Part::combine).start == 0);
  CHECK(slot(o.pair, Pass::forward, Part::attn).start == 0);
  CHECK(slot(o.pair, Pass::forward, Part::dispatch).start == 2);
  CHECK(slot(o.pair, Pass::backward, Part::mlp_b).start == 2);
  CHECK(slot(o.pair, Pass::backward, Part::dispatch).start == 4);
  CHECK(slot(o.pair, Pass::forward, Part::mlp).start == 6);
  CHECK(slot(o.pair, Pass::forward, Part::combine).start == 9);
  CHECK(slot(o.pair, Pass::backward, Part::attn_b).start == 9);
  CHECK(slot(o.pair, Pass::backward, Part::pp).end == 12);
  CHECK(o.pair.slots.size() == 12);
  CHECK(o.forward.slots.size() == 5);
  CHECK(o.backward.slots.size() == 7);
}

TEST_CASE("overlap: communication twice the compute leaves a hand-derived exposed time") {
  // Every compute component 1 (Σ = 6), every all-to-all 3 (Σ = 12 = 2 × compute), no PP.
  const auto d = durations({1, 3, 1, 3}, {3, 1, 1, 3, 1, 1});
  // Hand derivation of the pair (lane order from Fig. 4, each item after its lane and its predecessor):
  //   comm:    COMBINE(B) [0,3]   DISPATCH(F) [3,6] (lane)   DISPATCH(B) [6,9] (lane)   COMBINE(F) [9,12]
  //   compute: ATTN(F) [0,1]   MLP(B) [3,4] (waits COMBINE(B))   MLP(W) [4,5]   MLP(F) [6,7] (waits
  //            DISPATCH(F))   ATTN(B) [9,10] (waits DISPATCH(B))   ATTN(W) [10,11]
  // The comm lane never rests, so fb = 12; compute is busy 6 of it: exposed = 12 - 6 = 6, hidden 6/12.
  const Overlap o = simulate_overlap(d);
  CHECK(o.fb == 12);
  CHECK(o.exposed_comm == 6);
  CHECK(o.exposed_comm > 0);
  CHECK(o.hidden_fraction == 0.5);
  CHECK(o.f == 8);      // 1 + 3 + 1 + 3
  CHECK(o.b == 9);      // 3 + 1 + max(1, 3) + 1 + max(1, 0)
  CHECK(o.sequential == 17);
  CHECK(slot(o.pair, Pass::backward, Part::attn_w).end == 11);
}

TEST_CASE("overlap: a PP send waits for its chunk's last output and its lane") {
  const auto d = durations({1, 1, 1, 1}, {1, 1, 1, 1, 1, 1}, 2);
  const Overlap o = simulate_overlap(d);
  // comm: COMBINE(B) [0,1] DISPATCH(F) [1,2] DISPATCH(B) [2,3] COMBINE(F) [4,5] (after MLP(F) [3,4])
  // ATTN(B) [4,5], ATTN(W) [5,6]; PP(F) [5,7], then PP(B) [7,9] behind it on the lane, exposed past ATTN(W).
  CHECK(slot(o.pair, Pass::forward, Part::pp).start == 5);
  CHECK(slot(o.pair, Pass::backward, Part::pp).start == 7);
  CHECK(o.fb == 9);
  CHECK(o.exposed_comm == 3);  // compute busy 6 of 9
}

TEST_CASE("overlap: F&B always lies in [max(F, B), F + B] (random durations)") {
  std::mt19937 rng(20241227);
  for (int i = 0; i < 2000; ++i) {
    const ChunkDurations d = random_durations(rng);
    const Overlap o = simulate_overlap(d);
    INFO("case " << i);
    REQUIRE(o.fb >= std::max(o.f, o.b) - 1e-9);
    REQUIRE(o.fb <= o.f + o.b + 1e-9);
    REQUIRE(o.exposed_comm >= 0);
    REQUIRE(o.exposed_comm <= o.pair.comm + 1e-9);
    REQUIRE(o.hidden_fraction >= 0);
    REQUIRE(o.hidden_fraction <= 1);
    REQUIRE(o.fb >= compute_sum(d) - 1e-9);
    REQUIRE_NOTHROW(validate_costs(overlap_costs(o)));
  }
}

TEST_CASE("overlap: fewer communication SMs lengthen communication and shorten compute") {
  const auto d = durations({4, 2, 6, 2}, {2, 6, 6, 2, 4, 4}, 1);
  const Overlap at20 = run_overlap({d, SmSplit{20, 132, 20}, {}, {}, ""});
  const Overlap at10 = run_overlap({d, SmSplit{10, 132, 20}, {}, {}, ""});
  const Overlap at40 = run_overlap({d, SmSplit{40, 132, 20}, {}, {}, ""});
  // Compute runs on total - comm SMs: x 132/112 at 20 SMs, x 132/122 at 10.
  CHECK(at20.durations.forward.attn == Approx(4 * 132.0 / 112));
  CHECK(at10.durations.forward.attn == Approx(4 * 132.0 / 122));
  CHECK(at10.durations.forward.attn < at20.durations.forward.attn);
  // Communication saturates at 20 SMs: unchanged at 20 and 40, twice as long at 10.
  CHECK(at20.durations.forward.dispatch == 2);
  CHECK(at40.durations.forward.dispatch == 2);
  CHECK(at10.durations.forward.dispatch == 4);
  CHECK(at10.durations.pp == 2);
  CHECK(at40.durations.backward.mlp_w == Approx(6 * 132.0 / 92));
  CHECK(compute_stretch({20, 132, 20}) == Approx(132.0 / 112));
  CHECK(comm_stretch({5, 132, 20}) == 4);
  CHECK(comm_stretch({30, 132, 20}) == 1);
  // Over every split of 132 SMs: one SM fewer for communication never lengthens compute and never
  // shortens communication.
  for (int comm = 2; comm < 132; ++comm) {
    const ChunkDurations more = apply_sm_split(d, {comm, 132, 20});
    const ChunkDurations fewer = apply_sm_split(d, {comm - 1, 132, 20});
    CHECK(fewer.backward.attn_b < more.backward.attn_b);
    CHECK(fewer.backward.dispatch >= more.backward.dispatch);
    CHECK((comm <= 20) == (fewer.backward.dispatch > more.backward.dispatch));
  }
  // Without a split nothing stretches: 'sequential' is f + b of the durations as measured.
  const Overlap plain = run_overlap({d, std::nullopt, {}, {}, ""});
  CHECK(plain.durations.forward.attn == 4);
  CHECK(plain.sequential == plain.f + plain.b);
  CHECK(at20.f > plain.f);
}

TEST_CASE("overlap: the ratio knob scales the all-to-alls to the requested compute:comm") {
  const auto d = durations({2, 1, 4, 1}, {1, 4, 4, 1, 2, 2}, 3);  // compute 18, all-to-all 4
  const ChunkDurations one = scale_to_ratio(d, 1);
  CHECK(one.forward.dispatch == 4.5);  // x 18/4
  CHECK(one.backward.combine == 4.5);
  CHECK(one.forward.attn == 2);        // compute untouched
  CHECK(one.pp == 3);                  // PP untouched: the ratio is about expert parallelism
  const ChunkDurations two = scale_to_ratio(d, 2);  // 2:1 → all-to-all 9
  CHECK(two.forward.dispatch + two.forward.combine + two.backward.combine + two.backward.dispatch == 9);
  const Overlap o = run_overlap({d, std::nullopt, 1.0, {}, ""});
  CHECK(o.comm_scale == 4.5);
  CHECK(o.durations.forward.combine == 4.5);
  CHECK_THROWS_WITH(scale_to_ratio(d, 0), "the compute:comm ratio must be a finite number > 0, got 0");
  CHECK_THROWS_WITH(scale_to_ratio(durations({1, 0, 1, 0}, {0, 1, 1, 0, 1, 1}), 1),
                    "cannot scale communication to a compute:comm ratio: every all-to-all duration is 0");
}

TEST_CASE("overlap: the pipeline costs come from the chunk model and pass the engine's validation") {
  const auto d = durations({1, 3, 1, 3}, {3, 1, 1, 3, 1, 1});
  const Costs c = overlap_costs(simulate_overlap(d));
  CHECK(c.f == 8);
  CHECK(c.b == 9);
  CHECK(c.w == 2);  // MLP(W) + ATTN(W)
  CHECK(c.fb == 12);
  CHECK(c.comm == 0);
  REQUIRE_NOTHROW(validate_costs(c));
  RunRequest request{"dualpipe", {8, 20, 1}, c};
  const Run r = run(request);
  CHECK(r.costs.fb == 12);
  CHECK(r.metrics.makespan > 0);
}

TEST_CASE("overlap: a chunk model no pipeline cost can take is refused, however it was stretched") {
  // Found by fuzz_overlap: an SM split whose saturation count dwarfs the communication SMs stretched
  // the all-to-alls past the largest cost, and overlap_costs then gave costs validate_costs refuses.
  const auto d = durations({4, 1000, 6, 1000}, {1000, 6, 6, 1000, 4, 4});
  CHECK_THROWS_WITH(run_overlap({d, SmSplit{1, 2, 2'000'000'000}, {}, {}, ""}),
                    Catch::StartsWith("the chunk model gives F = ") &&
                        Catch::EndsWith(", which no pipeline cost can be: costs are 0 or between 0.000001 and 1000000000000"));
  CHECK_THROWS_WITH(simulate_overlap(durations({6e11, 0, 6e11, 0}, {0, 1, 1, 0, 1, 1})),
                    "the chunk model gives F = 1200000000000, which no pipeline cost can be: costs are 0 or between "
                    "0.000001 and 1000000000000");
  CHECK_THROWS_WITH(simulate_overlap(durations({1e-7, 0, 0, 0}, {0, 1, 1, 0, 1, 1})),
                    Catch::StartsWith("the chunk model gives F = "));
  // A chunk with no work at all has no costs to give either (found the same way, one step from a seed).
  CHECK_THROWS_WITH(simulate_overlap(durations({0, 0, 0, 0}, {0, 0, 0, 0, 0, 0})),
                    "the chunk model gives F = B = 0: a chunk with no computation and no communication has "
                    "nothing to overlap and no cost to give a pipeline");
  // Up to the bound the model stands, and its costs pass the engine's validation.
  const Overlap largest = simulate_overlap(durations({5e11, 0, 5e11, 0}, {0, 1, 1, 0, 1, 1}));
  CHECK(largest.f == 1e12);
  REQUIRE_NOTHROW(validate_costs(overlap_costs(largest)));
}

TEST_CASE("overlap: durations parse from NAME=VALUE lists and bad ones are refused in one line") {
  const ForwardDurations f = parse_forward_durations("attn=1, dispatch=2.5,mlp=3,combine=0");
  CHECK(f.dispatch == 2.5);
  CHECK(f.combine == 0);
  const BackwardDurations b = parse_backward_durations("combine=1,mlp_b=2,mlp_w=3,dispatch=4,attn_b=5,attn_w=6");
  CHECK(b.attn_w == 6);
  CHECK_THROWS_WITH(parse_forward_durations("attn=1,dispatch=2,combine=3"),
                    "forward component mlp is missing; give all of attn, dispatch, mlp, combine");
  CHECK_THROWS_WITH(parse_forward_durations("attn=-1,dispatch=2,mlp=3,combine=1"),
                    "forward component attn must be a number >= 0, got '-1'");
  CHECK_THROWS_WITH(parse_forward_durations("attn=x,dispatch=2,mlp=3,combine=1"),
                    "forward component attn must be a number >= 0, got 'x'");
  CHECK_THROWS_WITH(parse_forward_durations("attn=1,dispatch=2,mlp=3,combine=1,mlp_b=2"),
                    "unknown forward component 'mlp_b'; forward components are attn, dispatch, mlp, combine");
  CHECK_THROWS_WITH(parse_backward_durations("combine=1,combine=2"), "backward component combine is given twice");
  CHECK_THROWS_WITH(parse_backward_durations("combine"), Catch::Contains("must be NAME=VALUE"));
  CHECK_THROWS_WITH(simulate_overlap(durations({-1, 0, 0, 0}, {})),
                    "duration of ATTN(F) must be a finite number >= 0, got -1");
  CHECK_THROWS_WITH(validate_sm_split({132, 132, 20}),
                    "communication SMs must be at least 1 and fewer than the total SMs (132), got 132");
  CHECK_THROWS_AS(validate_sm_split({0, 132, 20}), Error);
}

TEST_CASE("workload: DeepSeek-V3's numbers give durations checked by hand") {
  Workload w = deepseek_v3_workload();
  w.sms = std::nullopt;
  const OverlapInput in = derive_durations(w);
  const ChunkDurations& d = in.durations;
  // DISPATCH(F): IB 4096 tokens x 4 nodes x 7168 x 1 B = 117440512 B at 50 GB/s = 2348.81024 us;
  // NVLink 4096 x 8 experts x 7168 x 1 B = 234881024 B at 160 GB/s = 1468.0064 us; the slower hop wins.
  CHECK(d.forward.dispatch == Approx(2348.81024));
  // COMBINE(F) and both backward all-to-alls carry BF16 (2 B): twice the IB time.
  CHECK(d.forward.combine == Approx(4697.62048));
  CHECK(d.backward.combine == Approx(4697.62048));
  CHECK(d.backward.dispatch == Approx(4697.62048));
  // MLP(F): 4096 x (8 + 1) x 6 x 7168 x 2048 = 3246995275776 FLOP at 400 TFLOP/s = 8117.48818944 us.
  CHECK(d.forward.mlp == Approx(8117.48818944));
  CHECK(d.backward.mlp_b == d.forward.mlp);
  CHECK(d.backward.mlp_w == d.forward.mlp);
  // ATTN(F): 4096 x (2 x 187105280 + 2 x 4096 x 20480) = 4096 x 541982720 FLOP = 5549.90305 us.
  CHECK(d.forward.attn == Approx(4096.0 * 541982720 / 400e6));
  // ATTN(W): 4096 x 2 x 187105280 FLOP = 3831.91613 us; ATTN(B) adds the scores twice.
  CHECK(d.backward.attn_w == Approx(4096.0 * 374210560 / 400e6));
  CHECK(d.backward.attn_b == Approx(4096.0 * (374210560 + 4.0 * 4096 * 20480) / 400e6));
  // PP: 4096 x 7168 x 2 B = 58720256 B at 50 GB/s = 1174.40512 us.
  CHECK(d.pp == Approx(1174.40512));
  // Every component carries its formula and the numbers plugged in.
  REQUIRE(in.derivation.size() == 12);
  CHECK(in.derivation[1].formula == "L·max(T·M·h·e / BW_IB, T·k·h·e / BW_NV)");
  CHECK(in.derivation[1].worked ==
        "1·max(4096·4·7168·1 B / 50 GB/s, 4096·8·7168·1 B / 160 GB/s) = 1·max(2348.81, 1468.01) = 2348.81 us");
  CHECK(in.derivation[2].formula == "L·T·(k+s)·6·h·h_e / X");
  CHECK(in.unit == "us");
}

TEST_CASE("workload: the SM split is applied after derivation and shows in the derivation") {
  const Overlap o = run_overlap(derive_durations(deepseek_v3_workload()));  // 20 of 132 SMs
  CHECK(o.durations.forward.mlp == Approx(8117.48818944 * 132 / 112));
  CHECK(o.durations.forward.dispatch == Approx(2348.81024));
  CHECK(o.derivation[2].formula == "L·T·(k+s)·6·h·h_e / X × total/(total-comm)");
  CHECK(o.derivation[2].worked.find(", × 132/112 = 9567.04 us") != std::string::npos);
  CHECK(o.derivation[2].measured == Approx(8117.48818944));
  CHECK(o.fb >= std::max(o.f, o.b));
  CHECK(o.fb <= o.sequential);
}

TEST_CASE("workload: a refusal carries its rule and values so the page can word it in any language") {
  const auto wording_of = [](const std::string& input) -> pipesim::Wording {
    try {
      (void)parse_workload(input);
    } catch (const pipesim::Error& e) {
      return e.wording();
    }
    FAIL("accepted: " << input);
    return {};
  };
  using Params = std::vector<std::pair<std::string, std::string>>;
  const std::string base = R"("tokens": 4096, "hidden": 7168, "experts": 256, "top_k": 8, "expert_hidden": 2048,
      "nodes_per_token": 4, "bytes_per_element": 1, "gpu_tflops": 400, "nvlink_gbps": 160, "ib_gbps": 50)";
  CHECK(wording_of(R"({"tokens": 4096})").key == "workload.missing");
  CHECK(wording_of(R"({"tokens": 4096})").params.front() == std::pair<std::string, std::string>{"name", "hidden"});
  CHECK(wording_of("{" + base + R"(, "hiden": 1})").key == "workload.unknown_field");
  CHECK(wording_of(R"({"tokens": true})").params == Params{{"name", "tokens"}, {"value", "true"}});
  CHECK(wording_of(R"({"tokens": -1})").params == Params{{"name", "tokens"}, {"min", "1"}, {"value", "-1"}});
  CHECK(wording_of(R"({"tokens": -1})").key == "workload.whole");
  CHECK(wording_of(R"({"gpu_tflops": 0})").key == "workload.positive");
  CHECK(wording_of(R"({"sequence": -2})").key == "workload.non_negative");
  CHECK(wording_of("[1, 2]").key == "workload.not_object");
  CHECK(wording_of(R"({"tokens": 4096,)").key == "workload.not_json");
  CHECK(wording_of("{" + base + R"(, "total_sms": 100})").key == "workload.sms_need_comm");
  CHECK(wording_of("{" + base + R"(, "comm_sms": 132, "total_sms": 132})").params == Params{{"total", "132"}, {"value", "132"}});
  CHECK(wording_of("{" + base + R"(, "top_k": 300})").key == "workload.top_k");
  CHECK(wording_of("{" + base + R"(, "nodes_per_token": 9})").params == Params{{"nodes", "9"}, {"top_k", "8"}});
}

TEST_CASE("workload: JSON input is strict and every mistake is one clear line") {
  const std::string base = R"("tokens": 4096, "hidden": 7168, "experts": 256, "top_k": 8, "expert_hidden": 2048,
      "nodes_per_token": 4, "bytes_per_element": 1, "gpu_tflops": 400, "nvlink_gbps": 160, "ib_gbps": 50)";
  const Workload w = parse_workload("{" + base + "}");
  CHECK(w.attention_params == 4.0 * 7168 * 7168);  // defaults: 4h², d_a = h, S = T, no shared expert
  CHECK(w.attention_dim == 7168);
  CHECK(w.sequence == 4096);
  CHECK(w.shared_experts == 0);
  CHECK(w.combine_bytes_per_element == 1);
  CHECK_FALSE(w.sms.has_value());
  const Workload split = parse_workload("{" + base + R"(, "comm_sms": 20})");
  REQUIRE(split.sms.has_value());
  CHECK(split.sms->total_sms == 132);

  CHECK_THROWS_WITH(parse_workload(R"({"tokens": 4096})"),
                    "workload field 'hidden' is missing; required fields are tokens, hidden, experts, top_k, "
                    "expert_hidden, nodes_per_token, bytes_per_element, gpu_tflops, nvlink_gbps, ib_gbps");
  CHECK_THROWS_WITH(parse_workload("{" + base + R"(, "hiden": 1})"),
                    Catch::StartsWith("unknown workload field 'hiden'; fields are tokens, hidden"));
  CHECK_THROWS_WITH(parse_workload(R"({"tokens": "4096"})"), "workload field 'tokens' must be a number, got \"4096\"");
  CHECK_THROWS_WITH(parse_workload(R"({"tokens": true})"), "workload field 'tokens' must be a number, got true");
  CHECK_THROWS_WITH(parse_workload(R"({"tokens": -1})"), "workload field 'tokens' must be a whole number >= 1, got -1");
  CHECK_THROWS_WITH(parse_workload(R"({"gpu_tflops": 0})"), "workload field 'gpu_tflops' must be a number > 0, got 0");
  CHECK_THROWS_WITH(parse_workload("{" + base + R"(, "comm_sms": 132, "total_sms": 132})"),
                    "communication SMs must be at least 1 and fewer than the total SMs (132), got 132");
  CHECK_THROWS_WITH(parse_workload("{" + base + R"(, "total_sms": 100})"), Catch::Contains("need comm_sms"));
  CHECK_THROWS_WITH(parse_workload("[1, 2]"), Catch::StartsWith("a workload must be a JSON object of numbers"));
  CHECK_THROWS_WITH(parse_workload(R"({"tokens": 4096,)"), Catch::StartsWith("workload is not valid JSON: "));
  CHECK_THROWS_WITH(parse_workload(""), Catch::StartsWith("workload is not valid JSON: "));
  CHECK_THROWS_WITH(parse_workload("{" + base + R"(, "nodes_per_token": 9})"),
                    Catch::StartsWith("workload nodes_per_token (9) must not exceed top_k (8)"));
  for (const char* bad : {R"({"tokens": 4096,)", "{x}", "", "[1, 2]", R"({"tokens": null})"}) {
    INFO(bad);
    try {
      (void)parse_workload(bad);
      FAIL("accepted");
    } catch (const Error& e) {
      CHECK(std::string(e.what()).find('\n') == std::string::npos);
    }
  }
}

TEST_CASE("workload_json writes what parse_workload reads back") {
  const pipesim::Workload w = pipesim::deepseek_v3_workload();
  const pipesim::Workload back = pipesim::parse_workload(pipesim::workload_json(w).dump());
  CHECK(pipesim::workload_json(back) == pipesim::workload_json(w));
  CHECK(back.sms->comm_sms == 20);
}

TEST_CASE("the chunk derivation's words are in the language asked, its numbers the same in every language") {
  OverlapRequest request;
  request.forward = "attn=1,dispatch=1,mlp=1,combine=1";
  request.backward = "combine=1,mlp_b=1,mlp_w=1,dispatch=1,attn_b=1,attn_w=1";
  request.comm_sms = 20;  // 132 SMs: compute stretched by 132/112, comm not (20 reach saturation)
  request.ratio = "1:1";  // Σcompute 6 / Σall-to-all 4 = 1.5: each all-to-all × 1.5
  const auto words = [&](const std::string& language) {
    OverlapRequest r = request;
    r.language = language;
    return run_overlap(make_overlap_input(r, FieldNames::js_keys)).derivation;
  };
  const auto en = words("en");
  const auto pt = words("pt-BR");
  const auto zh = words("zh-CN");
  REQUIRE(en.size() == pt.size());
  REQUIRE(en.size() == zh.size());
  // ATTN(F), a compute duration, and DISPATCH(F), an all-to-all.
  CHECK(en[0].formula == "given × total/(total-comm)");
  CHECK(pt[0].formula == "dado × total/(total-com)");
  CHECK(zh[0].formula == "给定值 × 总数/(总数-通信)");
  CHECK(en[1].formula == "given × r × max(1, saturation/comm)");
  CHECK(pt[1].formula == "dado × r × max(1, saturação/com)");
  CHECK(zh[1].formula == "给定值 × r × max(1, 饱和数/通信)");
  CHECK(en[1].worked == "1, × 1.5 (scaled to compute:all-to-all = 1) = 1.5, × max(1, 20/20) = 1.5");
  CHECK(pt[1].worked == "1, × 1.5 (escalado para computação:all-to-all = 1) = 1.5, × max(1, 20/20) = 1.5");
  CHECK(zh[1].worked == "1, × 1.5 (按 计算:all-to-all = 1 缩放) = 1.5, × max(1, 20/20) = 1.5");
  for (std::size_t i = 0; i < en.size(); ++i) {
    CHECK(pt[i].value == en[i].value);
    CHECK(zh[i].value == en[i].value);
  }
}

TEST_CASE("a workload's derivation quotes its formulas in symbols and its words in the language asked") {
  OverlapRequest request;  // no durations: DeepSeek-V3's workload, derived term by term
  request.comm_sms = 20;
  request.language = "pt-BR";
  const auto d = run_overlap(make_overlap_input(request, FieldNames::js_keys)).derivation;
  CHECK(d[0].formula == "L·T·(2·P_a + 2·S·d_a) / X × total/(total-com)");
  CHECK(d[0].worked.find("= 5549.9 us, × 132/112 = 6540.96 us") != std::string::npos);
}

TEST_CASE("an overlap request in an unknown language is refused naming the language field") {
  OverlapRequest request;
  request.language = "fr";
  try {
    (void)make_overlap_input(request, FieldNames::js_keys);
    FAIL("fr was accepted");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::unknown_name);
    CHECK(e.field() == "language");
    CHECK(std::string(e.what()) == "unknown language 'fr'; languages are en, pt-BR, zh-CN");
  }
}

TEST_CASE("a chunk request's refusal carries its rule and the fields' names as the caller spells them") {
  using Params = std::vector<std::pair<std::string, std::string>>;
  const auto wording_of = [](const OverlapRequest& r, FieldNames names) -> Wording {
    try {
      (void)make_overlap_input(r, names);
    } catch (const Error& e) {
      return e.wording();
    }
    FAIL("accepted");
    return {};
  };
  OverlapRequest ratio;
  ratio.ratio = "1:0";
  CHECK(wording_of(ratio, FieldNames::js_keys).key == "chunk.ratio");
  CHECK(wording_of(ratio, FieldNames::cli_options).params == Params{{"name", "--ratio"}, {"value", "1:0"}});
  ratio.ratio = "1:1e7";
  CHECK(wording_of(ratio, FieldNames::js_keys).key == "chunk.ratio_range");
  CHECK(wording_of(ratio, FieldNames::js_keys).params == Params{{"name", "ratio"}, {"value", "1:1e7"}});

  OverlapRequest both;
  both.pp_comm = 1;
  both.workload = "{}";
  CHECK(wording_of(both, FieldNames::js_keys).key == "chunk.workload_replaces");
  CHECK(wording_of(both, FieldNames::js_keys).params ==
        Params{{"workload", "workload"}, {"forward", "forward"}, {"backward", "backward"}, {"pp_comm", "ppComm"}});

  OverlapRequest half;
  half.forward = "attn=1,dispatch=1,mlp=1,combine=1";
  CHECK(wording_of(half, FieldNames::cli_options).key == "chunk.forward_backward_together");
  CHECK(wording_of(half, FieldNames::cli_options).params ==
        Params{{"forward", "--forward"}, {"backward", "--backward"}, {"workload", "--workload"}});

  OverlapRequest sms;
  sms.forward = "attn=1,dispatch=1,mlp=1,combine=1";
  sms.backward = "combine=1,mlp_b=1,mlp_w=1,dispatch=1,attn_b=1,attn_w=1";
  sms.total_sms = 100;
  CHECK(wording_of(sms, FieldNames::js_keys).key == "chunk.sms_need_comm");
  CHECK(wording_of(sms, FieldNames::js_keys).params ==
        Params{{"total_sms", "totalSms"}, {"saturation_sms", "saturationSms"}, {"comm_sms", "commSms"}});
}

TEST_CASE("a document over the size or shape limits is refused with its rule, its name and the limit") {
  using Params = std::vector<std::pair<std::string, std::string>>;
  const auto wording_of = [](const std::string& text) -> Wording {
    try {
      (void)parse_workload(text);
    } catch (const Error& e) {
      return e.wording();
    }
    FAIL("accepted");
    return {};
  };
  // 1 MiB is the limit of a small JSON document (limits::max_small_json_bytes); one byte over is 1025 KiB rounded up.
  CHECK(wording_of(std::string((std::size_t{1} << 20) + 1, ' ')).params ==
        Params{{"what", "a workload"}, {"max", "1024 KiB"}, {"value", "1025 KiB"}});
  CHECK(wording_of(std::string("{}\0", 3)).params == Params{{"what", "a workload"}, {"at", "2"}});
  CHECK(wording_of(std::string("{}\0", 3)).key == "document.nul");
  CHECK(wording_of(std::string(33, '[') + std::string(33, ']')).params == Params{{"what", "a workload"}, {"max", "32"}});
  CHECK(wording_of(std::string(33, '[') + std::string(33, ']')).key == "document.too_deep");
}
