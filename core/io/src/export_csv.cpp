// Every op as one CSV row, for spreadsheets and pandas.
#include <charconv>
#include <string>
#include <vector>

#include "pipesim/export.h"

namespace pipesim {

namespace {

/// RFC 4180: a field with a comma, a double quote or a line break is quoted, its quotes doubled.
auto field(const std::string& text) -> std::string {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (const char ch : text) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

auto row(const std::vector<std::string>& fields) -> std::string {
  std::string out;
  for (std::size_t k = 0; k < fields.size(); ++k) out += (k == 0 ? "" : ",") + field(fields[k]);
  return out + "\r\n";
}

/// `,value`: an op row's fields are numbers and op kinds, which never need quoting, so they are
/// appended straight to the text (a row of twelve temporary strings per op made a 6 M-op export take
/// 20 s in WebAssembly, most of it in the allocator).
void append_field(std::string& out, long long value) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out += ',';
  out.append(digits, end);
}

void append_chunk(std::string& out, const Chunk& c) {
  append_field(out, c.mb);
  append_field(out, c.phase);
  append_field(out, c.stage);
}

}  // namespace

void write_csv(const Run& run, TextSink& sink) {
  const Schedule& s = run.schedule;
  detail::SinkBuffer buffer(sink);
  buffer.expect_records(s.ops.size());  // one row per op
  std::string& out = buffer.text();
  out += row({"rank", "index", "op", "mb", "phase", "stage", "b_mb", "b_phase", "b_stage", "start", "end",
                         "duration"});
  for (int r = 0; r < s.ranks(); ++r)
    for (int i = s.rank_begin[r]; i < s.rank_begin[r + 1]; ++i) {
      const auto ui = static_cast<std::size_t>(i);
      const Op& op = s.ops[ui];
      out += std::to_string(r);
      append_field(out, i - s.rank_begin[r]);
      out += ',';
      out += kind_name(op.kind);
      append_chunk(out, op.chunk);
      if (op.kind == OpKind::FB) append_chunk(out, op.backward);
      else out += ",,,";
      const double start = run.timeline.start[ui];
      const double end = run.timeline.end[ui];
      for (const double t : {start, end, end - start}) {
        out += ',';
        out += format_number(t);
      }
      out += "\r\n";
      buffer.flush_if_full();
    }
  buffer.flush();
}

auto to_csv(const Run& run) -> std::string {
  StringSink out;
  write_csv(run, out);
  return out.take();
}

}  // namespace pipesim
