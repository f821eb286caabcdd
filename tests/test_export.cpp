// Export formats: the Chrome trace passes a structural check (processes, threads, nesting, flows that
// match the cross-rank dependencies counted here independently of the engine), reads back as the same
// schedule, and the CSV and SVG hold one row per op and one row per rank.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "helpers.h"
#include "pipesim/custom.h"
#include "pipesim/error.h"
#include "pipesim/export.h"
#include "pipesim/registry.h"

using namespace pipesim;
using nlohmann::json;

namespace {

auto run_with(const std::string& name, ScheduleParams params, Costs costs) -> Run {
  RunRequest request;
  request.schedule = name;
  request.params = params;
  request.costs = costs;
  return run(request);
}

auto run_custom_with_costs(const std::string& text, Costs costs) -> Run {
  RunRequest request;
  request.schedule = "custom";
  request.custom_schedule = text;
  request.costs = costs;
  return run(request);
}

auto near(double a, double b) -> bool { return std::fabs(a - b) <= 1e-6 * std::max(1.0, std::fabs(b)); }

// ---- cross-rank dependencies, counted from the engine's documented rules without its code ----------

/// One input that crosses ranks: sender, receiver and when the producer ends.
struct Dependency {
  int from = 0;
  int to = 0;
  double sent = 0;
  friend auto operator<(const Dependency& a, const Dependency& b) -> bool {
    return std::tie(a.from, a.to, a.sent) < std::tie(b.from, b.to, b.sent);
  }
};

auto cross_rank_dependencies(const Run& run) -> std::vector<Dependency> {
  const Schedule& s = run.schedule;
  std::vector<int> rank(s.ops.size());
  for (int r = 0; r < s.ranks(); ++r)
    for (int i = s.rank_begin[r]; i < s.rank_begin[r + 1]; ++i) rank[static_cast<std::size_t>(i)] = r;
  using Key = std::tuple<int, int, int>;  // path, stage, micro-batch
  const auto key = [&](const Chunk& c) { return Key{s.layout.directions == 2 ? c.phase : 0, c.stage, c.mb}; };
  std::map<Key, int> forward_of;
  std::map<Key, int> backward_of;
  for (int i = 0; i < static_cast<int>(s.ops.size()); ++i) {
    const Op& op = s.ops[static_cast<std::size_t>(i)];
    if (op.kind == OpKind::F || op.kind == OpKind::FB) forward_of[key(op.chunk)] = i;
    if (op.kind == OpKind::B || op.kind == OpKind::I) backward_of[key(op.chunk)] = i;
    if (op.kind == OpKind::FB) backward_of[key(op.backward)] = i;
  }
  std::vector<Dependency> out;
  const auto need = [&](int producer, int consumer) {
    const int from = rank[static_cast<std::size_t>(producer)];
    const int to = rank[static_cast<std::size_t>(consumer)];
    if (from != to) out.push_back({from, to, run.timeline.end[static_cast<std::size_t>(producer)]});
  };
  const auto forward_input = [&](const Chunk& c, int consumer) {
    if (c.stage > 0) need(forward_of.at(key({c.mb, c.phase, c.stage - 1})), consumer);
  };
  const auto backward_input = [&](const Chunk& c, int consumer) {
    if (c.stage == s.layout.stages - 1) need(forward_of.at(key(c)), consumer);
    else need(backward_of.at(key({c.mb, c.phase, c.stage + 1})), consumer);
  };
  for (int i = 0; i < static_cast<int>(s.ops.size()); ++i) {
    const Op& op = s.ops[static_cast<std::size_t>(i)];
    if (op.kind == OpKind::F || op.kind == OpKind::FB) forward_input(op.chunk, i);
    if (op.kind == OpKind::B || op.kind == OpKind::I) backward_input(op.chunk, i);
    if (op.kind == OpKind::FB) backward_input(op.backward, i);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// ---- the structural check ---------------------------------------------------------------------------

struct Slice {
  double ts = 0;
  double dur = 0;
  std::string name;
  std::string cat;
};

/// Checks `text` as a Chrome trace of `run` at 1000 us per unit; returns the number of flows.
auto check_trace(const Run& run, const std::string& text) -> int {
  const Schedule& s = run.schedule;
  const json trace = json::parse(text);  // throws, and fails the test, unless it is valid JSON
  REQUIRE(trace.is_object());
  REQUIRE(trace["traceEvents"].is_array());
  CHECK(trace["displayTimeUnit"] == "ms");
  const json& other = trace["otherData"];
  CHECK(other["generator"] == "pipesim");
  CHECK(other["schedule"] == s.name);
  CHECK(other["ranks"] == s.ranks());
  CHECK(other["micro_batches"] == s.params.micro_batches);
  CHECK(near(other["makespan"].get<double>(), run.metrics.makespan));
  CHECK(near(other["cost"]["comm"].get<double>(), run.costs.comm));

  std::map<int, std::string> process_name;
  std::map<std::pair<int, int>, std::string> thread_name;
  std::map<std::pair<int, int>, std::vector<Slice>> slices;
  std::map<long long, std::vector<json>> flows;
  int compute_events = 0;
  for (const json& e : trace["traceEvents"]) {
    REQUIRE(e.is_object());
    for (const char* key : {"ph", "pid", "tid"}) REQUIRE(e.contains(key));
    for (const char* key : {"name", "args"})
      if (e["ph"] != "f" && e["ph"] != "s") REQUIRE(e.contains(key));
    if (e["ph"] != "M") REQUIRE(e.contains("ts"));
    REQUIRE(e["ph"].is_string());
    REQUIRE(e["pid"].is_number_integer());
    REQUIRE(e["tid"].is_number_integer());
    const std::string ph = e["ph"];
    const std::pair<int, int> thread{e["pid"].get<int>(), e["tid"].get<int>()};
    if (ph == "M") {
      REQUIRE(e["name"].is_string());
      REQUIRE(e["args"].is_object());
      if (e["name"] == "process_name") process_name[thread.first] = e["args"]["name"];
      if (e["name"] == "thread_name") thread_name[thread] = e["args"]["name"];
      continue;
    }
    REQUIRE(e["ts"].is_number());
    if (ph == "X") {
      REQUIRE(e.contains("dur"));
      REQUIRE(e.contains("cat"));
      REQUIRE(e["dur"].is_number());
      REQUIRE(e["dur"].get<double>() >= 0);
      slices[thread].push_back({e["ts"].get<double>(), e["dur"].get<double>(), e["name"], e["cat"]});
      if (e["cat"] == "compute") {
        ++compute_events;
        const json& a = e["args"];
        for (const char* key : {"kind", "mb", "phase", "stage", "rank", "index", "start", "end"}) REQUIRE(a.contains(key));
        const int r = a["rank"];
        CHECK(r + 1 == thread.first);  // pid = rank + 1
        const auto i = static_cast<std::size_t>(s.rank_begin[r] + a["index"].get<int>());
        CHECK(a["kind"] == std::string(kind_name(s.ops[i].kind)));
        CHECK(a["mb"] == s.ops[i].chunk.mb);
        CHECK(near(e["ts"].get<double>(), run.timeline.start[i] * 1000));
        CHECK(near(e["dur"].get<double>(), (run.timeline.end[i] - run.timeline.start[i]) * 1000));
      }
    } else {
      REQUIRE((ph == "s" || ph == "f"));
      for (const char* key : {"id", "cat", "name"}) REQUIRE(e.contains(key));
      flows[e["id"].get<long long>()].push_back(e);
    }
  }
  // One process per rank, pid rank + 1 (never 0, which Perfetto advises against), named "rank r",
  // each with a compute thread and a communication thread.
  REQUIRE(static_cast<int>(process_name.size()) == s.ranks());
  for (int r = 0; r < s.ranks(); ++r) {
    CHECK(process_name[r + 1] == "rank " + std::to_string(r));
    int compute = 0;
    int comm = 0;
    for (const auto& [thread, name] : thread_name) {
      if (thread.first != r + 1) continue;
      if (name == "compute") ++compute;
      if (name.rfind("comm", 0) == 0) ++comm;
    }
    CHECK(compute == 1);
    CHECK(comm >= 1);
  }
  CHECK(compute_events == static_cast<int>(s.ops.size()));
  // Slices of one thread never overlap; a communication lane's slices do not even touch.
  for (auto& [thread, list] : slices) {
    INFO("pid " << thread.first << " tid " << thread.second << " (" << thread_name[thread] << ")");
    REQUIRE(thread_name.count(thread) == 1);
    // An op of zero duration (W = 0) may start where the next op starts: it comes first.
    std::sort(list.begin(), list.end(), [](const Slice& a, const Slice& b) { return std::tie(a.ts, a.dur) < std::tie(b.ts, b.dur); });
    const bool comm = thread_name[thread] != "compute";
    for (std::size_t k = 0; k < list.size(); ++k) {
      CHECK(list[k].cat == (comm ? "comm" : "compute"));
      if (k == 0) continue;
      const double previous_end = list[k - 1].ts + list[k - 1].dur;
      if (comm) CHECK(list[k].ts > previous_end);
      else CHECK(list[k].ts >= previous_end - 1e-6);
    }
  }
  // Flows: one "s" on a send slice at the producer's end, one "f" at the end of a recv slice.
  const auto slice_at = [&](const json& e, const std::string& prefix, bool at_start) {
    for (const Slice& sl : slices[{e["pid"].get<int>(), e["tid"].get<int>()}]) {
      const double ts = e["ts"];
      if (sl.name.rfind(prefix, 0) == 0 && (at_start ? ts == sl.ts : near(ts, sl.ts + sl.dur))) return true;
    }
    return false;
  };
  std::vector<Dependency> seen;
  for (const auto& [id, pair] : flows) {
    INFO("flow " << id);
    REQUIRE(pair.size() == 2);
    const json& start = pair[0]["ph"] == "s" ? pair[0] : pair[1];
    const json& finish = pair[0]["ph"] == "s" ? pair[1] : pair[0];
    REQUIRE(start["ph"] == "s");
    REQUIRE(finish["ph"] == "f");
    REQUIRE(finish.contains("bp"));
    CHECK(finish["bp"] == "e");
    CHECK(start["cat"] == finish["cat"]);
    CHECK(start["name"] == finish["name"]);
    CHECK(slice_at(start, "send ", true));
    CHECK(slice_at(finish, "recv ", false));
    const double sent = start["ts"].get<double>() / 1000;
    CHECK(near(finish["ts"].get<double>() / 1000, sent + run.costs.comm));
    seen.push_back({start["pid"].get<int>() - 1, finish["pid"].get<int>() - 1, sent});
  }
  std::sort(seen.begin(), seen.end());
  const std::vector<Dependency> expected = cross_rank_dependencies(run);
  REQUIRE(seen.size() == expected.size());
  for (std::size_t k = 0; k < seen.size(); ++k) {
    CHECK(seen[k].from == expected[k].from);
    CHECK(seen[k].to == expected[k].to);
    CHECK(near(seen[k].sent, expected[k].sent));
  }
  return static_cast<int>(flows.size());
}

// Every built-in schedule at a couple of sizes it accepts.
template <class Visit>
void for_each_export_case(Visit visit) {
  for (const ScheduleSpec* spec : schedules()) {
    if (spec->given_as_text) continue;
    int sizes = 0;
    for (const ScheduleParams params : {ScheduleParams{2, 4, 1}, ScheduleParams{2, 4, 2}, ScheduleParams{4, 8, 1},
                                        ScheduleParams{4, 8, 2}, ScheduleParams{4, 12, 3}}) {
      try {
        (void)build_schedule(spec->name, params);
      } catch (const Error&) {
        continue;
      }
      INFO(spec->name << " p=" << params.ranks << " m=" << params.micro_batches << " v=" << params.virtual_stages);
      visit(std::string(spec->name), params);
      ++sizes;
    }
    INFO(spec->name);
    CHECK(sizes >= 2);
  }
}

// ---- a small XML well-formedness check (no dependency): tags balance, attributes are quoted, every
// '&' starts an entity and no '<' hides in text or attribute values ---------------------------------

auto entity_ok(const std::string& xml, std::size_t amp) -> bool {
  for (const char* e : {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"})
    if (xml.compare(amp, std::char_traits<char>::length(e), e) == 0) return true;
  return false;
}

auto well_formed(const std::string& xml, std::string& why) -> bool {
  std::vector<std::string> open;
  int roots = 0;
  std::size_t pos = 0;
  if (xml.rfind("<?xml", 0) == 0) pos = xml.find("?>") + 2;
  while (pos < xml.size()) {
    const std::size_t lt = xml.find('<', pos);
    for (std::size_t k = pos; k < std::min(lt, xml.size()); ++k)
      if (xml[k] == '&' && !entity_ok(xml, k)) return why = "bare & in text at " + std::to_string(k), false;
    if (lt == std::string::npos) break;
    if (open.empty() && xml.find_first_not_of(" \n\r\t", pos) < lt) return why = "text outside the root", false;
    const std::size_t gt = xml.find('>', lt);
    if (gt == std::string::npos) return why = "unclosed tag", false;
    std::string tag = xml.substr(lt + 1, gt - lt - 1);
    pos = gt + 1;
    if (tag.rfind("/", 0) == 0) {
      if (open.empty() || open.back() != tag.substr(1)) return why = "</" + tag.substr(1) + "> closes nothing open", false;
      open.pop_back();
      continue;
    }
    const bool empty_element = !tag.empty() && tag.back() == '/';
    if (empty_element) tag.pop_back();
    const std::size_t name_end = std::min(tag.find_first_of(" \n\t"), tag.size());
    const std::string name = tag.substr(0, name_end);
    if (name.empty() || name.find_first_of("<&\"'=") != std::string::npos) return why = "bad tag <" + tag + ">", false;
    std::set<std::string> attributes;
    std::size_t a = name_end;
    while (true) {
      a = tag.find_first_not_of(" \n\t", a);
      if (a == std::string::npos) break;
      const std::size_t eq = tag.find('=', a);
      if (eq == std::string::npos || eq + 1 >= tag.size() || tag[eq + 1] != '"') return why = "unquoted attribute in <" + tag + ">", false;
      const std::size_t close = tag.find('"', eq + 2);
      if (close == std::string::npos) return why = "unterminated attribute in <" + tag + ">", false;
      if (!attributes.insert(tag.substr(a, eq - a)).second) return why = "duplicate attribute in <" + tag + ">", false;
      for (std::size_t k = eq + 2; k < close; ++k)
        if (tag[k] == '<' || (tag[k] == '&' && !entity_ok(tag, k))) return why = "unescaped value in <" + tag + ">", false;
      a = close + 1;
    }
    if (open.empty() && ++roots > 1) return why = "more than one root element", false;
    if (!empty_element) open.push_back(name);
  }
  if (!open.empty()) return why = "<" + open.back() + "> is never closed", false;
  return roots == 1 || (why = "no root element", false);
}

using pipesim::test::count_occurrences;

}  // namespace

TEST_CASE("the Chrome trace of 1F1B on 4 ranks has one flow per cross-rank transfer: 2(p-1)m = 48") {
  const Run r = run_with("1f1b", {4, 8, 1}, test::costs(1, 2, 1, 3, 0.5));
  CHECK(check_trace(r, to_chrome_trace(r)) == 2 * (4 - 1) * 8);
}

TEST_CASE("Chrome traces pass the structural check for every built-in schedule, with and without comm") {
  for (const Costs costs : {default_costs(), test::costs(1, 2.5, 1, 3, 0.25), test::costs(1, 2, 0, 2.5, 3)}) {
    INFO("costs " << format_costs(costs));
    for_each_export_case([&](const std::string& name, ScheduleParams params) {
      const Run r = run_with(name, params, costs);
      const int flows = check_trace(r, to_chrome_trace(r));
      if (r.schedule.ranks() > 1) CHECK(flows > 0);
    });
  }
}

TEST_CASE("a transfer's send and recv cover [producer end, producer end + comm] and overlapping ones get lanes") {
  // comm 3 is longer than F: rank 0 sends F1 before F0 has arrived, so two transfers overlap.
  const Run r = run_with("gpipe", {2, 2, 1}, test::costs(1, 2, 1, 3, 3));
  const json trace = json::parse(to_chrome_trace(r));
  std::vector<json> sends;
  std::set<std::string> threads;
  for (const json& e : trace["traceEvents"]) {
    if (e["ph"] == "X" && e["name"].get<std::string>().rfind("send F", 0) == 0) sends.push_back(e);
    if (e["ph"] == "M" && e["name"] == "thread_name" && e["pid"] == 1) threads.insert(e["args"]["name"].get<std::string>());
  }
  REQUIRE(sends.size() == 2);
  CHECK(sends[0]["ts"] == 1000);  // F0 ends at 1
  CHECK(sends[0]["dur"] == 3000);
  CHECK(sends[1]["ts"] == 2000);  // F1 ends at 2, while F0 is still in flight
  CHECK(sends[0]["tid"] != sends[1]["tid"]);
  CHECK(threads == std::set<std::string>{"compute", "comm", "comm 2"});
}

TEST_CASE("Chrome trace process ids start at 1, rank r as pid r + 1, named and sorted by rank") {
  const json trace = json::parse(to_chrome_trace(test::run_unit("dualpipe", 8, 20)));
  std::map<int, std::string> names;
  std::map<int, int> sort_index;
  std::set<int> pids;
  for (const json& e : trace["traceEvents"]) {
    pids.insert(e["pid"].get<int>());
    if (e["ph"] == "M" && e["name"] == "process_name") names[e["pid"].get<int>()] = e["args"]["name"];
    if (e["ph"] == "M" && e["name"] == "process_sort_index") sort_index[e["pid"].get<int>()] = e["args"]["sort_index"];
  }
  CHECK(pids == std::set<int>{1, 2, 3, 4, 5, 6, 7, 8});
  for (int r = 0; r < 8; ++r) {
    CHECK(names[r + 1] == "rank " + std::to_string(r));
    CHECK(sort_index[r + 1] == r);
  }
}

TEST_CASE("trace names are readable: F3, B2 (dir 1), F7 & B3, and a scale other than 1000 us per unit") {
  const Run dualpipe = test::run_unit("dualpipe", 8, 20);
  const json trace = json::parse(to_chrome_trace(dualpipe));
  std::set<std::string> names;
  for (const json& e : trace["traceEvents"])
    if (e["ph"] == "X" && e["cat"] == "compute" && e["pid"] == 1) names.insert(e["name"].get<std::string>());
  CHECK(names.count("F0") == 1);
  CHECK(names.count("F0 (dir 1)") == 1);
  CHECK(names.count("F7 & B3 (dir 1)") == 1);  // rank 0's first pair: forward 7 of direction 0, backward 3 of direction 1
  const Run one = run_with("1f1b", {2, 2, 1}, default_costs());
  const json scaled = json::parse(to_chrome_trace(one, TraceOptions{1}));
  CHECK(scaled["otherData"]["us_per_unit"] == 1);
  for (const json& e : scaled["traceEvents"])
    if (e["ph"] == "X" && e["name"] == "B1" && e["pid"] == 1) CHECK(e["ts"] == 7);  // B1 runs [7, 9]
  CHECK_THROWS_WITH(to_chrome_trace(one, TraceOptions{0}),
                    "the trace's microseconds per cost unit must be a finite number > 0, got 0");
}

TEST_CASE("a trace scale that is no finite number > 0 is refused with its key and the value given") {
  const Run one = run_with("1f1b", {2, 2, 1}, default_costs());
  try {
    (void)to_chrome_trace(one, TraceOptions{-0.5});
    FAIL("accepted");
  } catch (const Error& e) {
    CHECK(e.wording().key == "trace.us_per_unit");
    CHECK(e.wording().params == std::vector<std::pair<std::string, std::string>>{{"value", "-0.5"}});
  }
}

TEST_CASE("every built-in schedule survives export to a Chrome trace and import: same ops, same makespan") {
  for (const Costs costs : {default_costs(), test::costs(1, 2, 0, 2.5, 0.5)}) {  // W = 0: ops of zero duration
    INFO("costs " << format_costs(costs));
    for_each_export_case([&](const std::string& name, ScheduleParams params) {
      const Run original = run_with(name, params, costs);
      const Run back = run_custom_with_costs(to_chrome_trace(original), costs);
      CHECK(back.schedule.ops == original.schedule.ops);
      CHECK(back.schedule.rank_begin == original.schedule.rank_begin);
      CHECK(back.schedule.layout.directions == original.schedule.layout.directions);
      CHECK(back.schedule.layout.rank_of_stage == original.schedule.layout.rank_of_stage);
      CHECK(back.schedule.params.micro_batches == original.schedule.params.micro_batches);
      CHECK(back.metrics.makespan == original.metrics.makespan);
      CHECK(back.timeline.end == original.timeline.end);
    });
  }
}

TEST_CASE("import orders a rank's ops by time, not by their place in the file") {
  const Run original = run_with("zb-v", {4, 8, 1}, test::costs(1, 2, 0, 3));  // W = 0 ties W with the next op
  json trace = json::parse(to_chrome_trace(original));
  std::reverse(trace["traceEvents"].begin(), trace["traceEvents"].end());
  CHECK(parse_custom_schedule(trace.dump()).ops == original.schedule.ops);
}

TEST_CASE("traces not written by pipesim, or malformed, are refused with one line") {
  const std::string ours = R"("otherData": {"generator": "pipesim", "ranks": 2, "micro_batches": 2, "stages": 2})";
  CHECK_THROWS_WITH(parse_custom_schedule(R"({"traceEvents": []})"),
                    "this Chrome trace was not written by pipesim (otherData.generator is not \"pipesim\"); pipesim reads "
                    "back only traces from `simulate --format chrome-trace`");
  CHECK_THROWS_WITH(parse_custom_schedule(R"({"traceEvents": [], "otherData": {"generator": "torch"}})"),
                    Catch::StartsWith("this Chrome trace was not written by pipesim"));
  CHECK_THROWS_WITH(parse_custom_schedule(R"([{"ph": "X", "ts": 0}])"),
                    Catch::StartsWith("a JSON array (a Chrome trace in array form?) is not a schedule"));
  CHECK_THROWS_WITH(parse_custom_schedule(R"({"traceEvents": 3, )" + ours + "}"),
                    "pipesim trace: traceEvents must be an array of events");
  CHECK_THROWS_WITH(parse_custom_schedule(R"({"traceEvents": [], "otherData": {"generator": "pipesim"}})"),
                    "pipesim trace: otherData.ranks is missing");
  CHECK_THROWS_WITH(parse_custom_schedule(R"({"traceEvents": [7], )" + ours + "}"),
                    "pipesim trace: traceEvents[0] is not an object; every event is one");
  CHECK_THROWS_WITH(parse_custom_schedule(R"({"traceEvents": [{"ph": "X", "cat": "compute", "pid": 3, "ts": 0}], )" + ours + "}"),
                    "pipesim trace: traceEvents[0]: pid must be a rank's process id, rank + 1, from 1 to 2");
  CHECK_THROWS_WITH(parse_custom_schedule(R"({"traceEvents": [{"ph": "X", "cat": "compute", "pid": 0, "ts": 0}], )" + ours + "}"),
                    "pipesim trace: traceEvents[0]: pid must be a rank's process id, rank + 1, from 1 to 2");
  CHECK_THROWS_WITH(parse_custom_schedule(R"({"traceEvents": [{"ph": "X", "cat": "compute", "pid": 1, "ts": 0}], )" + ours + "}"),
                    "pipesim trace: traceEvents[0]: a compute event needs its args object");
  CHECK_THROWS_WITH(
      parse_custom_schedule(R"({"traceEvents": [{"ph": "X", "cat": "compute", "pid": 1, "ts": 0, "args": {"mb": 0}}], )" + ours + "}"),
      "pipesim trace: traceEvents[0]: args.kind must be \"F\", \"B\", \"I\", \"W\" or \"FB\"");
  CHECK_THROWS_WITH(
      parse_custom_schedule(R"({"traceEvents": [{"ph": "X", "cat": "compute", "pid": 1, "ts": 0, "args": {"kind": "F", "stage": 0}}], )" +
                            ours + "}"),
      "rank 0, op 0: 'mb' is missing");
  // An edited trace whose order cannot run is checked like any schedule.
  const Run r = run_with("1f1b", {2, 2, 1}, default_costs());
  json trace = json::parse(to_chrome_trace(r));
  for (json& e : trace["traceEvents"])
    if (e["ph"] == "X" && e["cat"] == "compute" && e["pid"] == 1 && e["name"] == "B0") e["ts"] = -1;
  CHECK_THROWS_WITH(parse_custom_schedule(trace.dump()),
                    "rank 0, op 0 (B0): a backward runs before the forward of its chunk on this rank");
}

TEST_CASE("the CSV has a header and one row per op, rank by rank, FB halves in the b_ columns") {
  const Run r = test::run_unit("dualpipe", 4, 8);
  const std::string csv = to_csv(r);
  std::vector<std::vector<std::string>> rows;
  std::size_t pos = 0;
  while (pos < csv.size()) {
    const std::size_t end = csv.find("\r\n", pos);
    REQUIRE(end != std::string::npos);  // RFC 4180: every record ends with CRLF
    std::vector<std::string> fields{""};
    for (std::size_t k = pos; k < end; ++k) {
      if (csv[k] == ',') fields.emplace_back();
      else fields.back() += csv[k];
    }
    rows.push_back(fields);
    pos = end + 2;
  }
  REQUIRE(rows.size() == r.schedule.ops.size() + 1);
  CHECK(rows[0] == std::vector<std::string>{"rank", "index", "op", "mb", "phase", "stage", "b_mb", "b_phase", "b_stage",
                                            "start", "end", "duration"});
  int pairs = 0;
  for (std::size_t k = 1; k < rows.size(); ++k) {
    const auto& f = rows[k];
    REQUIRE(f.size() == 12);
    const Op& op = r.schedule.ops[k - 1];
    CHECK(f[0] == std::to_string(r.schedule.rank_of_op(static_cast<int>(k - 1))));
    CHECK(f[2] == std::string(kind_name(op.kind)));
    CHECK(f[3] == std::to_string(op.chunk.mb));
    if (op.kind == OpKind::FB) {
      ++pairs;
      CHECK(f[6] == std::to_string(op.backward.mb));
      CHECK(f[7] == std::to_string(op.backward.phase));
      CHECK(f[8] == std::to_string(op.backward.stage));
    } else {
      CHECK((f[6].empty() && f[7].empty() && f[8].empty()));
    }
    CHECK(std::stod(f[9]) == r.timeline.start[k - 1]);
    CHECK(std::stod(f[10]) == r.timeline.end[k - 1]);
    CHECK(near(std::stod(f[11]), r.timeline.end[k - 1] - r.timeline.start[k - 1]));
  }
  CHECK(pairs > 0);
}

TEST_CASE("the XML check used on SVGs rejects what is not well-formed") {
  std::string why;
  CHECK(well_formed("<a x=\"1\"><b/>t &amp; u</a>", why));
  CHECK_FALSE(well_formed("<a><b></a>", why));
  CHECK_FALSE(well_formed("<a>x & y</a>", why));
  CHECK_FALSE(well_formed("<a x=1></a>", why));
  CHECK_FALSE(well_formed("<a x=\"<\"></a>", why));
  CHECK_FALSE(well_formed("<a></a><b></b>", why));
  CHECK_FALSE(well_formed("<a>", why));
}

TEST_CASE("the SVG is well-formed standalone XML with one row label per rank and a bordered cell per FB") {
  for_each_export_case([&](const std::string& name, ScheduleParams params) {
    const Run r = run_with(name, params, test::costs(1, 2, 1, 3, 0.5));
    const std::string svg = to_svg(r);
    std::string why;
    CHECK(well_formed(svg, why));
    INFO(why);
    CHECK(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\"") != std::string::npos);
    for (const char* forbidden : {"<style", "<script", "href", "url(", "<foreignObject"}) CHECK(svg.find(forbidden) == std::string::npos);
    for (int rank = 0; rank < r.schedule.ranks(); ++rank) CHECK(count_occurrences(svg, ">rank " + std::to_string(rank) + "</text>") == 1);
    CHECK(count_occurrences(svg, ">rank " + std::to_string(r.schedule.ranks()) + "</text>") == 0);
    const auto fbs = std::count_if(r.schedule.ops.begin(), r.schedule.ops.end(), [](const Op& op) { return op.kind == OpKind::FB; });
    // The pair's border, plus the legend's swatch when the schedule has pairs.
    CHECK(count_occurrences(svg, "fill=\"none\" stroke=\"#111111\"") == (fbs > 0 ? fbs + 1 : 0));
  });
}

TEST_CASE("the SVG title line gives the numbers, and text is escaped for XML") {
  Run r = test::run_unit("dualpipe", 8, 20);
  const std::string svg = to_svg(r);
  CHECK(svg.find("DualPipe: 8 ranks, 20 micro-batches, makespan 66, bubble 9.09%") != std::string::npos);
  CHECK(svg.find("#f28e2b") != std::string::npos);
  CHECK(svg.find("#a8d59d") != std::string::npos);  // backward of direction 1
  ScheduleSpec odd = *r.spec;
  odd.texts.en.title = "A<B & \"C\" 'D'";
  r.spec = &odd;
  const std::string escaped = to_svg(r);
  std::string why;
  CHECK(well_formed(escaped, why));
  CHECK(escaped.find("A&lt;B &amp; &quot;C&quot; &apos;D&apos;: 8 ranks") != std::string::npos);
  CHECK(json::parse(to_chrome_trace(r))["otherData"]["title"] == "A<B & \"C\" 'D'");
}
