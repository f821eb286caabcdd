#pragma once
// Reading numbers typed by people, the same way everywhere (CLI options, cost lists, WebAssembly).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace pipesim {

/// The whole of `text`, spaces around it ignored, as a finite number: "2.5", " 3 ", "1e3".
/// nullopt for "", "2x", "inf" or "nan".
[[nodiscard]] auto parse_finite(std::string_view text) -> std::optional<double>;

/// The most characters of a person's text that a refusal quotes. A megabyte pasted into one field must
/// not come back as a megabyte of message (nor of a page's error banner): a longer text is quoted as its
/// first max_quoted_chars - 3 characters and "...". The WebAssembly modules cut a JavaScript value to
/// the same length before copying it in (wasm/bindings_common.h, js_text).
inline constexpr std::size_t max_quoted_chars = 40;

/// `text` as a refusal quotes it: whole when it has at most max_quoted_chars characters (UTF-8 code
/// points), otherwise cut as max_quoted_chars says, never inside a character.
[[nodiscard]] auto quoted_input(std::string_view text) -> std::string;

/// `text` as a whole number in [lo, hi]. Otherwise throws Error "NAME must be a whole number from LO to
/// HI, got ...", quoting `text` when it is no whole number at all. The CLI (NAME "--seed") and the
/// WebAssembly module (NAME "seed") share it, so both refuse a value in the same words.
[[nodiscard]] auto parse_whole_in(const std::string& name, std::string_view text, int lo, int hi) -> int;

/// `text` as the count of something a run is sized by (ranks, micro-batches, virtual stages): any
/// whole number that fits an int. Its range is left to run(), which refuses 0 as a bad value and a
/// count past the limit as limit_exceeded whichever front end sent it; a text that is no such number
/// (a fraction, words, more than an int holds) is refused here as "NAME must be a whole number from 1
/// to LIMIT, got '...'".
[[nodiscard]] auto parse_count(const std::string& name, std::string_view text, int limit) -> int;

/// `text` as a finite number in [lo, hi]; otherwise throws Error "NAME must be a number from LO to HI,
/// got ...", worded like parse_whole_in.
[[nodiscard]] auto parse_number_in(const std::string& name, std::string_view text, double lo, double hi) -> double;

}  // namespace pipesim
