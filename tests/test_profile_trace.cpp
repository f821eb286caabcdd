// Reading PyTorch profiler traces and measuring one F&B pair from them. The fixture
// tests/data/profiler/chunk_pair.json is hand-made in the profiler's shape (DeepSeek's train.json is
// the model): a main thread with the ten components' record_function ranges, backward kernels
// launched from autograd's thread, correlation ids and ac2g flows (one kernel with neither, one with a
// flow only, one with no flow), two compute streams (7, 23), a DeepEP/NCCL stream (27), a second
// process, and events of kinds pipesim does not read. Its times are chosen so every measure is exact.
#include <catch2/catch.hpp>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "pipesim/error.h"
#include "pipesim/measured_chunk.h"
#include "pipesim/profile_trace.h"

namespace {

using namespace pipesim;

auto fixture(const std::string& name) -> std::string {
  std::ifstream in(std::string(PIPESIM_SOURCE_DIR) + "/tests/data/profiler/" + name, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

auto busy_of(const MeasuredChunk& m, Component c) -> double {
  for (const MeasuredComponent& x : m.components)
    if (x.component == c) return x.busy_us;
  return -1;
}

void check_trace_refused(const std::string& text, ErrorCode code, const std::string& fragment) {
  INFO(text.substr(0, 200));
  try {
    (void)measure_chunk_pair(read_profile_trace(text));
    FAIL("accepted");
  } catch (const Error& e) {
    CHECK(e.code() == code);
    CHECK_THAT(e.what(), Catch::Contains(fragment));
  }
}

constexpr Component fwd(Part p) { return {Pass::forward, p}; }
constexpr Component bwd(Part p) { return {Pass::backward, p}; }

}  // namespace

TEST_CASE("the profiler reader keeps kernels, launches, annotations and the rank, and counts the rest") {
  const ProfileTrace t = read_profile_trace(fixture("chunk_pair.json"));
  CHECK(t.rank == 3);
  CHECK(t.world_size == 8);
  CHECK(t.kernels.size() == 15);
  CHECK(t.launches.size() == 14);     // every kernel but the one with no runtime event
  CHECK(t.annotations.size() == 16);  // ProfilerStep, 1F1B, optimizer.step, the other process's, 12 components
  CHECK(t.ignored == 10);             // metadata, instant, Trace span, cpu_op, python_function, counter, memcpy, unknown
  CHECK(t.unlinked_kernels == 1);     // the flow-only kernel got its id from the flow
}

TEST_CASE("a kernel name reads as communication for NCCL, DeepEP and all-to-all kernels only") {
  CHECK(is_communication_kernel("ncclDevKernel_SendRecv(ncclDevComm*)"));
  CHECK(is_communication_kernel("void dpsk::ep::internode::cached_notify<false>(int)"));
  CHECK(is_communication_kernel("void deep_ep::intranode::dispatch<8>(int4*)"));
  CHECK(is_communication_kernel("c10d::all_to_all_single"));
  CHECK_FALSE(is_communication_kernel("void cutlass::device_kernel<dpsk::grouped_gemm::GemmKernel>(x)"));
  CHECK_FALSE(is_communication_kernel("void flash_fwd_kernel<Flash_fwd_kernel_traits>(Flash_fwd_params)"));
}

TEST_CASE("annotations name the ten Fig. 4 components by word and pass letter") {
  CHECK(component_of_annotation("attn(F)") == fwd(Part::attn));
  CHECK(component_of_annotation("attn(B)") == bwd(Part::attn_b));
  CHECK(component_of_annotation("ATTN(W)") == bwd(Part::attn_w));
  CHECK(component_of_annotation("layer 3 mlp(B)") == bwd(Part::mlp_b));
  CHECK(component_of_annotation("moe (W)") == bwd(Part::mlp_w));
  CHECK(component_of_annotation("dispatch(F)") == fwd(Part::dispatch));
  CHECK(component_of_annotation("combine(B)") == bwd(Part::combine));
  CHECK(component_of_annotation("pp(B)") == bwd(Part::pp));
  CHECK_FALSE(component_of_annotation("dispatch(W)"));
  CHECK_FALSE(component_of_annotation("ProfilerStep#1"));
  CHECK_FALSE(component_of_annotation("1F1B"));
}

TEST_CASE("a measured pair: span, lane busy times, hidden and exposed communication are unions of kernels") {
  const MeasuredChunk m = measure_chunk_pair(read_profile_trace(fixture("chunk_pair.json")));
  CHECK(m.rank == 3);
  CHECK(m.kernels == 15);
  CHECK(m.span_us == 44);
  // compute: [0, 19.25) on streams 7 and 23, [20, 42.5), the optimizer's [43, 44)
  CHECK(m.compute_busy_us == 42.75);
  // communication: [0.5, 6), [10.75, 20.5) with DeepEP's FP8 cast, [21, 26), [29, 36), [40.5, 41.5)
  CHECK(m.communication_busy_us == 28.25);
  CHECK(m.hidden_comm_us == 27.5);
  CHECK(m.exposed_comm_us == 0.75);  // [19.25, 20): DISPATCH(F) outlives MLP(W)
}

TEST_CASE("a measured pair: each component is the union of the kernels launched under its annotation") {
  const MeasuredChunk m = measure_chunk_pair(read_profile_trace(fixture("chunk_pair.json")));
  CHECK(busy_of(m, fwd(Part::attn)) == 10.5);
  CHECK(busy_of(m, fwd(Part::dispatch)) == 9.75);  // the cast on the communication stream belongs to it
  CHECK(busy_of(m, fwd(Part::mlp)) == 8);
  CHECK(busy_of(m, fwd(Part::combine)) == 6);
  CHECK(busy_of(m, fwd(Part::pp)) == 1);
  CHECK(busy_of(m, bwd(Part::combine)) == 5.5);    // launched from autograd's thread
  CHECK(busy_of(m, bwd(Part::mlp_b)) == 5.5);
  CHECK(busy_of(m, bwd(Part::mlp_w)) == 3.25);     // on the second compute stream
  CHECK(busy_of(m, bwd(Part::dispatch)) == 5);
  CHECK(busy_of(m, bwd(Part::attn_b)) == 12);      // its second kernel has no launch: stream order
  CHECK(busy_of(m, bwd(Part::attn_w)) == 2.5);     // linked by its flow only
  CHECK(busy_of(m, bwd(Part::pp)) == 1);
  CHECK(m.attributed_by[static_cast<int>(Attribution::launch)] == 7);
  CHECK(m.attributed_by[static_cast<int>(Attribution::other_thread)] == 6);
  CHECK(m.attributed_by[static_cast<int>(Attribution::stream_order)] == 1);
  CHECK(m.attributed_by[static_cast<int>(Attribution::none)] == 1);
  // The optimizer's kernel: launched under optimizer.step, and another process's attn(F) range around
  // the same moment does not claim it.
  CHECK(m.unattributed_kernels == 1);
  CHECK(m.unattributed_compute_us == 1);
  CHECK(m.unattributed_comm_us == 0);
  CHECK(m.off_lane_kernels == 0);
}

TEST_CASE("a measured pair hands its component times to the chunk model, PP as the mean of PP(F) and PP(B)") {
  const MeasuredChunk m = measure_chunk_pair(read_profile_trace(fixture("chunk_pair.json")));
  CHECK(m.durations.forward.attn == 10.5);
  CHECK(m.durations.backward.attn_b == 12);
  CHECK(m.durations.pp == 1);
  const Overlap model = run_overlap(overlap_input_from(m));
  CHECK(model.f == 35.25);  // 10.5 + 9.75 + 8 + 6 + 1: a chain
  CHECK(model.b == 30.5);   // 5.5 + 5.5 + max(3.25, 5) + 12 + max(2.5, 1)
  const Costs c = measured_costs(m, model);
  CHECK(c.f == 35.25);
  CHECK(c.b == 30.5);
  CHECK(c.w == 5.75);
  CHECK(c.fb == 44);  // the measured span
  const nlohmann::json j = measured_chunk_json(m, model);
  CHECK(j["span_us"] == 44);
  CHECK(j["model_fb_us"] == model.fb);
  CHECK(j["unattributed"]["kernels"] == 1);
}

TEST_CASE("a measured pair's model words its derivation in the language asked, English by default") {
  const std::string trace = fixture("chunk_pair.json");
  const auto formulas = [](const MeasuredOverlap& m) {
    std::set<std::string> out;
    for (const Derivation& d : m.model.derivation) out.insert(d.formula);
    return out;
  };
  CHECK(formulas(run_measured_overlap(trace)) == std::set<std::string>{"measured: the union of its kernels in the trace"});
  CHECK(formulas(run_measured_overlap(trace, "pt-BR")) == std::set<std::string>{"medido: a união dos seus kernels no trace"});
  CHECK(formulas(run_measured_overlap(trace, "zh-CN")) == std::set<std::string>{"实测：trace 中其各 kernel 的并集"});
  const Derivation pp = run_measured_overlap(trace, "pt-BR").model.derivation.back();
  CHECK(pp.worked.find("ocupado") != std::string::npos);
  CHECK(run_measured_overlap(trace, "zh-CN").model.f == run_measured_overlap(trace).model.f);  // words only
  try {
    (void)run_measured_overlap(trace, "fr");
    FAIL("fr accepted");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::unknown_name);
    CHECK(e.field() == "language");
  }
}

TEST_CASE("a measured pair's timeline is its lanes' busy stretches by component, from the first kernel") {
  const MeasuredChunk m = measure_chunk_pair(read_profile_trace(fixture("chunk_pair.json")));
  REQUIRE(!m.timeline.empty());
  CHECK(m.timeline.front().start == 0);
  CHECK(m.timeline.front().lane == Lane::compute);
  CHECK(m.timeline.front().component == fwd(Part::attn));
  double comm = 0;
  for (const MeasuredSegment& s : m.timeline)
    if (s.lane == Lane::comm) comm += s.end - s.start;
  CHECK(comm == 28.25);
}

TEST_CASE("the reader refuses what is not a profiler trace, in one line naming why") {
  const std::string good = fixture("chunk_pair.json");
  check_trace_refused(good.substr(0, good.size() / 2), ErrorCode::bad_import, "is it truncated?");
  check_trace_refused("[]", ErrorCode::bad_import, "the JSON is an array");
  check_trace_refused(R"({"schemaVersion": 1})", ErrorCode::bad_import, "no traceEvents");
  check_trace_refused(R"({"traceEvents": {"ph": "X"}})", ErrorCode::bad_import, "traceEvents is not an array");
  check_trace_refused(R"({"traceEvents": [{"ph": "X", "cat": "stuff", "name": "a", "ts": 1, "dur": 2}]})", ErrorCode::bad_import,
                "not a PyTorch profiler trace");
  check_trace_refused(R"({"otherData": {"generator": "pipesim"}, "traceEvents": []})", ErrorCode::bad_import, "pipesim simulate --schedule-file");
  check_trace_refused(R"({"schemaVersion": 1, "traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": "soon", "dur": 2}]})",
                ErrorCode::bad_import, "traceEvents[0]: a kernel event needs a finite number ts");
  check_trace_refused(R"({"schemaVersion": 1, "traceEvents": [{"ph": "X", "cat": "cpu_op", "ts": 1, "dur": 2},
                   {"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": -2}]})",
                ErrorCode::bad_import, "traceEvents[1]: a kernel event");
}

TEST_CASE("a trace without kernels or without component annotations is refused, saying what to record") {
  check_trace_refused(R"({"schemaVersion": 1, "traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 1, "dur": 2}]})",
                ErrorCode::bad_import, "holds no GPU kernels");
  check_trace_refused(R"({"schemaVersion": 1, "traceEvents": [
      {"ph": "X", "cat": "user_annotation", "name": "forward", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": {"correlation": 5}},
      {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 3, "dur": 2, "args": {"correlation": 5, "stream": 7}}]})",
                ErrorCode::bad_import, "record_function with one of: attn(f), dispatch(f), mlp(f)");
}

// Tagged [large]: the sanitized suite leaves it out (tests/CMakeLists.txt), where building its 80 MB of
// text at -O0 took minutes; the reader runs sanitized on the other traces here and in fuzz_profile_trace.
TEST_CASE("a trace of a million events is read keeping only its kernels, launches and annotations", "[large]") {
  constexpr int pairs = 250'000;  // four events each: annotation, launch, flow start, kernel
  std::string text = R"({"schemaVersion": 1, "distributedInfo": {"rank": 0, "world_size": 1}, "traceEvents": [)";
  text.reserve(static_cast<std::size_t>(pairs) * 330);
  for (int i = 0; i < pairs; ++i) {
    const std::string ts = std::to_string(i * 10) + ".5";
    const std::string id = std::to_string(i);
    text += (i ? "," : "");
    text += R"J({"ph":"X","cat":"user_annotation","name":"mlp(F)","pid":1,"tid":1,"ts":)J" + ts + R"J(,"dur":2},)J";
    text += R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":)" + ts + R"(,"dur":1,"args":{"correlation":)" + id + "}},";
    text += R"({"ph":"s","cat":"ac2g","name":"ac2g","id":)" + id + R"(,"pid":1,"tid":1,"ts":)" + ts + "},";
    text += R"({"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":)" + ts + R"(,"dur":4,"args":{"correlation":)" + id + R"(,"stream":7}})";
  }
  text += "]}";
  const ProfileTrace t = read_profile_trace(text);
  CHECK(t.events == 4u * pairs);
  CHECK(t.kernels.size() == pairs);
  CHECK(t.launches.size() == pairs);
  CHECK(t.annotations.size() == pairs);
  const MeasuredChunk m = measure_chunk_pair(t);
  CHECK(m.attributed_by[static_cast<int>(Attribution::launch)] == pairs);
  CHECK(busy_of(m, fwd(Part::mlp)) == 4.0 * pairs);
  CHECK(m.span_us == 10.0 * (pairs - 1) + 4);
  CHECK(m.timeline.size() == 1);  // one component, gaps far below the drawing's resolution
}

TEST_CASE("the drawn timeline stays bounded when components alternate faster than it resolves; busy times stay exact") {
  constexpr int kernels = 40'000;
  std::string text = R"({"schemaVersion": 1, "traceEvents": [)";
  for (int i = 0; i < kernels; ++i) {
    const std::string ts = std::to_string(i * 10);
    const std::string id = std::to_string(i);
    text += (i ? "," : "");
    text += R"J({"ph":"X","cat":"user_annotation","name":")J" + std::string(i % 2 ? "mlp(F)" : "attn(F)") +
            R"J(","pid":1,"tid":1,"ts":)J" + ts + R"J(,"dur":2},)J";
    text += R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":)" + ts + R"(,"dur":1,"args":{"correlation":)" + id + "}},";
    text += R"({"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":)" + ts + R"(,"dur":4,"args":{"correlation":)" + id + R"(,"stream":7}})";
  }
  text += "]}";
  const MeasuredChunk m = measure_chunk_pair(read_profile_trace(text));
  CHECK(m.timeline.size() <= 8192);
  CHECK(m.compute_busy_us == 4.0 * kernels);
  CHECK(busy_of(m, fwd(Part::attn)) == 2.0 * kernels);
  CHECK(busy_of(m, fwd(Part::mlp)) == 2.0 * kernels);
}

TEST_CASE("a refused profiler trace carries its rule's key and the values it quotes, for the page's other languages") {
  using Params = std::vector<std::pair<std::string, std::string>>;
  const auto wording_of = [](const std::string& text) -> Wording {
    try {
      (void)measure_chunk_pair(read_profile_trace(text));
    } catch (const Error& e) {
      return e.wording();
    }
    FAIL("accepted");
    return {};
  };
  // "{]": the parser stops at the second byte, well before the end of the 10-byte text.
  const Wording broken = wording_of("{]        ");
  CHECK(broken.key == "profile_trace.not_json");
  CHECK(broken.params == Params{{"byte", "2"}});
  const std::string good = fixture("chunk_pair.json");
  CHECK(wording_of(good.substr(0, good.size() / 2)).key == "profile_trace.truncated");
  CHECK(wording_of("[]").key == "profile_trace.top_array");
  CHECK(wording_of("[]").params.empty());
  CHECK(wording_of(R"({"schemaVersion": 1})").key == "profile_trace.no_events");
  CHECK(wording_of(R"({"traceEvents": {"ph": "X"}})").key == "profile_trace.events_not_array");
  CHECK(wording_of(R"({"traceEvents": [{"ph": "X", "cat": "stuff", "name": "a", "ts": 1, "dur": 2}]})").key ==
        "profile_trace.no_profiler_marks");
  CHECK(wording_of(R"({"otherData": {"generator": "pipesim"}, "traceEvents": []})").key == "profile_trace.pipesim_export");
  // The event's index and its category as the profiler names it, not the English "a kernel event".
  const Wording kernel = wording_of(R"({"schemaVersion": 1, "traceEvents": [{"ph": "X", "cat": "cpu_op", "ts": 1, "dur": 2},
                   {"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": -2}]})");
  CHECK(kernel.key == "profile_trace.event_time");
  CHECK(kernel.params == Params{{"index", "1"}, {"category", "kernel"}});
  CHECK(wording_of(R"({"schemaVersion": 1, "traceEvents": [{"ph": "X", "cat": "user_annotation", "name": "a", "ts": 1}]})").params ==
        Params{{"index", "0"}, {"category", "user_annotation"}});

  // One F&B pair's trace (measured_chunk.cpp): no kernels, or none under a component's annotation.
  const Wording no_kernels =
      wording_of(R"({"schemaVersion": 1, "traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 1, "dur": 2}]})");
  CHECK(no_kernels.key == "chunk_trace.no_kernels");
  CHECK(no_kernels.params.empty());
  const Wording unannotated = wording_of(R"({"schemaVersion": 1, "traceEvents": [
      {"ph": "X", "cat": "user_annotation", "name": "forward", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": {"correlation": 5}},
      {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 3, "dur": 2, "args": {"correlation": 5, "stream": 7}}]})");
  CHECK(unannotated.key == "chunk_trace.no_component_kernel");
  REQUIRE(unannotated.params.size() == 1);
  CHECK(unannotated.params[0].first == "names");
  CHECK_THAT(unannotated.params[0].second, Catch::StartsWith("attn(f), dispatch(f), mlp(f)"));
}
