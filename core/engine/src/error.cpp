// Out of line on purpose: every refusal builds its Wording here rather than at its throw site (see error.h).
#include "pipesim/error.h"

namespace pipesim {

namespace {

auto copied(std::initializer_list<std::pair<std::string_view, std::string_view>> values) -> std::vector<std::pair<std::string, std::string>> {
  std::vector<std::pair<std::string, std::string>> out;
  out.reserve(values.size());
  for (const auto& [name, value] : values) out.emplace_back(std::string(name), std::string(value));
  return out;
}

}  // namespace

Wording::Wording(const char* key_text, std::initializer_list<std::pair<std::string_view, std::string_view>> values)
    : key(key_text), params(copied(values)) {}

Wording::Wording(std::string key_text, std::initializer_list<std::pair<std::string_view, std::string_view>> values)
    : key(std::move(key_text)), params(copied(values)) {}

Wording::Wording(std::string key_text, std::vector<std::pair<std::string, std::string>> values)
    : key(std::move(key_text)), params(std::move(values)) {}

}  // namespace pipesim
