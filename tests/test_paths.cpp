// The one file of the suite compiled with absolute paths (see test_paths.h).
#include "test_paths.h"

namespace pipesim::test_paths {
const char* const cli = PIPESIM_CLI_PATH_VALUE;
const char* const source_dir = PIPESIM_SOURCE_DIR_VALUE;
const char* const data_dir = PIPESIM_SOURCE_DIR_VALUE "/core/data";
}  // namespace pipesim::test_paths
