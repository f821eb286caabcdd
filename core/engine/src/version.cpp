#include "pipesim/version.h"

namespace pipesim {

auto version() -> std::string_view { return PIPESIM_VERSION; }

}  // namespace pipesim
