// Custom schedules: PyTorch action notation and the JSON contract read back as schedules, round trips
// of every built-in schedule, and one-line errors that name the line and token at fault.
#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "helpers.h"
#include "pipesim/custom.h"
#include "pipesim/error.h"
#include "pipesim/limits.h"
#include "pipesim/reference.h"
#include "pipesim/registry.h"
#include "pipesim/report.h"

using namespace pipesim;

namespace {

auto run_custom(const std::string& text) -> Run {
  RunRequest request;
  request.schedule = "custom";
  request.custom_schedule = text;
  return run(request);
}

void check_same_schedule(const Schedule& a, const Schedule& b) {
  CHECK(a.ops == b.ops);
  CHECK(a.rank_begin == b.rank_begin);
  CHECK(a.layout.directions == b.layout.directions);
  CHECK(a.layout.stages == b.layout.stages);
  CHECK(a.layout.rank_of_stage == b.layout.rank_of_stage);
  CHECK(a.params.ranks == b.params.ranks);
  CHECK(a.params.micro_batches == b.params.micro_batches);
  // With one rank a V and a loop are the same placement, so only the ops can tell them apart.
  if (a.ranks() > 1) CHECK(a.params.virtual_stages == b.params.virtual_stages);
}

using Shell = pipesim::test::CliResult;

auto pipesim_cli(const std::string& args) -> Shell { return pipesim::test::run_cli(args); }

// Every built-in schedule at a few sizes it accepts.
template <class Visit>
void for_each_built_in(Visit visit) {
  for (const ScheduleSpec* spec : schedules())
    for (int p : {1, 2, 4})
      for (int m : {1, 4, 8, 9})
        for (int v : {1, 2, 3}) {
          Schedule s;
          try {
            s = build_schedule(spec->name, {p, m, v});
          } catch (const Error&) {
            continue;
          }
          INFO(spec->name << " p=" << p << " m=" << m << " v=" << v);
          visit(s);
        }
}

}  // namespace

TEST_CASE("actions read as torch writes them: one line per rank, commas or spaces, idle cells dropped") {
  const Schedule s = parse_custom_schedule("0F0,0F1,,None,0B0,0B1\n1F0 1B0  -  1F1 1B1\n");
  CHECK(s.ranks() == 2);
  CHECK(s.params.micro_batches == 2);
  CHECK(s.layout.stages == 2);
  CHECK(test::program(s, 0) == "F0 F1 B0 B1");
  CHECK(test::program(s, 1) == "F0 B0 F1 B1");
  const Run run = run_custom("0F0,0F1,0B0,0B1\n1F0,1B0,1F1,1B1\n");
  CHECK(run.metrics.makespan == 9);  // rank 1: F0 [1,2] B0 [2,4] F1 [4,5] B1 [5,7]; rank 0's B1 [7,9]
  CHECK(run.spec->name == "custom");
  CHECK_FALSE(run.formula.exact);
}

TEST_CASE("actions: I, W, B, lower case, comments and torch's communication actions") {
  const Schedule s = parse_custom_schedule(
      "# rank 0\n"
      "0F0,0SEND_F0,0RECV_B0,0i0,0w0,0REDUCE_GRAD\n"
      "\n"
      "1RECV_F0,1F0,1B0,1SEND_B0\n");
  CHECK(s.ranks() == 2);
  CHECK(test::program(s, 0) == "F0 I0 W0");
  CHECK(test::program(s, 1) == "F0 B0");
}

TEST_CASE("actions: torch's (0F7;7B3)OVERLAP_F_B becomes an FB, and a stage's phase is its index on its rank") {
  // A V over 1 rank: stages 0 and 1 both on rank 0, so stage 1 is phase 1 (the way back).
  const Schedule s = parse_custom_schedule("0F0,1F0,0F1,(0F2;1B0)OVERLAP_F_B,(1F1; 0B0)OVERLAP_F_B,1B1,1F2,1B2,0B1,0B2\n");
  const Op pair = s.ops[3];
  CHECK(pair.kind == OpKind::FB);
  CHECK(pair.chunk == Chunk{2, 0, 0});
  CHECK(pair.backward == Chunk{0, 1, 1});
  CHECK(describe(s.ops[4]) == "FB(F1.1,B0)");
  CHECK(format_actions(s) == "0F0,1F0,0F1,(0F2;1B0)OVERLAP_F_B,(1F1;0B0)OVERLAP_F_B,1B1,1F2,1B2,0B1,0B2\n");
}

TEST_CASE("every built-in schedule, two-direction ones too, survives export to actions and import, op for op") {
  int checked = 0;
  int two_way = 0;
  for_each_built_in([&](const Schedule& s) {
    check_same_schedule(parse_custom_schedule(format_actions(s)), s);
    ++checked;
    two_way += s.layout.directions == 2 ? 1 : 0;
  });
  CHECK(checked > 50);
  CHECK(two_way > 5);  // DualPipe and Chimera
}

TEST_CASE("the issue-15 pipe: DualPipe's and Chimera's action export reads back and simulates the same") {
  for (const char* name : {"dualpipe", "chimera"}) {
    const Run built_in = test::run_unit(name, 4, 8);
    const Run back = run_custom(format_actions(built_in.schedule));
    CHECK(back.schedule.layout.directions == 2);
    CHECK(back.timeline.end == built_in.timeline.end);
  }
}

TEST_CASE("every built-in schedule, two-direction ones too, survives export to JSON and import") {
  int checked = 0;
  for_each_built_in([&](const Schedule& s) {
    const Run exported = run({s.name, s.params, default_costs()});
    const Schedule back = parse_custom_schedule(to_json(exported, Detail::full).dump());
    CHECK(back.ops == s.ops);
    CHECK(back.layout.rank_of_stage == s.layout.rank_of_stage);
    CHECK(back.params.micro_batches == s.params.micro_batches);
    ++checked;
  });
  CHECK(checked > 50);
}

TEST_CASE("a re-imported schedule simulates exactly like the built-in one") {
  const Run built_in = test::run_unit("dualpipe", 8, 20);
  const Run imported = run_custom(to_json(built_in, Detail::full).dump());
  CHECK(imported.metrics.makespan == 66);
  CHECK(imported.metrics.peak_activations == built_in.metrics.peak_activations);
  CHECK(imported.timeline.end == built_in.timeline.end);
  const Run interleaved = run_custom(format_actions(build_schedule("interleaved-1f1b", {4, 8, 2})));
  CHECK(interleaved.metrics.makespan == 57);
  CHECK(interleaved.schedule.params.virtual_stages == 2);  // a looped layout reads back as interleaved
}

TEST_CASE("two-direction schedules export with unique ids: direction x stages + stage, direction x M + micro-batch") {
  const std::string text = format_actions(build_schedule("dualpipe", {2, 4, 1}));
  // Rank 0 holds stage 0 of direction 0 (id 0) and stage 1 of direction 1 (id 2 + 1 = 3); direction 1's
  // micro-batches 0 and 1 are written 2 and 3 (M = 2 per direction).
  // Steps 2, 4 (the middle rank's first pair is not overlapped), 6 and 8 of DualPipe's step().
  CHECK(text.substr(0, text.find('\n')) == "0F0,3F2,0F1,3B2,(3F3;0B0)OVERLAP_F_B,3B3,0I1,0W1");
}

TEST_CASE("a hand-written custom schedule that deadlocks is reported with its cycle") {
  // Rank 0 wants B0 before it runs F1; rank 1 runs micro-batch 1 first and so wants F1 first.
  CHECK_THROWS_WITH(run_custom("0F0,0B0,0F1,0B1\n1F1,1B1,1F0,1B0\n"),
                    "deadlock: rank 0 waits at op 1 (B0) for B0 (rank 1, op 3); "
                    "rank 1 waits at op 0 (F1) for F1 (rank 0, op 2); no op in this cycle can start");
}

TEST_CASE("malformed actions are refused with the line and token at fault") {
  CHECK_THROWS_WITH(parse_custom_schedule("0F0,0B0\n1F0,1B0\n2X1"),
                    "line 3, token '2X1': expected {stage}{F|I|W|B}{microbatch}, e.g. 0F1");
  CHECK_THROWS_WITH(parse_custom_schedule("0F\n"), "line 1, token '0F': expected {stage}{F|I|W|B}{microbatch}, e.g. 0F1");
  CHECK_THROWS_WITH(parse_custom_schedule("F0\n"), "line 1, token 'F0': expected {stage}{F|I|W|B}{microbatch}, e.g. 0F1");
  CHECK_THROWS_WITH(parse_custom_schedule("0F0,1F0,1B0,0B0\n1F1\n"),
                    "line 2, token '1F1': stage 1 already runs on rank 0; a stage lives on one rank");
  CHECK_THROWS_WITH(parse_custom_schedule("(0F0;0F1)OVERLAP_F_B\n"),
                    "line 1, token '(0F0;0F1)OVERLAP_F_B': expected (sF m;sB m)OVERLAP_F_B, one forward F and one "
                    "full backward B");
  CHECK_THROWS_WITH(parse_custom_schedule("(0F0;0B1\n"), "line 1, token '(0F0;0B1': '(' is never closed");
  CHECK_THROWS_WITH(parse_custom_schedule("0F0,0B0\n2F0,2B0\n"),
                    "stage 1 is run by no rank; stages are numbered 0 .. 2 without gaps");
  CHECK_THROWS_WITH(parse_custom_schedule("0F0,0I0\n"), "I without its W for micro-batch 0 at stage 0 (rank 0)");
  CHECK_THROWS_WITH(parse_custom_schedule("0F0,0B0,0F2,0B2\n"), "no forward for micro-batch 1 at stage 0 (rank 0)");
  CHECK_THROWS_WITH(parse_custom_schedule("0B0,0F0\n"),
                    "rank 0, op 0 (B0): a backward runs before the forward of its chunk on this rank");
  CHECK_THROWS_WITH(parse_custom_schedule("  \n"), Catch::StartsWith("a custom schedule is empty"));
}

TEST_CASE("JSON that does not parse is refused with its line, column and a reason key, not nlohmann's English") {
  using Params = std::vector<std::pair<std::string, std::string>>;
  const auto refusal = [](const std::string& text) -> Error {
    try {
      (void)parse_custom_schedule(text);
    } catch (const Error& e) {
      return e;
    }
    FAIL("accepted");
    return Error(ErrorCode::internal, "accepted");
  };
  // The params say the line and column that nlohmann's English message says, and why.
  const auto check = [&](const std::string& text, const std::string& line, const std::string& column, const std::string& reason) {
    const Error e = refusal(text);
    CHECK(e.wording().key == "custom.json_parse");
    CHECK(e.wording().params == Params{{"line", line}, {"column", column}, {"reason", reason}});
    if (reason != "number_out_of_range") CHECK_THAT(e.what(), Catch::Contains("at line " + line + ", column " + column + ":"));
  };
  check("{\"micro_batches\": 1,", "1", "21", "unexpected_end");
  check("{\n  \"per_rank\": trux}", "2", "18", "invalid_literal");
  check("{\n  \"per_rank\": tru\n}", "3", "0", "invalid_literal");  // the newline read ends line 2
  check("{\"a\": -}", "1", "8", "invalid_number");
  check("{\"a\": \"x", "1", "9", "invalid_string");
  check("{\"a\" 1}", "1", "6", "unexpected_token");
  check("{} {}", "1", "4", "trailing_text");
  // A number too large for a double: nlohmann's out_of_range names no place; the params still do,
  // at the number's last byte.
  check("{\n\"micro_batches\": 1e400}", "2", "22", "number_out_of_range");
}

TEST_CASE("malformed JSON is refused with the rank and op at fault") {
  CHECK_THROWS_WITH(parse_custom_schedule("{\"micro_batches\": 1, \"per_rank\": [{\"ops\": [{\"op\": \"X\"}]}]}"),
                    "rank 0, op 0: unknown op 'X'; ops are F, B, I, W and FB");
  CHECK_THROWS_WITH(parse_custom_schedule("{\"micro_batches\": 1, \"per_rank\": [{\"ops\": [{\"op\": \"F\", \"stage\": 0}]}]}"),
                    "rank 0, op 0: 'mb' is missing");
  CHECK_THROWS_WITH(parse_custom_schedule("{\"per_rank\": []}"), "schedule JSON: 'micro_batches' is missing");
  CHECK_THROWS_WITH(parse_custom_schedule("{\"micro_batches\": 3, \"directions\": 2, \"per_rank\": []}"),
                    Catch::StartsWith("schedule JSON: micro_batches counts both directions"));
  CHECK_THROWS_WITH(parse_custom_schedule("{\"micro_batches\": 1, \"per_rank\": [{\"rank\": 0}]}"),
                    "rank 0: 'ops' is missing (a --format summary export has no ops; use --format json)");
  CHECK_THROWS_WITH(parse_custom_schedule("{\"micro_batches\": 1,"), Catch::StartsWith("schedule JSON does not parse: "));
  // A number too large for a double is nlohmann's out_of_range, not a parse_error: still bad_import.
  for (const char* text : {"{\"micro_batches\": 1e400, \"per_rank\": []}",
                           "{\"traceEvents\": [{\"ph\": \"X\", \"ts\": -1e400, \"dur\": 1}]}"}) {
    CHECK_THROWS_WITH(parse_custom_schedule(text), Catch::StartsWith("schedule JSON does not parse: ") && Catch::Contains("1e400"));
    try {
      (void)parse_custom_schedule(text);
    } catch (const Error& e) {
      CHECK(e.code() == ErrorCode::bad_import);
    }
  }
}

TEST_CASE("custom is in the catalogue, and asks for its text instead of generating") {
  const ScheduleSpec& spec = find_schedule("custom");
  CHECK(spec.given_as_text);
  CHECK_THROWS_WITH(build_schedule("custom", {4, 8, 1}), Catch::StartsWith("custom needs the schedule as text"));
  // Whatever the sizes: it has none of its own to check (virtual stages would be refused for 1f1b).
  CHECK_THROWS_WITH(build_schedule("custom", {4, 8, 2}), Catch::StartsWith("custom needs the schedule as text"));
  CHECK_THROWS_WITH(run_custom(""), Catch::StartsWith("custom needs the schedule as text"));
  for (const auto& entry : nlohmann::json(schedules_json())) CHECK(entry["takes_text"] == (entry["name"] == "custom"));
}

TEST_CASE("pipesim simulate --schedule custom reads --schedule-file, or standard input for -") {
  const Shell exported =
      pipesim_cli("simulate --schedule interleaved-1f1b --ranks 4 --micro-batches 8 --virtual-stages 2 --format actions");
  REQUIRE(exported.status == 0);
  CHECK(exported.out == format_actions(build_schedule("interleaved-1f1b", {4, 8, 2})));
  const std::string file = pipesim::test::write_scratch("custom_interleaved.txt", exported.out);
  const Shell summary = pipesim_cli("simulate --schedule custom --schedule-file " + file + " --format summary");
  REQUIRE(summary.status == 0);
  const auto j = nlohmann::json::parse(summary.out);
  CHECK(j["schedule"] == "custom");
  CHECK(j["makespan"] == 57);
  CHECK(j["virtual_stages"] == 2);
  const Shell piped = pipesim_cli("simulate --schedule-file - --format actions < " + file);
  CHECK(piped.status == 0);
  CHECK(piped.out == exported.out);
  std::remove(file.c_str());
}

TEST_CASE("pipesim simulate refuses custom schedules it cannot use with one line and exit 2") {
  const std::string deadlock = pipesim::test::write_scratch("custom_deadlock.txt", "0F0,0B0,0F1,0B1\n1F1,1B1,1F0,1B0\n");
  const auto refused = pipesim::test::check_refused;
  refused("simulate --schedule custom --schedule-file " + deadlock, pipesim::ErrorCode::deadlock,
          "deadlock: rank 0 waits at op 1 (B0) for B0 (rank 1, op 3); rank 1 waits at op 0 (F1) for F1 (rank 0, op 2); "
          "no op in this cycle can start");
  refused("simulate --schedule custom --schedule-file " + deadlock + " --ranks 2", pipesim::ErrorCode::usage,
          "--ranks comes from the schedule file with --schedule custom");
  refused("simulate --schedule 1f1b --schedule-file " + deadlock, pipesim::ErrorCode::usage, "--schedule-file applies only to --schedule custom");
  refused("simulate --schedule custom --schedule-file no_such_file.txt", pipesim::ErrorCode::io, "cannot read --schedule-file 'no_such_file.txt': No such file or directory");
  refused("simulate --schedule custom", pipesim::ErrorCode::usage,
          "custom needs the schedule as text (--schedule-file PATH): JSON as `simulate --format json` writes it, or "
          "PyTorch actions such as 0F0,0B0");
  std::remove(deadlock.c_str());
}

TEST_CASE("a JSON schedule on one path must give each chunk the phase its stage has on its rank") {
  const std::string bad = R"({"micro_batches": 1, "per_rank": [
    {"ops": [{"op": "F", "mb": 0, "phase": 99, "stage": 0}, {"op": "B", "mb": 0, "phase": 0, "stage": 0}]},
    {"ops": [{"op": "F", "mb": 0, "phase": 0, "stage": 1}, {"op": "B", "mb": 0, "phase": 0, "stage": 1}]}]})";
  CHECK_THROWS_WITH(parse_custom_schedule(bad),
                    "rank 0, op 0 (F0.99): phase 99 does not match stage 0, which is number 0 of the stages rank 0 holds "
                    "(on one path the phase is that number)");
  // Exports of every single-path schedule carry the right phases, so they read back unchanged.
  for (const char* name : {"zb-v", "dualpipev"}) {
    const RunRequest request{name, {4, 8, 1}, default_costs()};
    CHECK_NOTHROW(parse_custom_schedule(to_json(pipesim::run(request), Detail::full).dump()));
  }
}

TEST_CASE("the JSON says what phase means, read off the layout, for built-in and imported schedules") {
  const auto phases = [](const Run& r) { return nlohmann::json(to_json(r, Detail::summary))["phases"].get<std::string>(); };
  const auto unit = [](const char* name, int v) { return pipesim::run(RunRequest{name, {4, 8, v}, default_costs()}); };
  CHECK(phases(unit("1f1b", 1)) == "none");
  CHECK(phases(unit("dualpipe", 1)) == "direction");
  CHECK(phases(unit("chimera", 1)) == "direction");
  CHECK(phases(unit("zb-v", 1)) == "leg");
  CHECK(phases(unit("dualpipev", 1)) == "leg");
  CHECK(phases(unit("interleaved-1f1b", 2)) == "chunk");
  // A ZB-V imported from PyTorch actions is still a V.
  CHECK(phases(run_custom(format_actions(build_schedule("zb-v", {4, 8, 1})))) == "leg");
}

TEST_CASE("a refused custom schedule carries its rule's key, its values and its place, so the page words it in any language") {
  using Params = std::vector<std::pair<std::string, std::string>>;
  const auto refusal_of = [](const auto& call) -> Error {
    try {
      call();
    } catch (const Error& e) {
      return e;
    }
    FAIL("accepted");
    return Error(ErrorCode::internal, "accepted");
  };
  const auto parsed = [&](const std::string& text) { return refusal_of([&] { (void)parse_custom_schedule(text); }); };

  // Action notation: the place is the line and the token, as the English message says it.
  const Error syntax = parsed("0F0,0B0\n1F0,1B0\n2X1");
  CHECK(std::string(syntax.what()) == "line 3, token '2X1': expected {stage}{F|I|W|B}{microbatch}, e.g. 0F1");
  CHECK(syntax.wording().key == "custom.action_syntax");
  CHECK(syntax.wording().params == Params{{"at_kind", "line_token"}, {"at", "3"}, {"token", "2X1"}});
  const Error twice = parsed("0F0,1F0,1B0,0B0\n1F1\n");
  CHECK(twice.wording().key == "custom.stage_two_ranks");
  CHECK(twice.wording().params ==
        Params{{"stage", "1"}, {"direction", "0"}, {"rank", "0"}, {"at_kind", "line_token"}, {"at", "2"}, {"token", "1F1"}});
  CHECK(parsed("(0F0;0B1\n").wording().params == Params{{"at_kind", "line_token"}, {"at", "1"}, {"token", "(0F0;0B1"}});
  CHECK(parsed("(0F0;0F1)OVERLAP_F_B\n").wording().key == "custom.overlap_syntax");
  const Error gap = parsed("0F0,0B0\n2F0,2B0\n");
  CHECK(gap.wording().key == "custom.stage_unowned");
  CHECK(gap.wording().params == Params{{"stage", "1"}, {"direction", "0"}, {"max", "2"}});
  CHECK(parsed("  \n").wording().key == "custom.empty");
  CHECK(parsed("[1]").wording().key == "custom.json_array");

  // JSON: the place is the rank and the op index, with the op in its notation where the rule names it.
  const Error unknown = parsed(R"({"micro_batches": 1, "per_rank": [{"ops": [{"op": "X"}]}]})");
  CHECK(unknown.wording().key == "custom.unknown_op");
  CHECK(unknown.wording().params == Params{{"name", "X"}, {"at_kind", "rank_op"}, {"at", "0"}, {"op", "0"}});
  const Error phase = parsed(R"({"micro_batches": 1, "per_rank": [
    {"ops": [{"op": "F", "mb": 0, "phase": 99, "stage": 0}, {"op": "B", "mb": 0, "phase": 0, "stage": 0}]},
    {"ops": [{"op": "F", "mb": 0, "phase": 0, "stage": 1}, {"op": "B", "mb": 0, "phase": 0, "stage": 1}]}]})");
  CHECK(phase.wording().key == "custom.phase_mismatch");
  CHECK(phase.wording().params == Params{{"phase", "99"}, {"stage", "0"}, {"index", "0"}, {"rank", "0"},
                                         {"at_kind", "rank_op_named"}, {"at", "0"}, {"op", "0"}, {"op_text", "F0.99"}});
  CHECK(parsed(R"({"micro_batches": 1, "per_rank": [{"rank": 0}]})").wording().params == Params{{"at_kind", "rank"}, {"at", "0"}});
  const Error listed = parsed(R"({"micro_batches": 1, "ranks": 2, "per_rank": [{"ops": []}]})");
  CHECK(listed.wording().key == "custom.ranks_mismatch");
  CHECK(listed.wording().params == Params{{"ranks", "2"}, {"listed", "1"}});
  CHECK(parsed(R"({"micro_batches": 3, "directions": 2, "per_rank": []})").wording().params == Params{{"value", "3"}});
  // Two directions: the rule that names a direction has its own key, since the sentence says it.
  const Error unowned = parsed(R"({"directions": 2, "micro_batches": 2, "stages": 2, "per_rank": [{"ops": [{"op": "F", "mb": 0, "phase": 0, "stage": 0}]}]})");
  CHECK(std::string(unowned.what()) == "stage 1 of direction 0 is run by no rank; stages are numbered 0 .. 1 without gaps");
  CHECK(unowned.wording().key == "custom.stage_unowned_direction");
  CHECK(unowned.wording().params == Params{{"stage", "1"}, {"direction", "0"}, {"max", "1"}});

  // A pipesim Chrome trace read back: the place is the event's index in traceEvents.
  CHECK(parsed(R"({"traceEvents": []})").wording().key == "trace_import.not_ours");
  const Error pid = parsed(R"({"traceEvents": [{"ph": "X", "cat": "compute", "pid": 9, "ts": 0, "args": {}}],
                               "otherData": {"generator": "pipesim", "ranks": 2, "micro_batches": 2, "stages": 2}})");
  CHECK(std::string(pid.what()) == "pipesim trace: traceEvents[0]: pid must be a rank's process id, rank + 1, from 1 to 2");
  CHECK(pid.wording().key == "trace_import.pid");
  CHECK(pid.wording().params == Params{{"min", "1"}, {"max", "2"}, {"at_kind", "trace_event"}, {"at", "0"}});
  const Error ranks = parsed(R"({"traceEvents": [], "otherData": {"generator": "pipesim"}})");
  CHECK(std::string(ranks.what()) == "pipesim trace: otherData.ranks is missing");
  CHECK(ranks.wording().key == "field.missing");
  CHECK(ranks.wording().params == Params{{"name", "ranks"}, {"at_kind", "trace_other_data"}});

  // A checked field is named by its JSON key at its place, never by an English phrase.
  const Error mb = parsed(R"({"micro_batches": 1, "per_rank": [{"ops": [{"op": "F", "stage": 0}]}]})");
  CHECK(std::string(mb.what()) == "rank 0, op 0: 'mb' is missing");
  CHECK(mb.wording().params == Params{{"name", "mb"}, {"at_kind", "rank_op"}, {"at", "0"}, {"op", "0"}});
  const Error pair = parsed(R"({"micro_batches": 1, "per_rank": [{"ops": [{"op": "FB", "f_mb": 0, "f_stage": 0, "b_mb": -1, "b_stage": 0}]}]})");
  CHECK(pair.wording().key == "field.whole_range");
  CHECK(pair.wording().params ==
        Params{{"name", "b_mb"}, {"min", "0"}, {"max", std::to_string(limits::max_micro_batches - 1)}, {"at_kind", "rank_op"}, {"at", "0"}, {"op", "0"}});
  const Error top = parsed(R"({"micro_batches": 1, "directions": 3, "per_rank": []})");
  CHECK(std::string(top.what()) == "schedule JSON: 'directions' must be a whole number from 1 to 2");
  CHECK(top.wording().params == Params{{"name", "directions"}, {"min", "1"}, {"max", "2"}, {"at_kind", "document"}, {"what", "schedule JSON"}});

  // The engine's rules, met by an imported schedule: the op at fault, or the chunk that never completes.
  const Error before = parsed("0B0,0F0\n");
  CHECK(before.wording().key == "op.backward_before_forward");
  CHECK(before.wording().params == Params{{"at_kind", "rank_op_named"}, {"at", "0"}, {"op", "0"}, {"op_text", "B0"}});
  const Error outside = parsed(R"({"micro_batches": 1, "per_rank": [{"ops": [{"op": "F", "mb": 1, "stage": 0}, {"op": "B", "mb": 1, "stage": 0}]}]})");
  CHECK(std::string(outside.what()) == "rank 0, op 0 (F1): micro-batch 1 is outside 0..0");
  CHECK(outside.wording().key == "op.mb_range");
  CHECK(outside.wording().params == Params{{"mb", "1"}, {"max", "0"}, {"at_kind", "rank_op_named"}, {"at", "0"}, {"op", "0"}, {"op_text", "F1"}});
  const Error no_w = parsed("0F0,0I0\n");
  CHECK(no_w.wording().key == "missing.weight");
  CHECK(no_w.wording().params == Params{{"mb", "0"}, {"direction", "0"}, {"stage", "0"}, {"rank", "0"}});
  CHECK(parsed("0F0,0B0,0F2,0B2\n").wording().key == "missing.forward");

  // A deadlock gives its cycle as language-neutral links: rank, op index, op, the op it waits for, its rank and index.
  const Error cycle = refusal_of([&] { (void)run_custom("0F0,0B0,0F1,0B1\n1F1,1B1,1F0,1B0\n"); });
  CHECK(cycle.code() == ErrorCode::deadlock);
  CHECK(cycle.wording().key == "deadlock.cycle");
  CHECK(cycle.wording().params == Params{{"cycle", "0 1 B0 B0 1 3;1 0 F1 F1 0 2"}, {"more", "0"}});

  // The custom schedule without its text, and the reference timing's words.
  CHECK(refusal_of([&] { (void)run_custom(""); }).wording().key == "custom.needs_text");
  const Error timing = refusal_of([] { (void)parse_timing("fast", "--timing"); });
  CHECK(timing.wording().key == "timing.unknown");
  CHECK(timing.wording().params == Params{{"name", "--timing"}, {"value", "fast"}});
  CHECK(refusal_of([] { (void)parse_send_mode("later", "--sends"); }).wording().params == Params{{"name", "--sends"}, {"value", "later"}});
}

TEST_CASE("a run of a schedule built beforehand (build_run_schedule) is the run that builds it: generated, custom text, reference timing") {
  pipesim::RunRequest generated;
  generated.schedule = "zb-v";
  generated.params = {4, 8, 1};
  pipesim::RunRequest reference = generated;
  reference.schedule = "dualpipe";
  reference.timing = pipesim::Timing::reference;
  reference.costs.comm = 0.5;
  pipesim::RunRequest custom;
  custom.schedule = "custom";
  custom.custom_schedule = pipesim::format_actions(pipesim::build_schedule("1f1b", {3, 6, 1}));
  for (const pipesim::RunRequest& request : {generated, reference, custom}) {
    INFO(request.schedule);
    const std::string once = to_json(pipesim::run(request, pipesim::build_run_schedule(request)), pipesim::Detail::full).dump();
    CHECK(once == to_json(pipesim::run(request), pipesim::Detail::full).dump());
  }
  CHECK(pipesim::build_run_schedule(reference).comm.steps.size() > 0);  // the reference program came with it
  const std::string generated_once =
      to_json(pipesim::run_generated(generated, pipesim::build_schedule(generated.schedule, generated.params)), pipesim::Detail::full).dump();
  CHECK(generated_once == to_json(pipesim::run_generated(generated), pipesim::Detail::full).dump());
}

TEST_CASE("a schedule handed to run() that the request does not build is refused, not timed under the request's name") {
  pipesim::RunRequest request;
  request.schedule = "dualpipe";
  request.params = {4, 8, 1};
  const auto refusal = [](auto&& call) -> std::string {
    try {
      (void)call();
    } catch (const pipesim::Error& e) {
      CHECK(e.code() == pipesim::ErrorCode::internal);
      return e.what();
    }
    return "accepted";
  };
  CHECK(refusal([&] { return pipesim::run(request, pipesim::build_schedule("1f1b", request.params)); }) ==
        "a run of 'dualpipe' at 4 ranks x 8 micro-batches was given a schedule built for another request: '1f1b' at 4 ranks x 8 micro-batches");
  CHECK(refusal([&] { return pipesim::run_generated(request, pipesim::build_schedule("dualpipe", {4, 12, 1})); }) ==
        "a run of 'dualpipe' at 4 ranks x 8 micro-batches was given a schedule built for another request: 'dualpipe' at 4 ranks x 12 micro-batches");
  pipesim::RunRequest interleaved;
  interleaved.schedule = "interleaved-1f1b";
  interleaved.params = {4, 8, 2};
  CHECK(refusal([&] { return pipesim::run(interleaved, pipesim::build_schedule("interleaved-1f1b", {4, 8, 4})); }) ==
        "a run of 'interleaved-1f1b' at 4 ranks x 8 micro-batches x 2 virtual stages was given a schedule built for another "
        "request: 'interleaved-1f1b' at 4 ranks x 8 micro-batches x 4 virtual stages");
  request.timing = pipesim::Timing::reference;
  // Another schedule is named as such first, whether or not it has a communication program.
  CHECK_THAT(refusal([&] { return pipesim::run(request, pipesim::build_schedule("1f1b", request.params)); }),
             Catch::Matchers::StartsWith("a run of 'dualpipe' at 4 ranks x 8 micro-batches was given a schedule built for another request"));
  CHECK(refusal([&] { return pipesim::run(request, pipesim::build_schedule("dualpipe", request.params)); }) ==
        "a reference-timed run of 'dualpipe' was given a schedule without its communication program: build it with build_run_schedule()");
  // run_generated() runs generated schedules only: one given as text is refused as run_generated(request) refuses it.
  pipesim::RunRequest custom;
  custom.schedule = "custom";
  custom.custom_schedule = "0F0,0B0\n";
  CHECK_THROWS_MATCHES(pipesim::run_generated(custom, pipesim::build_run_schedule(custom)), pipesim::Error,
                       Catch::Matchers::Message("custom needs the schedule as text (--schedule-file PATH): JSON as `simulate "
                                                "--format json` writes it, or PyTorch actions such as 0F0,0B0"));
}
