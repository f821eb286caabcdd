// Out of line on purpose: every refusal builds its Wording and its Error here rather than at its throw
// site (see error.h).
#include "pipesim/error.h"

#include <cstdio>

namespace pipesim {

namespace {

auto copied(std::initializer_list<std::pair<std::string_view, std::string_view>> values) -> std::vector<std::pair<std::string, std::string>> {
  std::vector<std::pair<std::string, std::string>> out;
  out.reserve(values.size());
  for (const auto& [name, value] : values) out.emplace_back(std::string(name), std::string(value));
  return out;
}

/// The length of the well-formed UTF-8 sequence at `i` (2 to 4 bytes), or 0 when there is none.
auto utf8_length(const std::string& text, std::size_t i) -> std::size_t {
  const auto at = [&](std::size_t k) { return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u; };
  const unsigned b0 = at(i);
  const auto continuation = [&](std::size_t k) { return (at(k) & 0xc0u) == 0x80u; };
  std::size_t length = 0;
  unsigned lo = 0x80, hi = 0xbf;  // the allowed range of the second byte
  if (b0 >= 0xc2 && b0 <= 0xdf) length = 2;
  else if (b0 >= 0xe0 && b0 <= 0xef) {
    length = 3;
    if (b0 == 0xe0) lo = 0xa0;       // no overlong forms
    else if (b0 == 0xed) hi = 0x9f;  // no surrogates
  } else if (b0 >= 0xf0 && b0 <= 0xf4) {
    length = 4;
    if (b0 == 0xf0) lo = 0x90;
    else if (b0 == 0xf4) hi = 0x8f;  // nothing past U+10FFFF
  } else return 0;
  if (at(i + 1) < lo || at(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < length; ++k)
    if (!continuation(i + k)) return 0;
  return length;
}

auto code_point(const std::string& text, std::size_t i, std::size_t length) -> unsigned {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
  if (length == 2) return (b(0) & 0x1fu) << 6 | (b(1) & 0x3fu);
  if (length == 3) return (b(0) & 0x0fu) << 12 | (b(1) & 0x3fu) << 6 | (b(2) & 0x3fu);
  return (b(0) & 0x07u) << 18 | (b(1) & 0x3fu) << 12 | (b(2) & 0x3fu) << 6 | (b(3) & 0x3fu);
}

}  // namespace

Wording::Wording() = default;
Wording::Wording(const Wording& other) = default;
Wording::Wording(Wording&& other) noexcept = default;
auto Wording::operator=(const Wording& other) -> Wording& = default;
auto Wording::operator=(Wording&& other) noexcept -> Wording& = default;
Wording::~Wording() = default;

Wording::Wording(const char* key_text, std::initializer_list<std::pair<std::string_view, std::string_view>> values)
    : key(key_text), params(copied(values)) {}

Wording::Wording(std::string key_text, std::initializer_list<std::pair<std::string_view, std::string_view>> values)
    : key(std::move(key_text)), params(copied(values)) {}

Wording::Wording(std::string key_text, std::vector<std::pair<std::string, std::string>> values)
    : key(std::move(key_text)), params(std::move(values)) {}

Error::Error(ErrorCode code, const std::string& message, Wording wording, std::string field)
    : std::runtime_error(printable(message)), code_(code), wording_(std::move(wording)), field_(std::move(field)) {}
Error::Error(const Error& other) = default;
Error::Error(Error&& other) noexcept = default;
auto Error::operator=(const Error& other) -> Error& = default;
auto Error::operator=(Error&& other) noexcept -> Error& = default;
Error::~Error() = default;

auto Error::about(std::string field) const -> Error {
  Error out = *this;
  if (out.field_.empty()) out.field_ = std::move(field);
  return out;
}

auto Error::within(const std::string& prefix, std::string kind, std::string index) const -> Error {
  Wording w = wording_;
  if (!w.key.empty()) {
    w.params.emplace_back("at_kind", std::move(kind));
    w.params.emplace_back("at", std::move(index));
  }
  return Error(code_, prefix + what(), std::move(w), field_);
}

// That covers C0 controls and DEL (\x1b), C1 controls (U+0080 to U+009F: U+009B is a terminal's CSI),
// the bidi controls that reorder what a terminal shows (U+061C, U+200E, U+200F, U+202A to U+202E,
// U+2066 to U+2069: written \u202e), and bytes that are no UTF-8 (\xff), since a terminal may read a
// lone 0x9b as CSI too.
auto Error::printable(const std::string& text) -> std::string {
  std::string out;
  out.reserve(text.size());
  const auto escape = [&](const char* format, unsigned value) {
    char buffer[12];
    std::snprintf(buffer, sizeof buffer, format, value);
    out += buffer;
  };
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x80) {
      if (text[i] == '\n') out += "\\n";
      else if (text[i] == '\r') out += "\\r";
      else if (text[i] == '\t') out += "\\t";
      else if (byte < 0x20 || byte == 0x7f) escape("\\x%02x", byte);
      else out += text[i];
      ++i;
      continue;
    }
    const std::size_t length = utf8_length(text, i);
    if (length == 0) {
      escape("\\x%02x", byte);
      ++i;
      continue;
    }
    const unsigned cp = code_point(text, i, length);
    if (cp <= 0x9f || cp == 0x61c || cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
        (cp >= 0x2066 && cp <= 0x2069))
      escape("\\u%04x", cp);
    else
      out.append(text, i, length);
    i += length;
  }
  return out;
}

}  // namespace pipesim
