// Golden per-rank op orders: every built-in schedule, at one or two small sizes, against the order
// written in tests/data/golden/<schedule>.txt, so that rewriting a generator cannot change what it
// emits without a reviewer seeing it.
//
// File format: `#` lines are comments; `size R ranks, M micro-batches, V virtual stages` opens a block
// whose next R lines are the ranks' ops in action notation (custom.h, as format_actions writes them);
// schedules with a reference runtime of their own (DualPipe, DualPipeV) follow with `comm`
// and R lines of that runtime's communication program (COMPUTE, POST, WAIT_ALL and transfers such as 1RECV_F0).
//
// Regenerating: PIPESIM_UPDATE_GOLDEN=1 build/tests/pipesim_tests "[golden]" rewrites every file at
// the sizes it already has (or at the first two sizes of default_sizes() a schedule accepts). A change
// to a golden file is a change of behaviour: review `git diff tests/data/golden` before committing it.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "pipesim/comm.h"
#include "pipesim/custom.h"
#include "pipesim/error.h"
#include "pipesim/registry.h"

using namespace pipesim;

namespace {

auto golden_path(std::string_view schedule) -> std::string {
  return std::string(PIPESIM_SOURCE_DIR) + "/tests/data/golden/" + std::string(schedule) + ".txt";
}

auto size_line(const ScheduleParams& p) -> std::string {
  return "size " + std::to_string(p.ranks) + " ranks, " + std::to_string(p.micro_batches) + " micro-batches, " +
         std::to_string(p.virtual_stages) + " virtual stages";
}

auto parse_size_line(const std::string& line) -> ScheduleParams {
  ScheduleParams p{};
  if (std::sscanf(line.c_str(), "size %d ranks, %d micro-batches, %d virtual stages", &p.ranks, &p.micro_batches,
                  &p.virtual_stages) != 3)
    FAIL("golden file: a block must open with `" << size_line({4, 8, 1}) << "`, not `" << line << "`");
  return p;
}

// A transfer as torch's action notation writes it: stage id, action, micro-batch id (over both
// directions, as format_actions numbers them), e.g. 7SEND_B4.
auto transfer_text(const Schedule& s, CommAction action, const Chunk& c) -> std::string {
  const int path = s.path_of(c);
  return std::to_string(path * s.layout.stages + c.stage) + std::string(comm_action_name(action)) +
         std::to_string(path * s.micro_batches_per_path() + c.mb);
}

auto comm_lines(const Schedule& s) -> std::string {
  std::string out;
  for (int r = 0; r < s.ranks(); ++r) {
    std::string line;
    for (const CommStep& step : s.comm.steps_of(r)) {
      if (!line.empty()) line += ',';
      const bool transfer = step.action != CommAction::compute && step.action != CommAction::post &&
                            step.action != CommAction::wait_all;
      line += transfer ? transfer_text(s, step.action, step.chunk) : std::string(comm_action_name(step.action));
    }
    out += (line.empty() ? "-" : line) + "\n";
  }
  return out;
}

// The block of one size, exactly as the golden file holds it.
auto golden_block(const ScheduleSpec& spec, const ScheduleParams& p) -> std::string {
  std::string out = size_line(p) + "\n" + format_actions(build_schedule(spec.name, p));
  if (spec.generate_with_comm != nullptr) out += "comm\n" + comm_lines(build_schedule_with_comm(spec.name, p));
  return out;
}

auto header(const ScheduleSpec& spec) -> std::string {
  return "# Golden per-rank op order of " + std::string(spec.name) +
         " (tests/test_golden.cpp): one line per rank in action notation.\n"
         "# Regenerate with PIPESIM_UPDATE_GOLDEN=1 build/tests/pipesim_tests \"[golden]\" and review the diff.\n";
}

// Small sizes, tried in this order; each schedule's file holds the first two it accepts.
auto default_sizes(const ScheduleSpec& spec) -> std::vector<ScheduleParams> {
  const int v = spec.uses_virtual_stages ? 2 : 1;
  std::vector<ScheduleParams> accepted;
  for (const ScheduleParams& p : {ScheduleParams{4, 8, v}, ScheduleParams{3, 7, v}, ScheduleParams{2, 4, v}}) {
    try {
      check_schedule(spec.name, p);
      accepted.push_back(p);
    } catch (const Error&) {
    }
    if (accepted.size() == 2) break;
  }
  return accepted;
}

auto read_lines(const std::string& path) -> std::vector<std::string> {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

auto split_lines(const std::string& text) -> std::vector<std::string> {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

auto split_commas(const std::string& line) -> std::vector<std::string> {
  std::vector<std::string> items;
  std::istringstream in(line);
  for (std::string item; std::getline(in, item, ',');) items.push_back(item);
  return items;
}

// Where two rank lines first differ, in words a reviewer can act on.
auto first_difference(const std::string& expected, const std::string& actual) -> std::string {
  const auto want = split_commas(expected);
  const auto got = split_commas(actual);
  for (std::size_t k = 0; k < std::max(want.size(), got.size()); ++k) {
    const std::string w = k < want.size() ? want[k] : "(end of line)";
    const std::string g = k < got.size() ? got[k] : "(end of line)";
    if (w != g) return "item " + std::to_string(k) + ": golden " + w + ", generated " + g;
  }
  return "same items";
}

auto sizes_in(const std::vector<std::string>& lines) -> std::vector<ScheduleParams> {
  std::vector<ScheduleParams> sizes;
  for (const std::string& line : lines)
    if (line.rfind("size ", 0) == 0) sizes.push_back(parse_size_line(line));
  return sizes;
}

}  // namespace

TEST_CASE("every schedule emits exactly the per-rank op order of its golden file", "[golden]") {
  const bool update = std::getenv("PIPESIM_UPDATE_GOLDEN") != nullptr;
  for (const ScheduleSpec* spec : schedules()) {
    if (spec->given_as_text) continue;  // custom: its order is its input
    const std::string path = golden_path(spec->name);
    const std::vector<std::string> lines = read_lines(path);
    std::vector<std::string> golden;  // the file without its comments
    for (const std::string& line : lines)
      if (line.rfind('#', 0) != 0) golden.push_back(line);
    std::vector<ScheduleParams> sizes = sizes_in(golden);
    if (sizes.empty()) sizes = default_sizes(*spec);
    std::string generated_text;
    for (const ScheduleParams& p : sizes) generated_text += golden_block(*spec, p);
    if (update) {
      std::ofstream(path) << header(*spec) << generated_text;
      WARN("rewrote " << path << ": review its diff");
      continue;
    }
    INFO("schedule " << spec->name << ", golden file " << path
                     << " (regenerate with PIPESIM_UPDATE_GOLDEN=1 and review the diff)");
    REQUIRE_FALSE(golden.empty());
    const std::vector<std::string> generated = split_lines(generated_text);
    std::string block;
    for (std::size_t i = 0; i < std::max(golden.size(), generated.size()); ++i) {
      const std::string want = i < golden.size() ? golden[i] : "(end of file)";
      const std::string got = i < generated.size() ? generated[i] : "(end of output)";
      if (want.rfind("size ", 0) == 0) block = want;
      INFO("in block `" << block << "`, golden line " << i + 1 << " (without comments): " << first_difference(want, got));
      CHECK(got == want);
      if (got != want) break;  // one clear difference per schedule, not a cascade
    }
  }
}

TEST_CASE("every built-in schedule has a golden file at one or two sizes", "[golden]") {
  for (const ScheduleSpec* spec : schedules()) {
    if (spec->given_as_text) continue;
    INFO(spec->name);
    const auto sizes = sizes_in(read_lines(golden_path(spec->name)));
    CHECK(!sizes.empty());
    CHECK(sizes.size() <= 2);
  }
}
