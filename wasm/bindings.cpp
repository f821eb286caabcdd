// The WebAssembly surface of pipesim: thin adapters from JavaScript values to the core library and
// back. No schedule logic lives here. Bulk results leave as typed arrays copied once out of the heap
// (typed_memory_view + slice), never as one JavaScript object per op. Every entry point catches the
// core's errors and returns {error, code} with the CLI's exact message; wasm/errors.pre.js turns that
// value into a thrown PipesimError once the call has returned, so no C++ frame is unwound by JavaScript
// and the module stays usable.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "pipesim/custom.h"
#include "pipesim/export.h"
#include "pipesim/lesson.h"
#include "pipesim/planner.h"
#include "pipesim/quiz.h"
#include "pipesim/error.h"
#include "pipesim/measure.h"
#include "pipesim/overlap.h"
#include "pipesim/overlap_request.h"
#include "pipesim/parse.h"
#include "pipesim/workload.h"
#include "pipesim/report.h"
#include "pipesim/run.h"
#include "pipesim/sweep.h"
#include "detail/embedded.h"  // provide_course_data: the module does not carry core/data/*.json

namespace {

using emscripten::val;
using pipesim::Error;
using pipesim::ErrorCode;

template <typename T>
auto typed_array(const std::vector<T>& values) -> val {
  return val(emscripten::typed_memory_view(values.size(), values.data())).call<val>("slice");
}

auto from_json(const nlohmann::json& j) -> val { return val::global("JSON").call<val>("parse", j.dump()); }

auto error_value(const std::string& message, pipesim::ErrorCode code) -> val {
  val out = val::object();
  out.set("error", message);
  out.set("code", std::string(pipesim::code_name(code)));
  return out;
}

// Runs `body` and turns any failure into {error}, so JavaScript always gets a value back.
template <typename Body>
auto guarded(Body body) -> val {
  try {
    return body();
  } catch (const Error& e) {
    return error_value(e.what(), e.code());
  } catch (const std::bad_alloc&) {
    return error_value("out of memory: the request needs more memory than this page can have", pipesim::ErrorCode::limit_exceeded);
  } catch (const std::exception& e) {
    return error_value(std::string("internal error: ") + e.what(), pipesim::ErrorCode::internal);
  }
}

/// A JavaScript value as text, as String(v) gives it: what a user would type after the CLI's option,
/// so the core's parse_whole_in / parse_number_in refuse it in the CLI's words.
auto js_text(const val& v) -> std::string { return val::global("String")(v).as<std::string>(); }

/// What a value is, for a message that expected another kind: "a number", "an object", "null".
auto js_kind(const val& v) -> std::string {
  if (v.isNull()) return "null";
  const std::string type = v.typeOf().as<std::string>();
  if (type == "undefined") return type;
  return (type == "object" ? "an " : "a ") + type;
}

auto int_field(const val& obj, const char* key, const char* label, int fallback) -> int {
  const val v = obj[key];
  if (v.isUndefined() || v.isNull()) return fallback;
  const std::string type = v.typeOf().as<std::string>();
  double d = NAN;
  if (type == "number") d = v.as<double>();
  else if (type == "string") d = pipesim::parse_finite(v.as<std::string>()).value_or(NAN);
  if (!std::isfinite(d) || std::floor(d) != d || std::fabs(d) > 1e9)
    throw Error(ErrorCode::bad_value, std::string(label) + " must be a whole number, got " + val::global("String")(v).as<std::string>());
  return static_cast<int>(d);
}

/// A string argument. Parameters are taken as JavaScript values, not std::string, so that a number or
/// an object is refused with {error} instead of throwing a binding error past `guarded`.
auto text_arg(const val& v, const char* name) -> std::string {
  if (v.typeOf().as<std::string>() != "string") throw Error(ErrorCode::bad_value, std::string(name) + " must be a string, got " + js_kind(v));
  return v.as<std::string>();
}

auto text_field(const val& obj, const char* key) -> std::string {
  const val v = obj[key];
  if (v.isUndefined() || v.isNull()) return {};
  if (v.typeOf().as<std::string>() != "string") throw Error(ErrorCode::bad_value, std::string(key) + " must be a string");
  return v.as<std::string>();
}

auto request_from(const val& js) -> pipesim::RunRequest {
  if (js.isUndefined() || js.isNull() || js.typeOf().as<std::string>() != "object")
    throw Error(ErrorCode::usage, "a request must be an object like {schedule: 'dualpipe', ranks: 8, microBatches: 20}");
  pipesim::RunRequest r;
  if (const std::string name = text_field(js, "schedule"); !name.empty()) r.schedule = name;
  r.params.ranks = int_field(js, "ranks", "ranks", r.params.ranks);
  r.params.micro_batches = int_field(js, "microBatches", "micro-batches", r.params.micro_batches);
  r.params.virtual_stages = int_field(js, "virtualStages", "virtual stages", r.params.virtual_stages);
  if (const std::string cost = text_field(js, "cost"); !cost.empty()) r.costs = pipesim::parse_costs(cost);
  r.custom_schedule = text_field(js, "customSchedule");
  return r;
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

/// The CLI's JSON text for the same request (`detail` "json" or "summary"), for parity checks.
auto simulate_json(val request, val detail_arg) -> val {
  return guarded([&] {
    const std::string detail = text_arg(detail_arg, "detail");
    const pipesim::Run run = pipesim::run(request_from(request));
    val out = val::object();
    out.set("json", pipesim::to_json(run, detail == "json" ? pipesim::Detail::full : pipesim::Detail::summary).dump(2));
    return out;
  });
}

/// The values of a sweep: an array of whole numbers, its length checked before any element is read.
auto sweep_values(const val& values) -> std::vector<int> {
  if (!val::global("Array").call<bool>("isArray", values))
    throw Error(ErrorCode::bad_value, "sweep values must be an array of whole numbers like [16, 18, 20], got " + js_kind(values));
  const auto n = static_cast<std::size_t>(values["length"].as<double>());
  pipesim::check_sweep_size(n);
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

auto optional_text(const val& obj, const char* key) -> std::optional<std::string> {
  const val v = obj[key];
  if (v.isUndefined() || v.isNull()) return std::nullopt;
  if (v.typeOf().as<std::string>() == "number") return val::global("String")(v).as<std::string>();
  return text_field(obj, key);
}

auto optional_number(const val& obj, const char* key) -> std::optional<double> {
  const auto text = optional_text(obj, key);
  if (!text) return std::nullopt;
  const auto d = pipesim::parse_finite(*text);
  if (!d) throw Error(ErrorCode::bad_value, std::string(key) + " must be a number, got " + *text);
  return d;
}

auto optional_int(const val& obj, const char* key) -> std::optional<int> {
  if (!optional_text(obj, key)) return std::nullopt;
  return int_field(obj, key, key, 0);
}

/// The chunk model (DeepSeek-V3 Fig. 4) for {forward, backward, ppComm} or {workload} (JSON text),
/// with optional {commSms, totalSms, saturationSms, ratio}: the CLI's `overlap --format json`.
auto overlap(val request) -> val {
  return guarded([&] {
    if (request.isUndefined() || request.isNull() || request.typeOf().as<std::string>() != "object")
      throw Error(ErrorCode::usage, "an overlap request must be an object like {ratio: '1:1', commSms: 20}");
    pipesim::OverlapRequest r;
    r.forward = optional_text(request, "forward");
    r.backward = optional_text(request, "backward");
    r.pp_comm = optional_number(request, "ppComm");
    r.workload = optional_text(request, "workload");
    r.comm_sms = optional_int(request, "commSms");
    r.total_sms = optional_int(request, "totalSms");
    r.saturation_sms = optional_int(request, "saturationSms");
    r.ratio = optional_text(request, "ratio");
    return from_json(pipesim::overlap_json(pipesim::run_overlap(pipesim::make_overlap_input(r))));
  });
}

auto default_workload() -> val { return from_json(pipesim::workload_json(pipesim::deepseek_v3_workload())); }

auto schedules() -> val { return from_json(pipesim::schedules_json()); }

/// Any schedule in PyTorch's action notation (`0F1`, `(0F7;7B3)OVERLAP_F_B`), for export.
auto actions(val request) -> val {
  return guarded([&] {
    const pipesim::Run run = pipesim::run(request_from(request));
    val out = val::object();
    out.set("actions", pipesim::format_actions(run.schedule));
    return out;
  });
}

/// Microseconds per cost unit for a trace: 0 (or undefined) is the CLI's default, anything else must
/// lie where --us-per-unit does and is refused in its words, whatever the format, so a caller's bad
/// value shows at once rather than on its first trace.
auto trace_options(const val& us_per_unit) -> pipesim::TraceOptions {
  pipesim::TraceOptions options;
  if (us_per_unit.isUndefined()) return options;
  const std::string text = js_text(us_per_unit);
  if (pipesim::parse_finite(text) == 0.0) return options;
  options.us_per_unit = pipesim::parse_number_in("us-per-unit", text, pipesim::TraceOptions::min_us_per_unit,
                                                 pipesim::TraceOptions::max_us_per_unit);
  return options;
}

/// The run in one of the CLI's export formats: chrome-trace, csv, svg, actions, json.
auto export_text(val request, val format_arg, val us_per_unit) -> val {
  return guarded([&] {
    const std::string format = text_arg(format_arg, "export format");
    const pipesim::TraceOptions options = trace_options(us_per_unit);
    const pipesim::Run run = pipesim::run(request_from(request));
    std::string text;
    if (format == "chrome-trace") text = pipesim::to_chrome_trace(run, options);
    else if (format == "csv") text = pipesim::to_csv(run);
    else if (format == "svg") text = pipesim::to_svg(run);
    else if (format == "actions") text = pipesim::format_actions(run.schedule);
    else if (format == "json") text = pipesim::to_json(run, pipesim::Detail::full).dump(2) + "\n";
    else throw Error(ErrorCode::unknown_name, "export format must be one of chrome-trace|csv|svg|actions|json, got '" + format + "'");
    val out = val::object();
    out.set("text", text);
    return out;
  });
}

/// The course's quiz.json (1 pre, 3 check, 2 post), options shuffled from `seed`: `pipesim quiz --course`.
/// The seed is checked as `--seed` is: a page may hand over NaN, -1 or 2**53 from storage.
auto course_quiz(val lang_arg, val seed) -> val {
  return guarded([&] {
    const std::string lang = text_arg(lang_arg, "lang");
    const int checked = pipesim::parse_whole_in("seed", js_text(seed), 0, pipesim::max_quiz_seed);
    return from_json(pipesim::course_quiz(lang, static_cast<std::uint64_t>(checked)));
  });
}

/// A lesson exercise worked by the engine, every step as data: `pipesim lesson --format json`.
auto lesson(val request) -> val {
  return guarded([&] {
    pipesim::LessonRequest r;
    r.exercise = int_field(request, "exercise", "exercise", 1);
    if (const std::string lang = text_field(request, "lang"); !lang.empty()) r.language = lang;
    if (const std::string cost = text_field(request, "cost"); !cost.empty()) r.costs = pipesim::parse_costs(cost);
    if (const auto bytes = optional_number(request, "bytesPerParam")) r.bytes_per_param = *bytes;
    if (const auto memory = optional_number(request, "gpuMemoryGb")) r.gpu_memory_gb = *memory;
    return from_json(pipesim::lesson_exercise(r));
  });
}

/// The planner on a JSON input, explained in `lang` (`pipesim plan --input FILE --format json --lang L`).
auto plan(val input, val lang) -> val {
  return guarded([&] { return from_json(pipesim::plan_from_json(text_arg(input, "plan input"), text_arg(lang, "lang"))); });
}

/// Hands over core/data/NAME.json, which this module does not carry (detail/provided_data.cpp): the
/// page loads it the first time a quiz, lesson or planner call needs it.
auto provide_course_data(val name, val text) -> val {
  return guarded([&] {
    pipesim::detail::provide_course_data(text_arg(name, "course data name"), text_arg(text, "course data"));
    return val::undefined();
  });
}

auto version() -> std::string { return PIPESIM_VERSION; }

}  // namespace

EMSCRIPTEN_BINDINGS(pipesim) {
  emscripten::function("simulate", &simulate);
  emscripten::function("simulateJson", &simulate_json);
  emscripten::function("sweep", &sweep);
  emscripten::function("schedules", &schedules);
  emscripten::function("overlap", &overlap);
  emscripten::function("actions", &actions);
  emscripten::function("exportText", &export_text);
  emscripten::function("courseQuiz", &course_quiz);
  emscripten::function("lesson", &lesson);
  emscripten::function("plan", &plan);
  emscripten::function("defaultWorkload", &default_workload);
  emscripten::function("provideCourseData", &provide_course_data);
  emscripten::function("version", &version);
}
