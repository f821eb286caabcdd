// Documents read as the user gave them (issue 18): a byte-order mark is dropped on every surface, a NUL
// byte is refused rather than ending the text, and a parser refuses depth and counts while it reads,
// before a hostile document (nested '[', millions of empty ranks or objects) can cost memory.
#include <catch2/catch.hpp>
#include <string>

#include "cli_run.h"
#include "detail/json_text.h"
#include "helpers.h"
#include "pipesim/custom.h"
#include "pipesim/limits.h"
#include "pipesim/planner.h"
#include "pipesim/workload.h"

using namespace pipesim;
using pipesim::test::Refused;
using pipesim::test::RefusedAs;

namespace {

const std::string json_schedule =
    R"({"micro_batches": 1, "per_rank": [{"ops": [{"op": "F", "mb": 0, "stage": 0}, {"op": "B", "mb": 0, "stage": 0}]}]})";
const std::string bom = "\xEF\xBB\xBF";

}  // namespace

TEST_CASE("a byte-order mark is dropped: a JSON schedule stays JSON, actions stay actions") {
  const Schedule plain = parse_custom_schedule(json_schedule);
  const Schedule marked = parse_custom_schedule(bom + json_schedule);
  CHECK(marked.ops.size() == plain.ops.size());
  CHECK(parse_custom_schedule(bom + "0F0,0B0\n").ops.size() == 2);
  // Read as JSON: the refusal is about its fields, not its first bytes.
  CHECK_THROWS_WITH(parse_workload(bom + R"({"tokens": 4096})"), Catch::StartsWith("workload field 'hidden' is missing"));
}

TEST_CASE("a NUL byte in a document is refused with where it is, on every parser") {
  CHECK_THROWS_MATCHES(parse_custom_schedule(json_schedule + std::string(1, '\0') + "anything"), Error,
                       Refused(ErrorCode::bad_import, "a custom schedule contains a NUL byte (at byte 113); it must be text"));
  CHECK_THROWS_MATCHES(parse_custom_schedule(std::string("0F0,\0" "0B0", 8)), Error,
                       Refused(ErrorCode::bad_import, "a custom schedule contains a NUL byte (at byte 4); it must be text"));
  CHECK_THROWS_MATCHES(parse_plan_input(std::string("{}\0", 3)), Error,
                       Refused(ErrorCode::bad_import, "plan input contains a NUL byte (at byte 2); it must be text"));
  CHECK_THROWS_MATCHES(parse_workload(std::string("{}\0", 3)), Error,
                       Refused(ErrorCode::bad_import, "a workload contains a NUL byte (at byte 2); it must be text"));
}

TEST_CASE("JSON nested deeper than any document pipesim reads is refused at that depth, not read to its end") {
  const std::string deep = R"({"per_rank": )" + std::string(std::size_t{1} << 20, '[');
  CHECK_THROWS_MATCHES(parse_custom_schedule(deep), Error,
                       Refused(ErrorCode::limit_exceeded,
                               "schedule JSON nests deeper than 32 arrays and objects, more than any document pipesim reads"));
  CHECK_THROWS_MATCHES(parse_plan_input(std::string(1000, '[')), Error, RefusedAs(ErrorCode::limit_exceeded));
  CHECK_THROWS_MATCHES(parse_workload("{\"a\":" + std::string(1000, '[')), Error, RefusedAs(ErrorCode::limit_exceeded));
}

TEST_CASE("JSON with more values than the largest document pipesim reads is refused at the first one over") {
  std::string objects = "[";
  for (int k = 0; k < 100; ++k) objects += "{},";
  objects += "{}]";
  CHECK(detail::parse_json_within(objects, "a test", 102).size() == 101);  // 101 objects and the array: 102 values
  CHECK_THROWS_MATCHES(detail::parse_json_within(objects, "a test", 101), Error,
                       Refused(ErrorCode::limit_exceeded, "a test has more than 101 values, more than any document pipesim reads"));
  CHECK(detail::max_json_values == std::size_t{1} << 23);
}

TEST_CASE("ranks and ops of a custom schedule are refused at the first one over the limit, while it is read") {
  // 4097 idle ranks ('-' lines): refused at the 4097th, not after building them all.
  std::string idle;
  for (int r = 0; r <= limits::max_ranks; ++r) idle += "-\n";
  CHECK_THROWS_MATCHES(parse_custom_schedule(idle), Error,
                       Refused(ErrorCode::limit_exceeded, "a custom schedule may have at most 4096 ranks"));
  std::string ranks = R"({"micro_batches": 1, "per_rank": [)";
  for (int r = 0; r < limits::max_ranks; ++r) ranks += R"({"ops": []},)";
  ranks += R"({"ops": []}]})";
  CHECK_THROWS_MATCHES(parse_custom_schedule(ranks), Error,
                       Refused(ErrorCode::limit_exceeded, "a custom schedule may have at most 4096 ranks (got 4097)"));
}

TEST_CASE("64 MiB of idle ranks is refused in far less memory than its ranks would take", "[address-space]") {
  // 33.5 million '-' lines once became 33.5 million empty ranks (860 MB) before the refusal.
  std::string idle;
  idle.reserve(std::size_t{64} << 20);
  while (idle.size() + 2 <= (std::size_t{64} << 20)) idle += "-\n";
  const std::string path = pipesim::test::write_scratch("idle_ranks.txt", idle);
  const std::string command = "ulimit -v 400000 && " + std::string(PIPESIM_CLI_PATH) + " simulate --schedule-file " + path + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  for (int ch = std::fgetc(pipe); ch != EOF; ch = std::fgetc(pipe)) out += static_cast<char>(ch);
  pclose(pipe);
  std::remove(path.c_str());
  CHECK(out == "pipesim: error[limit_exceeded]: a custom schedule may have at most 4096 ranks\n");
}

TEST_CASE("messages escape C1 controls, bidi controls and bytes that are no UTF-8; other text passes as it is") {
  const auto message = [](const std::string& text) { return std::string(Error(ErrorCode::bad_value, text).what()); };
  CHECK(message("a\xC2\x9B" "31mX") == "a\\u009b31mX");                   // U+009B, a terminal's CSI
  CHECK(message("x\xE2\x80\xAE" "cba") == "x\\u202ecba");                 // U+202E RIGHT-TO-LEFT OVERRIDE
  CHECK(message("\xE2\x81\xA6" "i\xE2\x81\xA9") == "\\u2066i\\u2069");    // isolates
  CHECK(message("\xE2\x80\x8F") == "\\u200f");
  CHECK(message("lone \x9B byte \xFF") == "lone \\x9b byte \\xff");
  CHECK(message("\xED\xA0\x80") == "\\xed\\xa0\\x80");                    // an encoded surrogate is no UTF-8
  CHECK(message("\x1b[31m\x7f\n") == "\\x1b[31m\\x7f\\n");
  CHECK(message("调度 não é válido: é, ü, 中文, 🙂") == "调度 não é válido: é, ü, 中文, 🙂");
}

TEST_CASE("a deadlock through thousands of ranks is one short line naming eight of them") {
  // A looped layout (stage s on rank s % N) with one ring of waits: rank 0 waits at F0 of stage N for
  // rank N-1, every other rank r at F1 of stage r for rank r-1.
  const int ranks = limits::max_ranks;
  const auto op = [](int stage, char kind, int mb) { return std::to_string(stage) + kind + std::to_string(mb); };
  std::string text;
  for (int r = 0; r < ranks; ++r) {
    const int back = r + ranks;
    const std::string head = r == 0 ? op(0, 'F', 0) + "," + op(back, 'F', 0) + "," + op(0, 'F', 1)
                                    : op(r, 'F', 1) + "," + op(r, 'F', 0) + "," + op(back, 'F', 0);
    text += head + "," + op(back, 'F', 1) + "," + op(back, 'B', 0) + "," + op(r, 'B', 0) + "," + op(back, 'B', 1) + "," +
            op(r, 'B', 1) + "\n";
  }
  RunRequest request;
  request.schedule = "custom";
  request.custom_schedule = text;
  try {
    (void)run(request);
    FAIL("a deadlock was run");
  } catch (const Error& e) {
    const std::string message = e.what();
    CHECK(e.code() == ErrorCode::deadlock);
    CHECK(message.size() < 1000);
    CHECK(message.ends_with("and 4088 more ranks of the cycle; no op in this cycle can start"));
  }
}

TEST_CASE("a refusal quotes at most 40 characters of what was typed, never cutting a character") {
  CHECK(quoted_input(std::string(40, 'x')) == std::string(40, 'x'));
  CHECK(quoted_input(std::string(41, 'x')) == std::string(37, 'x') + "...");
  // 41 three-byte characters: cut after the 37th, on a character's first byte.
  std::string chinese;
  for (int i = 0; i < 41; ++i) chinese += "调";
  CHECK(quoted_input(chinese) == chinese.substr(0, 37 * 3) + "...");
  CHECK(quoted_input("") == "");
}

TEST_CASE("a long text typed into an option comes back as a one-line refusal, on every option that quotes it") {
  // 100,000 characters: a paste far past any value, still under the 128 KiB a Linux argument may hold.
  const std::string pasted(100'000, '7');
  const std::string cut = std::string(36, '7') + "...";
  pipesim::test::check_refused("simulate --ranks x" + pasted, ErrorCode::bad_value,
                               "--ranks must be a whole number from 1 to 4096, got 'x" + cut + "'");
  pipesim::test::check_refused("overlap --comm-sms " + pasted, ErrorCode::bad_value,
                               "--comm-sms must be a whole number from 1 to 1000000, got '7" + cut + "'");  // past a long long
  const auto schedule = pipesim::test::run_cli("simulate --schedule s" + pasted);
  CHECK(schedule.status == 2);
  const std::string line = pipesim::test::refusal_line(ErrorCode::unknown_name, "unknown schedule 's" + cut + "'; known schedules: ");
  CHECK(schedule.err.starts_with(line.substr(0, line.size() - 1)));  // the line without its newline
  CHECK(schedule.err.size() < 400);
  pipesim::test::check_refused("simulate --cost F=x" + pasted, ErrorCode::bad_value, "cost F must be a number, got 'x" + cut + "'");
  pipesim::test::check_refused("simulate --format f" + pasted, ErrorCode::unknown_name,
                               "--format must be one of text|summary|svg|csv|chrome-trace|json|actions, got 'f" + cut + "'");
}
