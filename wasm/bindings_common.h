// What both WebAssembly modules' bindings share (bindings_engine.cpp, bindings_course.cpp): turning
// JavaScript values into the core's inputs, with the CLI's words when they are refused, and results
// and failures back into JavaScript values. Every entry point runs its body in guarded(), which returns
// {error, code} instead of throwing; wasm/errors.pre.js turns that value into a thrown PipesimError
// once the call has returned, so no C++ frame is unwound by JavaScript and the module stays usable.
#pragma once

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstddef>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>  // linked by the modules themselves (wasm/CMakeLists.txt)

#include "pipesim/error.h"
#include "pipesim/json_document.h"
#include "pipesim/parse.h"
#include "pipesim/report.h"
#include "pipesim/version.h"

namespace pipesim_wasm {

using emscripten::val;
using pipesim::Error;
using pipesim::ErrorCode;

/// The engine and the course module both export it (tests/wasm checks that the two agree).
inline auto version() -> std::string { return std::string(pipesim::version()); }

template <typename T, typename Allocator>
inline auto typed_array(const std::vector<T, Allocator>& values) -> val {
  return val(emscripten::typed_memory_view(values.size(), values.data())).call<val>("slice");
}

inline auto from_json(const nlohmann::json& j) -> val { return val::global("JSON").call<val>("parse", j.dump()); }
inline auto from_json(const pipesim::JsonDocument& d) -> val { return val::global("JSON").call<val>("parse", d.dump()); }

inline auto error_value(const std::string& message, pipesim::ErrorCode code, const pipesim::Wording& wording = {},
                        const std::string& field = {}) -> val {
  val out = val::object();
  out.set("error", message);
  out.set("code", std::string(pipesim::code_name(code)));
  // The input the refusal is about (Error::field), so a page marks that field without reading the text.
  if (!field.empty()) out.set("field", field);
  // The refusal's key and values, for a page that words it in another language.
  if (!wording.key.empty()) {
    val params = val::object();
    for (const auto& [name, value] : wording.params) params.set(name, value);
    val w = val::object();
    w.set("key", wording.key);
    w.set("params", params);
    out.set("wording", w);
  }
  return out;
}

// The failure being handled as {error}: called inside a handler, it throws the failure again to tell
// its kind. One function for every entry point, so each guarded() below has one handler, not three
// (issue 14: size). A failure of another kind goes on, as it would through guarded().
[[gnu::noinline]] inline auto failure_value() -> val {
  try {
    throw;
  } catch (const Error& e) {
    return error_value(e.what(), e.code(), e.wording(), e.field());
  } catch (const std::bad_alloc&) {
    return error_value("out of memory: the request needs more memory than this page can have", pipesim::ErrorCode::limit_exceeded);
  } catch (const std::exception& e) {
    return error_value(std::string("internal error: ") + e.what(), pipesim::ErrorCode::internal);
  }
}

// Runs `body` and turns any failure into {error}, so JavaScript always gets a value back.
template <typename Body>
inline auto guarded(Body body) -> val {
  try {
    return body();
  } catch (...) {
    return failure_value();
  }
}

/// The refusal being handled, thrown again naming `field` (Error::field) unless it names a more precise
/// one already; a failure of another kind goes on as it is. Called inside a handler, like failure_value().
[[noreturn, gnu::noinline]] inline void rethrow_about(const char* field) {
  try {
    throw;
  } catch (const Error& e) {
    throw e.about(field);
  }
}

/// `read()`, its refusal naming `field`.
template <typename Read>
inline auto reading(const char* field, Read read) -> decltype(read()) {
  try {
    return read();
  } catch (...) {
    rethrow_about(field);
  }
}

/// What a value is, for a message that expected another kind: "a number", "an array", "an object",
/// "null" (the kinds the core's describe_json names, which the page words in its languages).
inline auto js_kind(const val& v) -> std::string {
  if (v.isNull()) return "null";
  const std::string type = v.typeOf().as<std::string>();
  if (type == "undefined") return type;
  if (type == "object") return val::global("Array").call<bool>("isArray", v) ? "an array" : "an object";
  return "a " + type;
}

/// The most UTF-16 units of a value a refusal quotes: the core's pipesim::max_quoted_chars, which its
/// own quotes of typed text and JSON values keep (quoted_input, describe_json).
inline constexpr int max_quoted_chars = static_cast<int>(pipesim::max_quoted_chars);

/// A JavaScript value as a refusal quotes it: a number, string, boolean or bigint as String(v) gives
/// it (what a user would type after the CLI's option, so the core's parse_whole_in / parse_number_in
/// refuse it in the CLI's words), cut to max_quoted_chars (37 and "...") before it is copied into the
/// module; an array, object, function or symbol by its kind (js_kind, "an array"), never by what its
/// toString says: String([8]) is "8", and a caller's toString may throw.
inline auto js_text(const val& v) -> std::string {
  const std::string type = v.typeOf().as<std::string>();
  if ((type == "object" && !v.isNull()) || type == "function" || type == "symbol") return js_kind(v);
  val text = val::global("String")(v);
  if (text["length"].as<double>() > max_quoted_chars) {
    int keep = max_quoted_chars - 3;
    // Never half of a surrogate pair: the text stays valid UTF-8.
    const int last = text.call<int>("charCodeAt", keep - 1);
    if (last >= 0xD800 && last <= 0xDBFF) --keep;
    text = text.call<val>("slice", 0, keep).call<val>("concat", std::string("..."));
  }
  return text.as<std::string>();
}

/// A value as a finite number: a number, or a string that writes one (`quoted`, the value as js_text
/// quotes it: a cut text ends in "...", so it is no number). Nothing for anything else.
inline auto js_number(const val& v, const std::string& quoted) -> std::optional<double> {
  const std::string type = v.typeOf().as<std::string>();
  std::optional<double> d;
  if (type == "number") d = v.as<double>();
  else if (type == "string") d = pipesim::parse_finite(quoted);
  if (d && !std::isfinite(*d)) d.reset();
  return d;
}

/// A whole number field (a number, or a string that writes one); absent or null is `fallback`.
/// Anything else is refused naming `label`, the value quoted as js_text does.
inline auto int_field(const val& obj, const char* key, const char* label, int fallback) -> int {
  const val v = obj[key];
  if (v.isUndefined() || v.isNull()) return fallback;
  const std::string text = js_text(v);
  const double d = js_number(v, text).value_or(NAN);
  if (!std::isfinite(d) || std::floor(d) != d || std::fabs(d) > 1e9)
    throw Error(ErrorCode::bad_value, std::string(label) + " must be a whole number, got " + text,
                {"size.whole_number", {{"field", label}, {"value", text}}});
  return static_cast<int>(d);
}

/// A string argument. Parameters are taken as JavaScript values, not std::string, so that a number or
/// an object is refused with {error} instead of throwing a binding error past `guarded`.
inline auto text_arg(const val& v, const char* name) -> std::string {
  if (v.typeOf().as<std::string>() != "string")
    throw Error(ErrorCode::bad_value, std::string(name) + " must be a string, got " + js_kind(v), {"arg.string", {{"name", name}, {"value", js_kind(v)}}});
  return v.as<std::string>();
}

/// A string field. With `max_bytes`, a string longer than that is refused by its length before it is
/// copied into the module's memory: a copy whose allocation failed would be written at address 0.
inline auto text_field(const val& obj, const char* key, std::size_t max_bytes = 0) -> std::string {
  const val v = obj[key];
  if (v.isUndefined() || v.isNull()) return {};
  if (v.typeOf().as<std::string>() != "string")
    throw Error(ErrorCode::bad_value, std::string(key) + " must be a string", {"arg.string", {{"name", key}, {"value", js_kind(v)}}});
  // UTF-16 units: each is at least one byte of UTF-8, so more units than bytes allowed is too long.
  const double units = v["length"].as<double>();
  if (max_bytes != 0 && units > static_cast<double>(max_bytes))
    throw Error(ErrorCode::limit_exceeded, std::string(key) + " may be at most " + std::to_string(max_bytes >> 20) + " MiB (got " +
                                               std::to_string(static_cast<long long>(units)) + " characters)",
                {"arg.too_long", {{"name", key}, {"max", std::to_string(max_bytes >> 20)}, {"value", std::to_string(static_cast<long long>(units))}}});
  return v.as<std::string>();
}

inline auto optional_text(const val& obj, const char* key) -> std::optional<std::string> {
  const val v = obj[key];
  if (v.isUndefined() || v.isNull()) return std::nullopt;
  if (v.typeOf().as<std::string>() == "number") return val::global("String")(v).as<std::string>();
  return text_field(obj, key);
}

/// A number field (a number, or a string that writes one); absent or null is nothing. Anything else, a
/// boolean or an array as much as "2x", is refused as no number, the value quoted as js_text does.
inline auto optional_number(const val& obj, const char* key) -> std::optional<double> {
  const val v = obj[key];
  if (v.isUndefined() || v.isNull()) return std::nullopt;
  const std::string quoted = js_text(v);
  const std::optional<double> d = js_number(v, quoted);
  if (!d)
    throw Error(ErrorCode::bad_value, std::string(key) + " must be a number, got " + quoted, {"arg.number", {{"name", key}, {"value", quoted}}});
  return d;
}

/// A whole number field that may be absent (undefined or null): int_field's rule otherwise.
inline auto optional_int(const val& obj, const char* key, const char* label = nullptr) -> std::optional<int> {
  const val v = obj[key];
  if (v.isUndefined() || v.isNull()) return std::nullopt;
  return int_field(obj, key, label != nullptr ? label : key, 0);
}

}  // namespace pipesim_wasm
