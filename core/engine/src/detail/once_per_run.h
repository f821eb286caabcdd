#pragma once
/// Marks engine code that a run calls once, not per op: a schedule file's size checks and closed form
/// (and their texts), the steps around a run's engine (run_steps.cpp), and the explanations of a
/// schedule that breaks a rule or deadlocks, which end the run. Compiled for size even where its file
/// is compiled for speed (the WebAssembly build compiles the engine's hot files at -O3,
/// wasm/CMakeLists.txt; issue 14: the modules' size). Clang's minsize; other compilers ignore it.
#if defined(__clang__)
#define PIPESIM_ONCE_PER_RUN [[clang::minsize]]
#else
#define PIPESIM_ONCE_PER_RUN
#endif
