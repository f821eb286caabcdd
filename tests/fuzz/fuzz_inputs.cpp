// The readers and writers added for issue 18, fuzzed on their own: a document's checks (size, BOM,
// NUL: detail::document_text), the bounded JSON parser (depth and value counts), the escaping of a
// message (Error), and an export held within a budget (export_text), which must either give the whole
// export or refuse with limit_exceeded when the export is larger than the budget.
#include <cstdint>
#include <string>

#include "detail/input_size.h"
#include "detail/json_text.h"
#include "fuzz_support.h"
#include "pipesim/export.h"
#include "pipesim/registry.h"
#include "pipesim/run.h"

namespace {

using namespace pipesim;

/// A message is one printable line: no byte below 0x20, no DEL, no C1 control encoded in UTF-8.
void check_message(const std::string& text) {
  const std::string message = Error(ErrorCode::bad_value, text).what();
  for (std::size_t i = 0; i < message.size(); ++i) {
    const auto byte = static_cast<unsigned char>(message[i]);
    fuzz::require(byte >= 0x20 && byte != 0x7f, "a message has no control byte");
    if (byte == 0xc2 && i + 1 < message.size())
      fuzz::require(static_cast<unsigned char>(message[i + 1]) >= 0xa0, "a message has no C1 control");
    if (byte == 0xe2 && i + 2 < message.size() && static_cast<unsigned char>(message[i + 1]) == 0x80)
      fuzz::require(!(static_cast<unsigned char>(message[i + 2]) >= 0xaa && static_cast<unsigned char>(message[i + 2]) <= 0xae),
                    "a message has no bidi override");
  }
}

/// A small run chosen by the first bytes, exported within a budget chosen by the next ones.
void check_budget(std::string_view text) {
  if (text.size() < 4) return;
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const auto catalogue = schedules();
  const ScheduleSpec& spec = *catalogue[byte(0) % catalogue.size()];
  if (spec.given_as_text) return;
  RunRequest request;
  request.schedule = std::string(spec.name);
  request.params = {1 + byte(1) % 6, 1 + byte(2) % 16, spec.uses_virtual_stages ? 2 : 1};
  const std::size_t budget = std::size_t{byte(3)} << (byte(3) % 8);
  const ExportFormat format = static_cast<ExportFormat>(byte(1) % 5);
  Run run;
  try {
    run = pipesim::run(request);
  } catch (const Error&) {
    return;  // the schedule's own rules
  }
  StringSink whole;
  write_export(run, format, whole);
  const std::string full = whole.take();
  try {
    const std::string kept = export_text(run, format, budget);
    fuzz::require(kept == full, "an export within the budget is the whole export");
  } catch (const Error& e) {
    fuzz::require(e.code() == ErrorCode::limit_exceeded, "an export over the budget is refused as limit_exceeded");
    fuzz::require(full.size() > budget, "only an export over the budget is refused");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::as_text(data, size);
  fuzz::refusing_only_with_error([&] { check_message(std::string(text)); });
  fuzz::refusing_only_with_error([&] {
    const std::string_view document = detail::document_text(text, 1 << 16, "a fuzzed document");
    fuzz::require(document.find('\0') == std::string_view::npos, "a document has no NUL byte");
    fuzz::require(!document.starts_with("\xEF\xBB\xBF") || text.starts_with("\xEF\xBB\xBF\xEF\xBB\xBF"), "the BOM is dropped");
    try {
      (void)detail::parse_json_within(document, "a fuzzed document", 4096);
    } catch (const nlohmann::json::exception&) {
      // malformed JSON: nlohmann's own refusal, turned into bad_import by each parser
    }
  });
  fuzz::refusing_only_with_error([&] { check_budget(text); });
  return 0;
}
