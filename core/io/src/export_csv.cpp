// Every op as one CSV row, for spreadsheets and pandas.
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

void add_chunk(std::vector<std::string>& fields, const Chunk& c) {
  fields.push_back(std::to_string(c.mb));
  fields.push_back(std::to_string(c.phase));
  fields.push_back(std::to_string(c.stage));
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
      std::vector<std::string> fields{std::to_string(r), std::to_string(i - s.rank_begin[r]), std::string(kind_name(op.kind))};
      add_chunk(fields, op.chunk);
      if (op.kind == OpKind::FB) add_chunk(fields, op.backward);
      else fields.insert(fields.end(), 3, "");
      const double start = run.timeline.start[ui];
      const double end = run.timeline.end[ui];
      for (const double t : {start, end, end - start}) fields.push_back(format_number(t));
      out += row(fields);
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
