// Exports of any size (issue 18): each format is written piece by piece into a sink, the full JSON
// report without its tree, and an export held in memory (the WebAssembly module's) stays within a
// budget or is refused with the size it would take.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "helpers.h"
#include "pipesim/custom.h"
#include "pipesim/export.h"
#include "pipesim/limits.h"
#include "pipesim/registry.h"
#include "pipesim/report.h"

using namespace pipesim;
using pipesim::test::run_unit;

namespace {

/// Every format of the one table (export_formats()).
auto all_formats() -> std::vector<ExportFormat> {
  std::vector<ExportFormat> out;
  for (const ExportFormatInfo& f : export_formats()) out.push_back(f.format);
  return out;
}

/// A small run of every schedule of the catalogue, and a custom one with an FB pair and an empty rank.
auto sample_runs() -> std::vector<Run> {
  std::vector<Run> runs;
  for (const ScheduleSpec* spec : schedules()) {
    if (spec->given_as_text) continue;
    const int vs = spec->uses_virtual_stages ? 2 : 1;
    runs.push_back(run_unit(std::string(spec->name), 4, 8, vs));
  }
  RunRequest custom;
  custom.schedule = "custom";
  custom.custom_schedule = "0F0,0B0\n-\n";
  runs.push_back(run(custom));
  custom.custom_schedule = "0F0,0F1,(0F2;0B0)OVERLAP_F_B,0B1,0B2\n";
  runs.push_back(run(custom));
  return runs;
}

/// Counts what it is given in pieces, and how many pieces.
class PieceCounter final : public TextSink {
 public:
  void write(std::string_view text) override {
    text_.append(text);
    ++pieces_;
  }
  std::string text_;
  int pieces_ = 0;
};

}  // namespace

TEST_CASE("the full JSON report is streamed byte for byte as the tree's dump(2) would write it") {
  for (const Run& r : sample_runs()) {
    INFO(r.schedule.name);
    for (const Detail detail : {Detail::full, Detail::summary}) {
      StringSink streamed;
      write_json(r, detail, streamed);
      CHECK(streamed.take() == to_json(r, detail).dump(2));
    }
  }
}

TEST_CASE("the json export is the full report and a newline; the others are the to_* texts") {
  const Run r = run_unit("zb-v", 4, 8);
  const auto exported = [&](ExportFormat format) {
    StringSink out;
    write_export(r, format, out);
    return out.take();
  };
  CHECK(exported(ExportFormat::json) == to_json(r, Detail::full).dump(2) + "\n");
  CHECK(exported(ExportFormat::svg) == to_svg(r));
  CHECK(exported(ExportFormat::csv) == to_csv(r));
  CHECK(exported(ExportFormat::chrome_trace) == to_chrome_trace(r));
  CHECK(exported(ExportFormat::actions) == format_actions(r.schedule));
}

TEST_CASE("a large export reaches its sink in blocks of about 64 KiB, not as one text") {
  const Run r = run_unit("1f1b", 16, 256);  // 8192 ops
  for (const ExportFormat format : {ExportFormat::chrome_trace, ExportFormat::csv, ExportFormat::svg, ExportFormat::json}) {
    INFO(export_format_name(format));
    PieceCounter out;
    write_export(r, format, out);
    CHECK(out.pieces_ >= static_cast<int>(out.text_.size() / (72 << 10)));
    CHECK(out.pieces_ > 3);
  }
}

TEST_CASE("every format takes at least its stated bytes per op, so a refusal from the op count alone is sound") {
  for (const Run& r : sample_runs())
    for (const ExportFormat format : all_formats()) {
      INFO(r.schedule.name << " " << export_format_name(format));
      StringSink out;
      write_export(r, format, out);
      CHECK(out.take().size() >= r.schedule.ops.size() * min_export_bytes_per_op(format));
    }
}

TEST_CASE("an export within the budget is the whole text; over it, it is refused with the size it would take") {
  const Run r = run_unit("1f1b", 4, 8);  // 64 ops
  const std::string csv = to_csv(r);
  REQUIRE(csv.size() == 1597);
  CHECK(export_text(r, ExportFormat::csv, csv.size()) == csv);
  // Over by one byte: written, counted, refused with its exact size.
  CHECK_THROWS_MATCHES(export_text(r, ExportFormat::csv, csv.size() - 1), Error,
                       pipesim::test::Refused(ErrorCode::limit_exceeded,
                                              "the csv export of this run would take 1.6 KiB (1597 bytes), over the 1.6 KiB one "
                                              "export may take in memory here; export a smaller run, or use the CLI, which "
                                              "streams it (pipesim simulate --format csv)"));
  // Far over: refused from the op count (64 x 90 bytes) before anything is written.
  CHECK_THROWS_MATCHES(export_text(r, ExportFormat::svg, 1000), Error,
                       pipesim::test::Refused(ErrorCode::limit_exceeded,
                                              "the svg export of this run would take at least 5.6 KiB, over the 1000 bytes one "
                                              "export may take in memory here; export a smaller run, or use the CLI, which "
                                              "streams it (pipesim simulate --format svg)"));
}

TEST_CASE("an export held in memory tells its progress after each block, in records: ops, or a trace's events") {
  // 1F1B 32 x 128: 8,192 ops and 2(p-1)m = 7,936 cross-rank transfers, each four trace events (a send
  // and a receive slice, the flow's two ends); every format but actions takes several 64 KiB blocks.
  const Run r = run_unit("1f1b", 32, 128);
  REQUIRE(r.schedule.ops.size() == 8192);
  struct Told {
    std::uint64_t written, expected;
  };
  for (const ExportFormat format : all_formats()) {
    CAPTURE(export_format_name(format));
    std::vector<Told> told;
    const std::string text = export_text(r, format, limits::max_export_bytes, {},
                                         [&](std::uint64_t written, std::uint64_t expected) { told.push_back({written, expected}); });
    StringSink whole;
    write_export(r, format, whole);
    CHECK(text == whole.take());  // progress changes nothing in the text
    if (format == ExportFormat::actions) {
      CHECK(told.empty());  // written in one piece
      continue;
    }
    REQUIRE(told.size() >= 3);
    for (std::size_t k = 1; k < told.size(); ++k) {
      CHECK(told[k].written > told[k - 1].written);
      CHECK(told[k].expected == told[0].expected);
    }
    if (format == ExportFormat::chrome_trace) {
      CHECK(told[0].expected == 8192 + 4 * 7936);
      // The metadata events (process and thread names) come on top of the expected ones.
      std::uint64_t metadata = 0;
      for (auto at = text.find("\"ph\":\"M\""); at != std::string::npos; at = text.find("\"ph\":\"M\"", at + 1)) ++metadata;
      CHECK(metadata >= 32);
      CHECK(told.back().written == told.back().expected + metadata);
    } else {
      // The SVG's frame (title, axis, rows) is one record before its cells.
      CHECK(told[0].expected == 8192 + (format == ExportFormat::svg ? 1 : 0));
      CHECK(told.back().written == told.back().expected);
    }
  }
}

TEST_CASE("the issue's ZB-H1 2048 x 768 is refused up front as svg, json and chrome-trace, from its op count") {
  const Run r = run_unit("zb-h1", 2048, 768);  // 4,718,592 ops, the case
  REQUIRE(r.schedule.ops.size() == 4718592);
  CHECK_THROWS_WITH(export_text(r, ExportFormat::svg, limits::max_export_bytes),
                    Catch::StartsWith("the svg export of this run would take at least 405.0 MiB, over the 256.0 MiB"));
  CHECK_THROWS_WITH(export_text(r, ExportFormat::json, limits::max_export_bytes),
                    Catch::StartsWith("the json export of this run would take at least 450.0 MiB"));
  CHECK_THROWS_WITH(export_text(r, ExportFormat::chrome_trace, limits::max_export_bytes),
                    Catch::StartsWith("the chrome-trace export of this run would take at least 675.0 MiB"));
}

TEST_CASE("export formats are named once: the names round-trip and anything else is refused with the list") {
  for (const ExportFormat format : all_formats()) CHECK(parse_export_format(export_format_name(format)) == format);
  CHECK_THROWS_MATCHES(parse_export_format("png"), Error,
                       pipesim::test::Refused(ErrorCode::unknown_name,
                                              "export format must be one of svg|csv|chrome-trace|json|actions, got 'png'"));
  try {
    (void)parse_export_format("png");
  } catch (const Error& e) {
    CHECK(e.field() == "format");
  }
}

TEST_CASE("the table of export formats holds every format once, with what a download needs") {
  const auto table = export_formats();
  REQUIRE(table.size() == 5);
  const auto at = [&](std::size_t k) { return std::string(table[k].name) + " " + std::string(table[k].extension) + " " +
                                              std::string(table[k].mime_type) + " " + std::string(table[k].label); };
  CHECK(at(0) == "svg svg image/svg+xml SVG");
  CHECK(at(1) == "csv csv text/csv CSV");
  CHECK(at(2) == "chrome-trace trace.json application/json Chrome trace (Perfetto)");
  CHECK(at(3) == "json json application/json JSON");
  CHECK(at(4) == "actions txt text/plain PyTorch actions");
  CHECK(export_format_names("|") == "svg|csv|chrome-trace|json|actions");
  // One entry per format: looking a format up finds its own entry.
  for (const ExportFormatInfo& f : table) {
    INFO(f.name);
    CHECK(&export_format_info(f.format) == &f);
  }
}

TEST_CASE("the CLI streams the full JSON and the SVG of a large run in a fraction of their size", "[address-space]") {
  // ZB-H1 512 x 512 is 786,432 ops: about 150 MB of JSON, which as a tree took over 1 GB; streamed,
  // the run, the program and a 64 KiB block fit in 250 MB of address space.
  for (const std::string format : {"json", "svg", "csv"}) {
    INFO(format);
    const std::string command = "ulimit -v 250000 && { " + std::string(PIPESIM_CLI_PATH) +
                                " simulate --schedule zb-h1 --ranks 512 --micro-batches 512 --format " + format +
                                "; echo \"exit $?\"; } 2>&1 | tail -c 8";
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string tail;
    for (int ch = std::fgetc(pipe); ch != EOF; ch = std::fgetc(pipe)) tail += static_cast<char>(ch);
    pclose(pipe);
    CHECK(tail.ends_with("\nexit 0\n"));
  }
}
