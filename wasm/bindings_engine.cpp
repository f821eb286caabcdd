// The engine module (pipesim_engine): what the page needs before it can draw. Thin adapters from
// JavaScript values to the core library and back; no schedule logic lives here. Bulk results leave as
// typed arrays copied once out of the heap (typed_memory_view + slice), never as one JavaScript object
// per op. The course's calls (quiz, lesson, planner) are in the course module (bindings_course.cpp):
// they pull in the learning layer, which would make this module, the page's first download, 40% larger.
// The calls the first drawing does not need (exports, the chunk model) are in bindings_later.cpp:
// linked into the course module, which the page loads on first need, and into the Node build.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "bindings_common.h"
#include "run_request.h"
#include "pipesim/cost_text.h"
#include "pipesim/custom.h"
#include "pipesim/export.h"
#include "pipesim/limits.h"
#include "pipesim/measure.h"
#include "pipesim/overlap.h"
#include "pipesim/overlap_request.h"
#include "pipesim/presets.h"
#include "pipesim/limits.h"
#include "pipesim/registry.h"
#include "pipesim/workload.h"
#include "pipesim/limits.h"
#include "pipesim/run.h"
#include "pipesim/stage_costs.h"
#include "pipesim/sweep.h"

namespace {

using namespace pipesim_wasm;

// Reference timing only: each op's wait in its three layers and the request that ended it (its
// CommAction, stage, micro-batch and the rank at the other end; action 0 = no wait).
void add_waits(const pipesim::Run& run, val& ops) {
  const auto& waits = run.timeline.waits;
  const std::size_t n = waits.size();
  std::vector<double> used(n), unused(n), send(n);
  std::vector<unsigned char> on_action(n);
  std::vector<int> on_stage(n), on_mb(n), on_phase(n), peer(n);
  for (std::size_t i = 0; i < n; ++i) {
    used[i] = waits[i].used_receive;
    unused[i] = waits[i].unused_receive;
    send[i] = waits[i].send;
    on_action[i] = static_cast<unsigned char>(waits[i].on.action);
    on_stage[i] = waits[i].on.chunk.stage;
    on_mb[i] = waits[i].on.chunk.mb;
    on_phase[i] = waits[i].on.chunk.phase;
    peer[i] = waits[i].peer;
  }
  ops.set("waitUsedReceive", typed_array(used));
  ops.set("waitUnusedReceive", typed_array(unused));
  ops.set("waitSend", typed_array(send));
  ops.set("waitOnAction", typed_array(on_action));
  ops.set("waitOnStage", typed_array(on_stage));
  ops.set("waitOnMb", typed_array(on_mb));
  ops.set("waitOnPhase", typed_array(on_phase));
  ops.set("waitPeer", typed_array(peer));
}

auto ops_value(const pipesim::Run& run) -> val {
  const auto& s = run.schedule;
  const std::size_t n = s.ops.size();
  std::vector<int> rank(n), mb(n), phase(n), stage(n), b_mb(n), b_phase(n), b_stage(n);
  std::vector<unsigned char> kind(n);
  for (int r = 0; r < s.ranks(); ++r)
    for (int i = s.rank_begin[r]; i < s.rank_begin[r + 1]; ++i) {
      const auto ui = static_cast<std::size_t>(i);
      const pipesim::Op& op = s.ops[ui];
      rank[ui] = r;
      kind[ui] = static_cast<unsigned char>(op.kind);
      mb[ui] = op.chunk.mb;
      phase[ui] = op.chunk.phase;
      stage[ui] = op.chunk.stage;
      b_mb[ui] = op.kind == pipesim::OpKind::FB ? op.backward.mb : -1;
      b_phase[ui] = op.kind == pipesim::OpKind::FB ? op.backward.phase : -1;
      b_stage[ui] = op.kind == pipesim::OpKind::FB ? op.backward.stage : -1;
    }
  val ops = val::object();
  ops.set("count", static_cast<double>(n));
  ops.set("rank", typed_array(rank));
  ops.set("kind", typed_array(kind));
  ops.set("mb", typed_array(mb));
  ops.set("phase", typed_array(phase));
  ops.set("stage", typed_array(stage));
  ops.set("bMb", typed_array(b_mb));
  ops.set("bPhase", typed_array(b_phase));
  ops.set("bStage", typed_array(b_stage));
  ops.set("start", typed_array(run.timeline.start));
  ops.set("end", typed_array(run.timeline.end));
  ops.set("waitedFor", typed_array(run.timeline.waited_for));
  if (run.timing == pipesim::Timing::reference) add_waits(run, ops);
  return ops;
}

auto activations_value(const pipesim::Run& run) -> val {
  val per_rank = val::array();
  for (int r = 0; r < run.schedule.ranks(); ++r) {
    const auto curve = pipesim::activation_curve(run.schedule, run.timeline, r);
    std::vector<double> time;
    std::vector<int> alive;
    for (const auto& step : curve) {
      time.push_back(step.time);
      alive.push_back(step.alive);
    }
    val entry = val::object();
    entry.set("time", typed_array(time));
    entry.set("alive", typed_array(alive));
    per_rank.call<void>("push", entry);
  }
  return per_rank;
}

/// Everything a view needs for one run: the CLI's summary JSON, ops as columns, memory curves.
auto simulate(val request) -> val {
  return guarded([&] {
    const pipesim::Run run = pipesim::run(request_from(request));
    val out = val::object();
    out.set("summary", from_json(pipesim::to_json(run, pipesim::Detail::summary)));
    out.set("ops", ops_value(run));
    out.set("rankBegin", typed_array(run.schedule.rank_begin));
    out.set("activations", activations_value(run));
    return out;
  });
}

/// The CLI's JSON text for the same request (`detail` "json" or "summary"). The page asks for the
/// summary only; the full report ("json", the CLI parity checks of tests/wasm) is the Node build's:
/// it is the json export, whose writer would bring every export format back into the page's module
/// (PIPESIM_WASM_PAGE_MODULE, wasm/CMakeLists.txt).
auto simulate_json(val request, val detail_arg) -> val {
  return guarded([&] {
    const std::string detail = text_arg(detail_arg, "detail");
    const pipesim::Run run = pipesim::run(request_from(request));
    val out = val::object();
    if (detail != "json") {
      out.set("json", pipesim::to_json(run, pipesim::Detail::summary).dump(2));
      return out;
    }
#ifdef PIPESIM_WASM_PAGE_MODULE
    throw Error(ErrorCode::usage, "simulateJson's full report (detail 'json') is in the Node build; in the browser ask exportText(request, 'json') of the course module",
                {"request.full_report_in_node", {}});
#endif
    // The full report is the json export without its final newline, held within the same budget.
    std::string text = pipesim::export_text(run, pipesim::ExportFormat::json, pipesim::limits::max_export_bytes);
    text.pop_back();
    out.set("json", text);
    return out;
  });
}

/// The values of a sweep: an array of whole numbers, its length checked before any element is read.
auto sweep_values(const val& values) -> std::vector<int> {
  if (!val::global("Array").call<bool>("isArray", values))
    throw Error(ErrorCode::bad_value, "sweep values must be an array of whole numbers like [16, 18, 20], got " + js_kind(values),
                {"sweep.values", {{"value", js_kind(values)}}});
  // Checked as a double before any conversion: an array-like's length may be -1, NaN or 1e10, for
  // which a cast to size_t is undefined behaviour.
  const double length = values["length"].as<double>();
  if (!(length >= 0) || std::floor(length) != length)
    throw Error(ErrorCode::bad_value, "sweep values must be an array of whole numbers like [16, 18, 20], its length is " +
                                          js_text(values["length"]),
                {"sweep.values_length", {{"value", js_text(values["length"])}}});
  if (length > static_cast<double>(pipesim::max_sweep_points))
    throw Error(ErrorCode::limit_exceeded, "a sweep takes at most " + std::to_string(pipesim::max_sweep_points) +
                                               " points (got " + js_text(values["length"]) + ")",
                {"sweep.too_many_points", {{"max", std::to_string(pipesim::max_sweep_points)}, {"value", js_text(values["length"])}}});
  const auto n = static_cast<std::size_t>(length);
  std::vector<int> xs;
  xs.reserve(n);
  for (std::size_t i = 0; i < n; ++i) xs.push_back(int_field(values, std::to_string(i).c_str(), "sweep value", 0));
  return xs;
}

auto sweep(val request, val axis_arg, val values) -> val {
  return guarded([&] {
    const std::string axis = text_arg(axis_arg, "sweep axis");
    const std::vector<int> xs = sweep_values(values);
    const auto points = pipesim::sweep(request_from(request), pipesim::parse_sweep_axis(axis), xs);
    std::vector<int> value, peak;
    std::vector<unsigned char> valid, exact;
    std::vector<double> makespan, bubble, span_bubble, max_bubble, formula;
    val errors = val::array();
    for (const auto& p : points) {
      value.push_back(p.value);
      valid.push_back(p.valid ? 1 : 0);
      exact.push_back(p.formula_exact ? 1 : 0);
      peak.push_back(p.peak_activations);
      makespan.push_back(p.valid ? p.makespan : NAN);
      bubble.push_back(p.valid ? p.bubble_fraction : NAN);
      span_bubble.push_back(p.valid ? p.span_bubble_fraction : NAN);
      max_bubble.push_back(p.valid ? p.max_bubble : NAN);
      formula.push_back(p.valid ? p.formula_value : NAN);
      errors.call<void>("push", p.error);
    }
    val out = val::object();
    out.set("value", typed_array(value));
    out.set("valid", typed_array(valid));
    out.set("makespan", typed_array(makespan));
    out.set("bubbleFraction", typed_array(bubble));
    out.set("spanBubbleFraction", typed_array(span_bubble));
    out.set("maxBubble", typed_array(max_bubble));
    out.set("formulaValue", typed_array(formula));
    out.set("formulaExact", typed_array(exact));
    out.set("peakActivations", typed_array(peak));
    out.set("errors", errors);
    return out;
  });
}

/// The values of one size ("ranks", "microBatches" or "virtualStages") from 1 to `to` that the
/// request's schedule accepts with its other sizes: what the page's sliders step through.
auto accepted_values(val request, val field_arg, val to_arg) -> val {
  return guarded([&] {
    const pipesim::RunRequest r = request_from(request);
    const std::string field = text_arg(field_arg, "size field");
    val holder = val::object();
    holder.set("to", to_arg);
    const int to = std::min(int_field(holder, "to", "largest value", 1), pipesim::limits::max_ranks);
    pipesim::SizeField which = pipesim::SizeField::ranks;
    if (field == "microBatches") which = pipesim::SizeField::micro_batches;
    else if (field == "virtualStages") which = pipesim::SizeField::virtual_stages;
    else if (field != "ranks") throw Error(ErrorCode::unknown_name, "size field must be one of ranks|microBatches|virtualStages, got '" + field + "'",
                     {"size.field", {{"value", field}}});
    val out = val::object();
    out.set("values", typed_array(pipesim::accepted_values(r.schedule, r.params, which, 1, to)));
    return out;
  });
}

auto schedules() -> val { return from_json(pipesim::schedules_json()); }

auto presets() -> val { return from_json(pipesim::presets_json()); }

/// The guided lesson's runs, as lesson_steps_json() gives them.
auto lesson_steps() -> val { return from_json(pipesim::lesson_steps_json()); }

/// The bounds of pipesim/limits.h the page checks before it hands anything over (a file's size).
auto limits() -> val {
  namespace lim = pipesim::limits;
  val out = val::object();
  out.set("maxRanks", lim::max_ranks);
  out.set("maxMicroBatches", lim::max_micro_batches);
  out.set("maxVirtualStages", lim::max_virtual_stages);
  out.set("maxOps", static_cast<double>(lim::max_ops));
  out.set("maxScheduleTextBytes", static_cast<double>(lim::max_schedule_text_bytes));
  out.set("maxSmallJsonBytes", static_cast<double>(lim::max_small_json_bytes));
  out.set("maxExportBytes", static_cast<double>(lim::max_export_bytes));
  return out;
}

/// The table of export formats (pipesim/export.h), for the page's download buttons.
auto export_formats() -> val {
  val out = val::array();
  for (const pipesim::ExportFormatInfo& f : pipesim::export_formats()) {
    val entry = val::object();
    entry.set("name", std::string(f.name));
    entry.set("extension", std::string(f.extension));
    entry.set("mimeType", std::string(f.mime_type));
    entry.set("label", std::string(f.label));
    out.call<void>("push", entry);
  }
  return out;
}

auto costs_value(const pipesim::Costs& c) -> val {
  val out = val::object();
  out.set("F", c.f);
  out.set("B", c.b);
  out.set("W", c.w);
  out.set("FB", c.fb);
  out.set("comm", c.comm);
  return out;
}

/// The CLI's --cost parser on the page's cost text: the costs, or a refusal naming the cost (field).
auto parse_costs(val text) -> val {
  return guarded([&] { return costs_value(pipesim::parse_costs(reading("cost", [&] { return text_arg(text, "cost"); }))); });
}

/// The costs the text writes, its syntax checked but not its bounds (cost_text.h): what sliders show
/// while the engine refuses the text.
auto read_costs(val text) -> val {
  return guarded([&] { return costs_value(pipesim::read_costs(reading("cost", [&] { return text_arg(text, "cost"); }))); });
}

/// The bounds a cost is checked against (costs.h): any cost but FB is 0 or in [min, max]; FB lies in
/// fb_range(F, B). F and B are numbers; others are refused.
auto cost_bounds(val f, val b) -> val {
  return guarded([&] {
    const auto number = [](const val& v, const char* name) {
      if (v.typeOf().as<std::string>() != "number" || !std::isfinite(v.as<double>()))
        throw Error(ErrorCode::bad_value, std::string(name) + " must be a finite number, got " + js_text(v),
                    {"cost.finite", {{"cost", name}, {"value", js_text(v)}}}, std::string("cost.") + name);
      return v.as<double>();
    };
    const pipesim::FbRange fb = pipesim::fb_range(number(f, "F"), number(b, "B"));
    val out = val::object();
    out.set("min", pipesim::min_cost);
    out.set("max", pipesim::max_cost);
    out.set("fbMin", fb.lo);
    out.set("fbMax", fb.hi);
    return out;
  });
}

/// Any schedule in PyTorch's action notation (`0F1`, `(0F7;7B3)OVERLAP_F_B`), for export.
auto actions(val request) -> val {
  return guarded([&] {
    const pipesim::Run run = pipesim::run(request_from(request));
    val out = val::object();
    out.set("actions", pipesim::format_actions(run.schedule));
    return out;
  });
}

/// Fails inside WebAssembly the way a bug would (std::abort: Emscripten's abort throws out of the
/// module's frames), so that the page's recovery from a broken engine is tested for real: only the
/// background worker calls it, when a browser test asks (web/src/engine/worker.ts). errors.pre.js
/// then marks the module broken, as after any such failure.
void abort_for_test() { std::abort(); }

}  // namespace

EMSCRIPTEN_BINDINGS(pipesim_engine) {
  emscripten::function("simulate", &simulate);
  emscripten::function("simulateJson", &simulate_json);
  emscripten::function("sweep", &sweep);
  emscripten::function("schedules", &schedules);
  emscripten::function("presets", &presets);
  emscripten::function("lessonSteps", &lesson_steps);
  emscripten::function("limits", &limits);
  emscripten::function("actions", &actions);
  emscripten::function("exportFormats", &export_formats);
  emscripten::function("parseCosts", &parse_costs);
  emscripten::function("readCosts", &read_costs);
  emscripten::function("costBounds", &cost_bounds);
  emscripten::function("abortForTest", &abort_for_test);
  emscripten::function("acceptedValues", &accepted_values);
  emscripten::function("version", &version);
}
