// Runs inside both Emscripten modules, the engine and the course (--pre-js). The C++ entry points return {error, code} when the core
// refuses an input, because a JavaScript exception thrown through C++ frames would skip Embind's
// clean-up of the call's arguments. Once Embind has registered the functions, each is wrapped so that
// callers get a thrown PipesimError (message: the CLI's text, code: the core's ErrorCode name) and a
// module that keeps working.
class PipesimError extends Error {
  constructor(message, code) {
    super(message);
    this.name = 'PipesimError';
    this.code = code;
  }
}
Module['PipesimError'] = PipesimError;

function isRefusal(value) {
  if (value === null || typeof value !== 'object') return false;
  const keys = Object.keys(value);
  return keys.length === 2 && typeof value.error === 'string' && typeof value.code === 'string';
}

function throwingRefusals(name) {
  const call = Module[name];
  Module[name] = function (...args) {
    const result = call.apply(this, args);
    if (isRefusal(result)) throw new PipesimError(result.error, result.code);
    return result;
  };
}

Module['onRuntimeInitialized'] = (function (theirs) {
  return function () {
    // The functions that can refuse, of either module: each module wraps those it has.
    for (const name of ['simulate', 'simulateJson', 'sweep', 'overlap', 'actions', 'exportText', 'courseQuiz',
                        'lesson', 'plan', 'provideCourseData']) {
      if (typeof Module[name] === 'function') throwingRefusals(name);
    }
    if (theirs) theirs();
  };
})(Module['onRuntimeInitialized']);
