// Runs inside both Emscripten modules, the engine and the course (--pre-js). The C++ entry points return {error, code} when the core
// refuses an input, because a JavaScript exception thrown through C++ frames would skip Embind's
// clean-up of the call's arguments. Once Embind has registered the functions, each is wrapped so that
// callers get a thrown PipesimError (message: the CLI's text, code: the core's ErrorCode name) and a
// module that keeps working.
class PipesimError extends Error {
  constructor(message, code, wording, field) {
    super(message);
    this.name = 'PipesimError';
    this.code = code;
    // {key, params}: the refusal's rule and values, for wording it in another language (absent for
    // errors that have none).
    if (wording) this.wording = wording;
    // The input the refusal is about ('ranks', 'micro_batches', 'cost.FB', ...; pipesim::Error::field),
    // absent when it is about no one field.
    if (field) this.field = field;
  }
}
Module['PipesimError'] = PipesimError;

function isRefusal(value) {
  if (value === null || typeof value !== 'object') return false;
  const keys = Object.keys(value);
  const optional = { wording: 'object', field: 'string' };
  const extrasOk = keys.every((k) => k === 'error' || k === 'code' || typeof value[k] === optional[k]);
  return extrasOk && typeof value.error === 'string' && typeof value.code === 'string';
}

// Arguments are copied into plain values before WebAssembly is entered, so that no JavaScript of the
// caller's (a getter, a Proxy trap, a toString) runs while C++ frames are on the stack: an exception
// thrown there would unwind them without their clean-up. A copy that throws is refused here.
const MAX_COPIED_ELEMENTS = 4096;  // the C++ side checks an array's length before reading any element

/** What String(v) gives, or a fixed text when v's own conversion throws. */
function safeText(v) {
  try {
    return String(v);
  } catch (e) {
    return typeof v === 'function' ? '[function]' : '[object Object]';
  }
}

/** A string with every lone surrogate replaced by U+FFFD: Emscripten's UTF-8 encoder would otherwise
 *  pair a lone high surrogate with whatever follows it ('a\uD800b' would lose its b). */
function wellFormed(s) {
  return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** A value nested in an argument: primitives as they are; objects and functions by an empty stand-in
 *  of the same kind, since the C++ side only asks their kind (bindings_common.h js_text quotes an
 *  object as "an object", never by its own toString, which is therefore never called). */
function nestedCopy(v) {
  if (typeof v === 'string') return wellFormed(v);
  if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return v;
  return typeof v === 'function' ? function () {} : Array.isArray(v) ? [] : {};
}

// Requests nest (a request's stageCost list, a stage cost table's objects): arrays and objects are
// copied as such this many levels down, and below that by a stand-in, which the C++ side refuses.
const MAX_COPIED_DEPTH = 3;

function argumentCopy(v, depth = 0) {
  if (v === null || typeof v !== 'object' || depth > MAX_COPIED_DEPTH) return nestedCopy(v);
  if (Array.isArray(v)) {
    const copy = new Array(v.length);  // sparse: a length of 2^32 - 1 costs nothing
    for (let i = 0; i < Math.min(v.length, MAX_COPIED_ELEMENTS); i++) copy[i] = argumentCopy(v[i], depth + 1);
    return copy;
  }
  const copy = {};
  for (const key in v) copy[key] = argumentCopy(v[key], depth + 1);
  return copy;
}

function copiedArguments(name, args) {
  try {
    return args.map((v) => argumentCopy(v));
  } catch (e) {
    const reason = safeText(e && e.message !== undefined ? e.message : e).split('\n')[0].slice(0, 200);
    throw new PipesimError(`${name}: reading its arguments raised a JavaScript error (${reason})`, 'bad_value');
  }
}

// The last line of defence: a call that fails inside WebAssembly (an abort, a trap, an exception the
// engine did not catch) may leave the module's stack and heap inconsistent, so from then on every call
// is refused with one clear error instead of failing at random; `broken` on the error (and
// Module.broken) tells the caller to load a new instance. Reaching it is a bug: the one known way there
// was an export too large to return, which the C++ side now refuses up front (limits::max_export_bytes).
let brokenBy = null;
Module['broken'] = false;

function stopped() {
  const e = new PipesimError(`internal error: the engine stopped after a failure inside WebAssembly (${brokenBy}); ` +
                             'it must be loaded again', 'internal');
  e.broken = true;
  return e;
}

/** Embind's own refusal of a call with the wrong number of arguments, which it makes before WebAssembly
 *  is entered: [given, expected], or null for any other error. */
function arityMismatch(e) {
  const m = e && e.name === 'BindingError' && /called with (\d+) arguments, expected (\d+) args/.exec(String(e.message));
  return m ? [Number(m[1]), Number(m[2])] : null;
}

function throwingRefusals(name) {
  const call = Module[name];
  const invoke = (self, args) => {
    try {
      return call.apply(self, args);
    } catch (e) {
      const arity = arityMismatch(e);
      if (arity === null) {
        brokenBy = safeText(e && e.message !== undefined ? e.message : e).split('\n')[0].slice(0, 200);
        Module['broken'] = true;
        throw stopped();
      }
      const [given, expected] = arity;
      // Too few: the missing ones are undefined, which the engine refuses in its own words.
      if (given < expected) return invoke(self, [...args, ...new Array(expected - given).fill(undefined)]);
      throw new PipesimError(`${name} takes ${expected} argument${expected === 1 ? '' : 's'}, got ${given}`, 'usage');
    }
  };
  Module[name] = function (...args) {
    if (brokenBy !== null) throw stopped();
    const result = invoke(this, copiedArguments(name, args));
    if (isRefusal(result)) throw new PipesimError(result.error, result.code, result.wording, result.field);
    return result;
  };
}

Module['onRuntimeInitialized'] = (function (theirs) {
  return function () {
    // The functions that can refuse, of either module: each module wraps those it has.
    for (const name of ['simulate', 'simulateJson', 'sweep', 'schedules', 'overlap', 'actions', 'exportText',
                        'exportFormats', 'parseCosts', 'readCosts', 'costBounds', 'defaultWorkload', 'courseQuiz', 'quizQuestions', 'lesson', 'plan', 'planSearchBegin', 'planSearchStep', 'planSearchResult', 'provideCourseData', 'acceptedValues',
                        'overlapTrace', 'measuredPipeline', 'simulateModel', 'abortForTest']) {
      if (typeof Module[name] === 'function') throwingRefusals(name);
    }
    if (theirs) theirs();
  };
})(Module['onRuntimeInitialized']);
