// Reference timing: schedules timed the way their reference runtimes issue communication (reference.h).
// The DualPipe / DualPipeV values are derived by hand from deepseek-ai/DualPipe's dualpipe.py and
// dualpipev.py (the comments walk through the steps that matter); the 10 x 40 values are the ones
// issue 15 measured with an independent replay of DeepSeek's step().
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "helpers.h"
#include "pipesim/export.h"
#include "pipesim/error.h"
#include "pipesim/reference.h"
#include "pipesim/run.h"

using namespace pipesim;
using pipesim::test::costs;
using pipesim::test::Refused;
using pipesim::test::RefusedAs;

namespace {

auto run_timed(const std::string& schedule, int ranks, int micro_batches, Costs c, Timing timing,
               SendMode sends = SendMode::rendezvous, int virtual_stages = 1) -> Run {
  RunRequest request;
  request.schedule = schedule;
  request.params = {ranks, micro_batches, virtual_stages};
  request.costs = c;
  request.timing = timing;
  request.sends = sends;
  return run(request);
}

auto starts_of(const Run& r, int rank) -> std::vector<double> {
  std::vector<double> out;
  for (int i = r.schedule.rank_begin[rank]; i < r.schedule.rank_begin[rank + 1]; ++i)
    out.push_back(r.timeline.start[static_cast<std::size_t>(i)]);
  return out;
}

auto wait_of(const Run& r, int rank, int k) -> const OpWait& {
  return r.timeline.waits[static_cast<std::size_t>(r.schedule.rank_begin[rank] + k)];
}

// A rank's communication program in torch's notation: compute steps as the ops they run, transfers as
// `{stage}{SEND_F|RECV_B|...}{mb}`; post and wait_all steps are left out.
auto comm_text(const Schedule& s, int rank) -> std::string {
  std::string out;
  int op = s.rank_begin[rank];
  for (const CommStep& step : s.comm.steps_of(rank)) {
    std::string token;
    if (step.action == CommAction::compute) token = describe(s.ops[static_cast<std::size_t>(op++)]);
    else if (step.action != CommAction::post && step.action != CommAction::wait_all)
      token = std::to_string(step.chunk.stage) + std::string(comm_action_name(step.action)) + std::to_string(step.chunk.mb);
    if (!token.empty()) out += (out.empty() ? "" : " ") + token;
  }
  return out;
}

// Two ranks, two micro-batches, one stage each, with DeepSeek-style batches written by hand: rank 1
// launches the receive of micro-batch 1's input together with the send of micro-batch 0's gradient.
auto hand_program(bool batch_second_receive) -> Schedule {
  const auto f = [](int mb, int stage) { return Op{OpKind::F, {mb, 0, stage}, {}}; };
  const auto b = [](int mb, int stage) { return Op{OpKind::B, {mb, 0, stage}, {}}; };
  ScheduleBuilder builder("hand", {2, 2, 1}, straight_layout(2));
  builder.rank(0).append(std::vector<Op>{f(0, 0), f(1, 0), b(0, 0), b(1, 0)});
  builder.rank(1).append(std::vector<Op>{f(0, 1), b(0, 1), f(1, 1), b(1, 1)});
  Schedule s = std::move(builder).build();
  CommWriter w(s.comm);
  const auto flush = [&] {
    w.add(CommAction::post);
    w.add(CommAction::wait_all);
  };
  const Chunk mb0_s0{0, 0, 0}, mb1_s0{1, 0, 0}, mb0_s1{0, 0, 1}, mb1_s1{1, 0, 1};
  w.begin_rank(0);
  w.add(CommAction::compute);
  w.add(CommAction::send_forward, mb0_s0);
  flush();
  w.add(CommAction::compute);
  w.add(CommAction::send_forward, mb1_s0);
  flush();
  w.add(CommAction::recv_backward, mb0_s0);
  flush();
  w.add(CommAction::compute);
  w.add(CommAction::recv_backward, mb1_s0);
  flush();
  w.add(CommAction::compute);
  w.begin_rank(1);
  w.add(CommAction::recv_forward, mb0_s1);
  flush();
  w.add(CommAction::compute);
  w.add(CommAction::compute);
  w.add(CommAction::send_backward, mb0_s1);
  if (!batch_second_receive) flush();
  w.add(CommAction::recv_forward, mb1_s1);
  flush();
  w.add(CommAction::compute);
  w.add(CommAction::compute);
  w.add(CommAction::send_backward, mb1_s1);
  flush();
  w.finish(2);
  return s;
}

}  // namespace

TEST_CASE("reference timing, issue 15's measurement: DualPipe 10 x 40, F=2 B=2 W=1.5 F&B=2.48, comm=0") {
  const Costs c = costs(2, 2, 1.5, 2.48);
  CHECK(run_timed("dualpipe", 10, 40, c, Timing::dataflow).metrics.makespan == Approx(125.84).epsilon(1e-12));
  // A send that also waits for its receive (rendezvous) costs 4 more than sends that do not.
  CHECK(run_timed("dualpipe", 10, 40, c, Timing::reference, SendMode::rendezvous).metrics.makespan ==
        Approx(134.40).epsilon(1e-12));
  CHECK(run_timed("dualpipe", 10, 40, c, Timing::reference, SendMode::eager).metrics.makespan == Approx(130.40).epsilon(1e-12));
  CHECK(run_timed("dualpipe", 10, 40, c, Timing::reference, SendMode::async).metrics.makespan == Approx(130.40).epsilon(1e-12));
}

TEST_CASE("reference timing, issue 15's measurement: DualPipe 10 x 40 at the figure's unit costs with comm=0.5") {
  const Costs c = costs(1, 2, 1, 3, 0.5);
  CHECK(run_timed("dualpipe", 10, 40, c, Timing::dataflow).metrics.makespan == 153);
  CHECK(run_timed("dualpipe", 10, 40, c, Timing::reference, SendMode::rendezvous).metrics.makespan == 156);
  CHECK(run_timed("dualpipe", 10, 40, c, Timing::reference, SendMode::eager).metrics.makespan == 156);
  CHECK(run_timed("dualpipe", 10, 40, c, Timing::reference, SendMode::async).metrics.makespan == 154);
}

// The cases scripts/check-dualpipe-reference.py runs against DeepSeek's own step() are data, read by
// both: each makespan in the file is what the replay of DeepSeek's programs took, so pipesim is held to
// every one of them here without a DualPipe checkout.
TEST_CASE("reference timing of every DualPipe and DualPipeV case checked against DeepSeek's step() gives its recorded makespan") {
  std::ifstream in(std::string(PIPESIM_SOURCE_DIR) + "/tests/data/reference/dualpipe_cases.json");
  REQUIRE(in);
  const auto data = nlohmann::json::parse(in);
  REQUIRE(data.at("cases").size() >= 72);
  for (const auto& c : data.at("cases")) {
    const auto schedule = c.at("schedule").get<std::string>();
    const auto cost = c.at("cost").get<std::string>();
    for (const auto& sends : data.at("sends")) {
      INFO(schedule << " " << c.at("ranks") << " x " << c.at("micro_batches") << " " << cost << " " << sends);
      const Run r = run_timed(schedule, c.at("ranks"), c.at("micro_batches"), parse_costs(cost), Timing::reference,
                              parse_send_mode(sends.get<std::string>()));
      CHECK(r.metrics.makespan == Approx(c.at("makespan").at(sends.get<std::string>()).get<double>()).margin(1e-9));
    }
  }
}

TEST_CASE("reference timing of DualPipe 4 x 8 with a large W: step 3's W waits for the next forward's input") {
  // F=1 B=2 W=1.5 (so I=0.5) F&B=2.5, comm=0. Rank 0 (h=0 of H=2) runs step 1 F(0) F(0), step 2
  // F(0) F(1), and step 3 once: I(1); then `_recv_forward(1)` queues the input of the next F(1) and
  // `_weight_chunk` commits it, so the W waits for it. Rank 1 is a middle rank: it holds back the
  // output of its last step-2 F(1) (ends at 5) and sends it in step 4 after its extra F(0) (5 to 6), so
  // the receive completes at 6 and the W starts there instead of at 4.5, the I's end.
  const Costs c = costs(1, 2, 1.5, 2.5);
  const Run dataflow = run_timed("dualpipe", 4, 8, c, Timing::dataflow);
  const Run reference = run_timed("dualpipe", 4, 8, c, Timing::reference);
  CHECK(pipesim::test::program(reference.schedule, 0) ==
        "F0 F1 F2 F0.1 I0.1 W0.1 F1.1 FB(F3,B1.1) FB(F2.1,B0) B2.1 FB(F3.1,B1) B3.1 I2 W2 I3 W3");
  CHECK(starts_of(dataflow, 0)[5] == 4.5);
  const std::vector<double> rank0 = starts_of(reference, 0);
  const std::vector<double> first_seven(rank0.begin(), rank0.begin() + 7);
  CHECK(first_seven == std::vector<double>{0, 1, 2, 3, 4, 6, 7.5});
  const OpWait& w = wait_of(reference, 0, 5);
  CHECK(w.used_receive == 0);
  CHECK(w.unused_receive == 1.5);
  CHECK(w.send == 0);
  CHECK(w.on == CommStep{CommAction::recv_forward, {1, 1, 3}});  // rank 0's phase 1 is stage 3 of direction 1
  CHECK(w.peer == 1);
  CHECK(dataflow.metrics.makespan == 24);
  CHECK(reference.metrics.makespan == 25.5);
  CHECK(run_timed("dualpipe", 4, 8, c, Timing::reference, SendMode::eager).metrics.makespan == 24.5);
  CHECK(run_timed("dualpipe", 4, 8, c, Timing::reference, SendMode::async).metrics.makespan == 24.5);
}

TEST_CASE("reference timing of DualPipeV 2 x 4 with comm=1, derived op by op from dualpipev.py") {
  // F=1 B=2 W=1 (I=1) F&B=3. Rank 0 holds stages 0 and 3, rank 1 stages 1 and 2 (the turn, handed over
  // locally). Every transfer is launched at a commit; under rendezvous it completes 1 after the later
  // of its two sides. Rank 0's step-1 sends leave only at the next commit, so each F(0) waits for the
  // previous one's send (1 each); rank 1's F(1) in step 2 waits for the next F(0)'s input it queued
  // before it (1, not consumed); rank 0's step-3 W waits for the next F(1)'s input (2, not consumed).
  const Costs c = costs(1, 2, 1, 3, 1);
  const Run rendezvous = run_timed("dualpipev", 2, 4, c, Timing::reference, SendMode::rendezvous);
  CHECK(pipesim::test::program(rendezvous.schedule, 0) ==
        "F0 F1 F2 F0.1 I0.1 W0.1 F1.1 FB(F3,B1.1) FB(F2.1,B0) B2.1 FB(F3.1,B1) B3.1 I2 W2 I3 W3");
  CHECK(pipesim::test::program(rendezvous.schedule, 1) ==
        "F0 F0.1 F1 F1.1 F2 B0.1 FB(F2.1,B0) FB(F3,B1.1) FB(F3.1,B1) B2.1 B2 I3.1 I3 W3.1 W3");
  CHECK(starts_of(rendezvous, 0) == std::vector<double>{0, 2, 4, 6, 8, 11, 12, 13, 17, 20, 24, 27, 30, 31, 33, 34});
  CHECK(starts_of(rendezvous, 1) == std::vector<double>{2, 4, 6, 8, 9, 11, 13, 17, 20, 24, 26, 30, 31, 33, 34});
  CHECK(rendezvous.metrics.makespan == 35);
  CHECK(wait_of(rendezvous, 0, 1).send == 1);
  CHECK(wait_of(rendezvous, 1, 1).unused_receive == 1);
  CHECK(wait_of(rendezvous, 0, 5).unused_receive == 2);
  // Eager sends change no time here: every receive that was launched after its send completed at
  // the same time either way. Async sends let rank 0's step-1 forwards run back to back.
  CHECK(run_timed("dualpipev", 2, 4, c, Timing::reference, SendMode::eager).metrics.makespan == 35);
  const Run async = run_timed("dualpipev", 2, 4, c, Timing::reference, SendMode::async);
  CHECK(starts_of(async, 0) == std::vector<double>{0, 1, 2, 5, 6, 10, 11, 12, 15, 18, 23, 26, 28, 29, 32, 33});
  CHECK(async.metrics.makespan == 34);
}

TEST_CASE("the metrics carry each rank's waits per layer and the run's totals; dataflow waits none") {
  // DualPipeV 2 x 4 at comm=1 as derived above: the waits it names are among these sums.
  const Costs c = costs(1, 2, 1, 3, 1);
  const Run r = run_timed("dualpipev", 2, 4, c, Timing::reference);
  WaitTotals total;
  for (int rank = 0; rank < 2; ++rank) {
    WaitTotals own;
    for (int i = r.schedule.rank_begin[rank]; i < r.schedule.rank_begin[rank + 1]; ++i) {
      const OpWait& w = r.timeline.waits[static_cast<std::size_t>(i)];
      own.used_receive += w.used_receive;
      own.unused_receive += w.unused_receive;
      own.send += w.send;
    }
    const WaitTotals& measured = r.metrics.per_rank[static_cast<std::size_t>(rank)].waits;
    CHECK(measured.used_receive == own.used_receive);
    CHECK(measured.unused_receive == own.unused_receive);
    CHECK(measured.send == own.send);
    total.used_receive += own.used_receive;
    total.unused_receive += own.unused_receive;
    total.send += own.send;
  }
  CHECK(r.metrics.waits.used_receive == total.used_receive);
  CHECK(r.metrics.waits.unused_receive == total.unused_receive);
  CHECK(r.metrics.waits.send == total.send);
  CHECK(r.metrics.per_rank[0].waits.send >= 1);            // rank 0's op 1
  CHECK(r.metrics.per_rank[0].waits.unused_receive >= 2);  // rank 0's op 5
  CHECK(r.metrics.per_rank[1].waits.unused_receive >= 1);  // rank 1's op 1
  // The JSON summary states the totals beside the per-rank sums, so a view adds nothing up.
  const auto report = nlohmann::json::parse(
      pipesim::test::run_cli("simulate --schedule dualpipev --ranks 2 --micro-batches 4 --cost F=1,B=2,W=1,FB=3,comm=1 "
                             "--timing reference --format summary").out);
  CHECK(report["waits"]["used_receive"] == total.used_receive);
  CHECK(report["waits"]["unused_receive"] == total.unused_receive);
  CHECK(report["waits"]["send"] == total.send);
  CHECK(report["per_rank"][0]["waits"]["send"] == r.metrics.per_rank[0].waits.send);
  const Run dataflow = run_timed("dualpipev", 2, 4, c, Timing::dataflow);
  CHECK(dataflow.metrics.waits.used_receive == 0);
  CHECK(dataflow.metrics.waits.unused_receive == 0);
  CHECK(dataflow.metrics.waits.send == 0);
  const auto dataflow_json = nlohmann::json::parse(
      pipesim::test::run_cli("simulate --schedule dualpipev --ranks 2 --micro-batches 4 --format summary").out);
  CHECK_FALSE(dataflow_json.contains("waits"));
}

TEST_CASE("a send semantics named without reference timing is refused by one rule, about the field sends") {
  CHECK_NOTHROW(check_sends_apply(Timing::reference, true, "--sends", "--timing reference"));
  CHECK_NOTHROW(check_sends_apply(Timing::dataflow, false, "--sends", "--timing reference"));
  try {
    check_sends_apply(Timing::dataflow, true, "sends", "timing: 'reference'");
    FAIL("accepted");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::usage);
    CHECK(std::string(e.what()) == "sends applies only to timing: 'reference'");
    CHECK(e.field() == "sends");
  }
}

TEST_CASE("the three send semantics on one hand-written program: rendezvous 13, eager 12, async 11") {
  // Rank 0: F0 F1 each followed by a committed send, then B0 B1 after committed receives. Rank 1
  // commits the send of B0's gradient together with the receive of F1's input. costs F=1 B=2, comm=1.
  //  rendezvous: rank 0's send of F1 (launched 3) meets rank 1's receive (launched 5) and both end
  //   at 6; rank 1's batch waits for rank 0 to launch its receive of the gradient (6), ends at 7.
  //  eager: rank 1's batch waits for its send alone (5 + 1 = 6); rank 0's F1 send ended at 4.
  //  async: rank 0 never waits on a send: F1 runs at 1, B0 at 6, B1 at 9 (the dataflow times).
  const Costs c = costs(1, 2, 1, 3, 1);
  const Schedule s = hand_program(true);
  const Timeline rendezvous = simulate_reference(s, c, SendMode::rendezvous);
  const Timeline eager = simulate_reference(s, c, SendMode::eager);
  const Timeline async = simulate_reference(s, c, SendMode::async);
  const auto starts = [](const Timeline& t) { return std::vector<double>(t.start.begin(), t.start.end()); };
  CHECK(starts(rendezvous) == std::vector<double>{0, 2, 7, 11, 2, 3, 7, 8});
  CHECK(starts(eager) == std::vector<double>{0, 2, 6, 10, 2, 3, 6, 7});
  CHECK(starts(async) == std::vector<double>{0, 1, 6, 9, 2, 3, 5, 6});
  CHECK(starts(async) == starts(simulate(s, c)));
  CHECK(rendezvous.end[3] == 13);
  CHECK(eager.end[3] == 12);
  CHECK(async.end[3] == 11);
  // Rank 1's F1 under rendezvous: free at 5, its input arrived at 6, its batch's send ended at 7.
  const OpWait& w = rendezvous.waits[6];
  CHECK(w.used_receive == 1);
  CHECK(w.unused_receive == 0);
  CHECK(w.send == 1);
  CHECK(w.on == CommStep{CommAction::send_backward, {0, 0, 1}});
  CHECK(w.peer == 0);
}

TEST_CASE("a deadlock only rendezvous sends create is reported naming the waits of both ranks") {
  // Rank 1 commits the gradient send alone and waits for it before it launches the receive of F1's
  // input; rank 0 waits for its send of F1 before it launches the receive of the gradient.
  const Schedule s = hand_program(false);
  const Costs c = costs(1, 2, 1, 3, 1);
  CHECK_THROWS_MATCHES(simulate_reference(s, c, SendMode::rendezvous), Error,
                       Refused(ErrorCode::deadlock,
                               "deadlock in the reference communication: rank 0 waits before op 2 (B0) for 0SEND_F1 "
                               "(rank 1 has not launched its side); rank 1 waits before op 2 (F1) for 1SEND_B0 (rank 0 "
                               "has not launched its side); no rank in this cycle can go on"));
  CHECK(simulate_reference(s, c, SendMode::eager).end[3] == 12);
  CHECK(simulate_reference(s, c, SendMode::async).end[3] == 11);
}

TEST_CASE("a link whose sends and receives come in different orders is refused, naming both") {
  Schedule s = hand_program(true);
  // Rank 0 receives micro-batch 1's gradient first: the first send on the link from rank 1 is mb 0's.
  std::vector<CommStep>::size_type swapped = 0;
  for (std::size_t k = 0; k < s.comm.steps.size(); ++k)
    if (s.comm.steps[k].action == CommAction::recv_backward) s.comm.steps[k].chunk.mb = swapped++ == 0 ? 1 : 0;
  CHECK_THROWS_MATCHES(simulate_reference(s, costs(1, 2, 1, 3, 1), SendMode::eager), Error,
                       Refused(ErrorCode::invalid_schedule,
                               "communication of rank 0: expects 0RECV_B1 from rank 1, but the next send launched on "
                               "that link is 1SEND_B0: sends and receives of a link must come in the same order"));
}

TEST_CASE("a program that consumes an input it never receives is refused") {
  Schedule s = hand_program(true);
  s.comm.steps[static_cast<std::size_t>(s.comm.rank_begin[1])].action = CommAction::post;  // drop rank 1's first receive
  CHECK_THROWS_MATCHES(simulate_reference(s, costs(1, 2, 1, 3, 1), SendMode::eager), Error,
                       Refused(ErrorCode::invalid_schedule,
                               "communication of rank 1: runs op 0 (F0) without launching the receive of its forward "
                               "input from rank 0 first"));
}

TEST_CASE("a refused communication program carries its rule's key and its parts, so the page words it in any language") {
  using Params = std::vector<std::pair<std::string, std::string>>;
  const auto wording_of = [](const auto& call) { return pipesim::test::refused_wording(call); };
  const Costs c = costs(1, 2, 1, 3, 1);
  // The rendezvous deadlock: each link is "rank|where|step|peer", where is "op op_text" before an op.
  const Wording cycle = wording_of([&] { (void)simulate_reference(hand_program(false), c, SendMode::rendezvous); });
  CHECK(cycle.key == "deadlock.comm_cycle");
  CHECK(cycle.params == Params{{"comm_cycle", "0|2 B0|0SEND_F1|1;1|2 F1|1SEND_B0|0"}});
  // The link out of order: the rank whose program breaks the rule is the place.
  Schedule swapped = hand_program(true);
  std::size_t seen = 0;
  for (CommStep& step : swapped.comm.steps)
    if (step.action == CommAction::recv_backward) step.chunk.mb = seen++ == 0 ? 1 : 0;
  const Wording order = wording_of([&] { (void)simulate_reference(swapped, c, SendMode::eager); });
  CHECK(order.key == "comm.order_step");
  CHECK(order.params == Params{{"step", "0RECV_B1"}, {"sender", "1"}, {"number", "1"}, {"instead", "1SEND_B0"},
                               {"at_kind", "comm_rank"}, {"at", "0"}});
  Schedule unreceived = hand_program(true);
  unreceived.comm.steps[static_cast<std::size_t>(unreceived.comm.rank_begin[1])].action = CommAction::post;
  const Wording input = wording_of([&] { (void)simulate_reference(unreceived, c, SendMode::eager); });
  CHECK(input.key == "comm.unlaunched_forward");
  CHECK(input.params == Params{{"op", "0"}, {"op_text", "F0"}, {"from", "0"}, {"at_kind", "comm_rank"}, {"at", "1"}});
  // The timing's own words name the option as the caller spells it.
  CHECK(wording_of([] { (void)parse_timing("fast", "--timing"); }).params == Params{{"name", "--timing"}, {"value", "fast"}});
}

TEST_CASE("torch's lowering of 1F1B on 2 ranks places each RECV when its sender computes (_add_send_recv)") {
  // Round-robin over the ranks: rank 0 places F0 and its SEND_F0, which puts RECV_F0 on rank 1's list,
  // so rank 1 places F0 in the same pass; rank 1's B0 puts RECV_B0 on rank 0's list after F1's SEND.
  const Run r = run_timed("1f1b", 2, 2, costs(1, 2, 1, 3), Timing::reference);
  CHECK(comm_text(r.schedule, 0) == "F0 0SEND_F0 F1 0SEND_F1 0RECV_B0 B0 0RECV_B1 B1");
  CHECK(comm_text(r.schedule, 1) == "1RECV_F0 F0 1RECV_F1 B0 1SEND_B0 F1 B1 1SEND_B1");
}

TEST_CASE("torch-lowered schedules at comm=0 time exactly as dataflow, op by op") {
  // Every RECV is launched before the op that consumes it, and torch's runtime waits for sends only at
  // the end of the step, so with no transfer time nothing waits beyond its input: any send semantics.
  struct Case {
    const char* schedule;
    int ranks, micro_batches, virtual_stages;
  };
  for (const Case& k : {Case{"1f1b", 4, 8, 1}, Case{"gpipe", 3, 5, 1}, Case{"interleaved-1f1b", 4, 8, 2},
                        Case{"zb-h1", 4, 8, 1}, Case{"zb-h2", 4, 8, 1}, Case{"zb-v", 3, 6, 1}, Case{"chimera", 4, 8, 1}}) {
    for (const SendMode sends : {SendMode::rendezvous, SendMode::eager, SendMode::async}) {
      INFO(k.schedule << " " << send_mode_name(sends));
      const Costs c = costs(1, 2.5, 1.25, 3);
      const Run dataflow = run_timed(k.schedule, k.ranks, k.micro_batches, c, Timing::dataflow, sends, k.virtual_stages);
      const Run reference = run_timed(k.schedule, k.ranks, k.micro_batches, c, Timing::reference, sends, k.virtual_stages);
      CHECK(reference.timing == Timing::reference);
      CHECK(std::vector<double>(reference.timeline.start.begin(), reference.timeline.start.end()) ==
            std::vector<double>(dataflow.timeline.start.begin(), dataflow.timeline.start.end()));
    }
  }
}

TEST_CASE("torch-lowered 1F1B with comm > 0: a receive launched late costs rendezvous sends, not eager ones") {
  // 1F1B 4 x 8, F=1 B=2, comm=0.5. Eager and async equal dataflow (torch launches every send at once
  // and waits for it only at the end); rendezvous delays a transfer until the receiver launches its
  // RECV, which torch places only when the sender computes, after the receiver's earlier ops.
  const Costs c = costs(1, 2, 1, 3, 0.5);
  CHECK(run_timed("1f1b", 4, 8, c, Timing::dataflow).metrics.makespan == 41);
  CHECK(run_timed("1f1b", 4, 8, c, Timing::reference, SendMode::eager).metrics.makespan == 41);
  CHECK(run_timed("1f1b", 4, 8, c, Timing::reference, SendMode::async).metrics.makespan == 41);
  CHECK(run_timed("1f1b", 4, 8, c, Timing::reference, SendMode::rendezvous).metrics.makespan == 41.5);
}

TEST_CASE("timing and send names are parsed with a message naming the field") {
  CHECK(parse_timing("reference") == Timing::reference);
  CHECK(parse_send_mode("async") == SendMode::async);
  CHECK_THROWS_MATCHES(parse_timing("ideal", "--timing"), Error,
                       Refused(ErrorCode::unknown_name, "--timing must be dataflow or reference (got 'ideal')"));
  CHECK_THROWS_MATCHES(parse_send_mode("nccl"), Error,
                       Refused(ErrorCode::unknown_name, "sends must be rendezvous, eager or async (got 'nccl')"));
}

TEST_CASE("ZB-H2's closed form is flagged exact up to 2comm = F+B-W and not past it") {
  // 4 ranks, 8 micro-batches, F=1 B=2 W=1 (F+B-W = 2): at comm=1 the span bubble is (4-1)(1+2-3+2) = 6
  // exactly; at comm=1.25 the formula says 7.5 and the flag must be off.
  const Run at_bound = run_timed("zb-h2", 4, 8, costs(1, 2, 1, 3, 1), Timing::dataflow);
  CHECK(at_bound.formula.value == 6);
  CHECK(at_bound.metrics.max_span_bubble == 6);
  CHECK(at_bound.formula.exact);
  const Run past = run_timed("zb-h2", 4, 8, costs(1, 2, 1, 3, 1.25), Timing::dataflow);
  CHECK(past.formula.value == 7.5);
  CHECK(past.metrics.max_span_bubble == 9);
  CHECK_FALSE(past.formula.exact);
  const Run below = run_timed("zb-h2", 4, 8, costs(1, 2, 1, 3, 0.5), Timing::dataflow);
  CHECK(below.formula.exact);
  CHECK(below.metrics.max_span_bubble == below.formula.value);
}

TEST_CASE("a custom schedule's SEND/RECV actions are honoured in reference timing, in their order") {
  // Rank 1 places RECV_F1 after its B0: with rendezvous sends, micro-batch 1's input starts to move
  // only when rank 1 reaches that RECV (5), so F1 runs at 6, not at 5 as in dataflow; rank 0's B1 then
  // gets its gradient at 10. Eager sends had the data on its way since rank 0's SEND_F1 at 2.
  const std::string text =
      "0F0,0SEND_F0,0F1,0SEND_F1,0RECV_B0,0B0,0RECV_B1,0B1\n"
      "1RECV_F0,1F0,1B0,1SEND_B0,1RECV_F1,1F1,1B1,1SEND_B1\n";
  const auto timed = [&](const std::string& schedule_text, Timing timing, SendMode sends) {
    RunRequest request;
    request.schedule = "custom";
    request.custom_schedule = schedule_text;
    request.costs = costs(1, 2, 1, 3, 1);
    request.timing = timing;
    request.sends = sends;
    return run(request);
  };
  const Run rendezvous = timed(text, Timing::reference, SendMode::rendezvous);
  CHECK(rendezvous.timing == Timing::reference);
  CHECK(starts_of(rendezvous, 1) == std::vector<double>{2, 3, 6, 7});
  CHECK(rendezvous.metrics.makespan == 12);
  CHECK(timed(text, Timing::reference, SendMode::eager).metrics.makespan == 11);
  CHECK(timed(text, Timing::dataflow, SendMode::rendezvous).metrics.makespan == 11);
  // Without SEND/RECV actions a custom schedule keeps the dataflow model, and says so.
  const Run plain = timed("0F0,0F1,0B0,0B1\n1F0,1B0,1F1,1B1\n", Timing::reference, SendMode::rendezvous);
  CHECK(plain.timing == Timing::dataflow);
  CHECK(plain.metrics.makespan == 11);
}

TEST_CASE("the Chrome trace of reference timing shows each wait on a comm thread, and transfers as they ran") {
  // DualPipeV 2 x 4, comm=1, rendezvous (the op-by-op case above): 9 ops wait on each rank. Rank 0's
  // step-3 W waits 2 for the next F(1)'s input, which moved from 10 (rank 1 launched its send) to 11.
  const Run r = run_timed("dualpipev", 2, 4, costs(1, 2, 1, 3, 1), Timing::reference);
  const nlohmann::json trace = nlohmann::json::parse(to_chrome_trace(r, TraceOptions{}));
  int waits = 0;
  const nlohmann::json* w_wait = nullptr;
  const nlohmann::json* f_receive = nullptr;
  for (const nlohmann::json& e : trace["traceEvents"]) {
    const std::string name = e.value("name", "");
    if (name.rfind("wait: ", 0) == 0) ++waits;
    if (name == "wait: unused receive before W0 (leg 1)") w_wait = &e;
    if (name == "recv F1 (leg 1) from rank 1" && e["pid"] == 1) f_receive = &e;  // rank 0 is pid 1
  }
  CHECK(waits == 18);
  REQUIRE(w_wait != nullptr);
  CHECK((*w_wait)["cat"] == "comm");
  CHECK((*w_wait)["ts"] == 9000);
  CHECK((*w_wait)["dur"] == 2000);
  CHECK((*w_wait)["args"]["ended_on"] == "3RECV_F1");
  REQUIRE(f_receive != nullptr);
  CHECK((*f_receive)["ts"] == 10000);
  CHECK((*f_receive)["dur"] == 1000);
  CHECK(trace["otherData"]["timing"] == "reference");
}

TEST_CASE("a run's large columns freed and asked for again reuse their memory, and repeated runs agree op for op") {
  // The reference timing writes each of its entries once; repeated runs (the bench, a sweep) get the
  // previous run's memory back (op_column.cpp) instead of fresh pages, so they must write every entry.
  const std::size_t bytes = std::size_t{8} << 20;
  void* first = column_memory::acquire(bytes);
  column_memory::release(first, bytes);
  void* again = column_memory::acquire(bytes);
  CHECK(again == first);  // the same size: the block kept
  void* other = column_memory::acquire(2 * bytes);
  CHECK(other != first);  // another size: memory of its own
  column_memory::release(other, 2 * bytes);
  column_memory::release(again, bytes);
  // DualPipe 64 x 4096: 270,274 ops, so every column is a large block; a run of another size between
  // two of the same size leaves its values in the memory the third one gets.
  const Costs c = test::costs(1, 2, 1.5, 2.5, 0.5);
  const Run a = run_timed("dualpipe", 64, 4096, c, Timing::reference);
  REQUIRE(a.schedule.ops.size() == 270274);
  const Run between = run_timed("dualpipe", 64, 2048, test::costs(3, 5, 2, 7, 1), Timing::reference);
  const Run b = run_timed("dualpipe", 64, 4096, c, Timing::reference);
  CHECK(b.timeline.start == a.timeline.start);
  CHECK(b.timeline.end == a.timeline.end);
  CHECK(b.timeline.waited_for == a.timeline.waited_for);
  bool waits_equal = true;
  for (std::size_t i = 0; i < a.timeline.waits.size(); ++i) {
    const OpWait& x = a.timeline.waits[i];
    const OpWait& y = b.timeline.waits[i];
    waits_equal = waits_equal && x.used_receive == y.used_receive && x.unused_receive == y.unused_receive &&
                  x.send == y.send && x.on == y.on && x.peer == y.peer;
  }
  CHECK(waits_equal);
  CHECK(b.metrics.makespan == a.metrics.makespan);
  CHECK(between.metrics.makespan != a.metrics.makespan);
}

TEST_CASE("a queued step late in a rank's program is checked as fully as its first: a micro-batch past the last, a stage elsewhere") {
  // Steps of one action and stage repeat thousands of times in a large program; a faster way of
  // checking the repeats must still refuse the one that names a chunk this rank does not hold.
  const Costs c = costs(1, 2, 1, 3, 1);
  const auto last_receive_of = [](Schedule& s, int rank) -> CommStep& {
    CommStep* last = nullptr;
    for (int k = s.comm.rank_begin[static_cast<std::size_t>(rank)]; k < s.comm.rank_begin[static_cast<std::size_t>(rank) + 1]; ++k)
      if (s.comm.steps[static_cast<std::size_t>(k)].action == CommAction::recv_forward) last = &s.comm.steps[static_cast<std::size_t>(k)];
    REQUIRE(last != nullptr);
    return *last;
  };
  Schedule past_the_end = build_schedule_with_comm("dualpipe", {4, 8, 1});
  CommStep& late = last_receive_of(past_the_end, 1);
  late.chunk.mb = 100;
  CHECK_THROWS_MATCHES(simulate_reference(past_the_end, c, SendMode::rendezvous), Error,
                       Refused(ErrorCode::invalid_schedule,
                               "communication of rank 1: RECV_F names a chunk (micro-batch 100, stage " +
                                   std::to_string(late.chunk.stage) + ") whose stage is not on this rank"));
  // Rank 1 of DualPipe 4 holds stage 1 of direction 0 and stage 2 of direction 1: stage 3 is rank 3's
  // in direction 0 and rank 0's in direction 1.
  Schedule elsewhere = build_schedule_with_comm("dualpipe", {4, 8, 1});
  CommStep& moved = last_receive_of(elsewhere, 1);
  moved.chunk.stage = 3;
  CHECK_THROWS_MATCHES(simulate_reference(elsewhere, c, SendMode::rendezvous), Error,
                       Refused(ErrorCode::invalid_schedule,
                               "communication of rank 1: RECV_F names a chunk (micro-batch " + std::to_string(moved.chunk.mb) +
                                   ", stage 3) whose stage is not on this rank"));
  // Unchanged, the same program runs, and again the same after a refused one.
  const Schedule fine = build_schedule_with_comm("dualpipe", {4, 8, 1});
  CHECK(simulate_reference(fine, c, SendMode::rendezvous).end == simulate_reference(fine, c, SendMode::rendezvous).end);
}
