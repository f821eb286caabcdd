#include "pipesim/frontend/measured.h"

#include "pipesim/error.h"
#include "pipesim/limits.h"
#include "pipesim/parse.h"

namespace pipesim::frontend {

auto parse_clock(std::string_view text, std::string_view field) -> Clock {
  if (text == "profiler") return Clock::profiler;
  if (text == "first-ops") return Clock::first_ops;
  throw Error(ErrorCode::unknown_name, std::string(field) + " must be one of profiler|first-ops, got '" + quoted_input(text) + "'",
              {"measured.align", {{"name", std::string(field)}, {"value", quoted_input(text)}}});
}

auto read_traces(std::size_t count, const std::function<std::string(std::size_t)>& text_of,
                 const std::function<std::string(std::size_t)>& label_of, std::string_view what) -> std::vector<ProfileTrace> {
  if (count > static_cast<std::size_t>(limits::max_profile_trace_files))
    throw Error(ErrorCode::limit_exceeded, std::string(what) + " takes at most " + std::to_string(limits::max_profile_trace_files) +
                                               " traces, one per rank",
                {"measured.too_many_traces", {{"what", std::string(what)}, {"max", std::to_string(limits::max_profile_trace_files)}}});
  std::vector<ProfileTrace> traces;
  traces.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    try {
      traces.push_back(read_profile_trace(text_of(i)));
    } catch (const Error& e) {
      if (e.code() == ErrorCode::io) throw;
      throw e.within(label_of(i), "trace", std::to_string(i + 1));
    }
  }
  return traces;
}

}  // namespace pipesim::frontend
