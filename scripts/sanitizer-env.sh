# Sourced by scripts/test-sanitized.sh and scripts/fuzz.sh: how sanitizer reports are made. Every
# report is fatal (the build adds -fno-sanitize-recover=all) and names its source lines; addr2line,
# from binutils, symbolizes them when llvm-symbolizer is not installed.
export ASAN_OPTIONS="detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:allow_addr2line=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:allow_addr2line=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
