#pragma once
// The lesson's quiz: a bank of sourced questions in every course language (core/data/quiz_bank.json,
// held by a CourseData), and the course's quiz.json built from it.
//
// The bank is the one source of truth: the web page imports the JSON file directly, the CLI and the
// WebAssembly module read the copy embedded at build time. Each question stores its correct option
// first (`correct` = 0); the course export orders them as the course's CI demands. Its JSON is written
// key by key in the file's order (detail::JsonWriter), so exports read like the course's own quiz.json.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "pipesim/course_data.h"
#include "pipesim/json_document.h"

namespace pipesim {

/// The languages every course string exists in: "en", "pt-BR", "zh-CN".
[[nodiscard]] auto supported_languages() -> std::span<const std::string_view>;

/// The whole bank as stored, every language, as `course` holds it (checked with validate_quiz_bank()).
[[nodiscard]] auto quiz_bank(const CourseData& course) -> JsonDocument;

/// The bank in one language, options in stored order:
/// {"lesson", "title", "language", "questions": [{"id", "stage", "view", "source", "question",
/// "options" (4), "correct", "explanation"}]}. Throws Error on an unknown language.
[[nodiscard]] auto quiz_bank_in(const CourseData& course, std::string_view lang) -> JsonDocument;

/// Where the course keeps this lesson's quiz: "phases/<phase>/<lesson>/quiz.json" (from the bank).
[[nodiscard]] auto course_quiz_path(const CourseData& course) -> std::string;

/// The course's quiz.json, exactly the shape its site renders:
/// {"lesson": "19-dualpipe-parallelism", "title", "questions": [{"stage", "question", "options" (4),
/// "correct" (0-indexed), "explanation"}]} with 6 questions, 1 pre, 3 check, 2 post, in that order,
/// as listed under "course" in the bank. Each question's options are in the order the course's
/// `scripts/debias_quizzes.py --check` demands for course_quiz_path() (detail/course_order.h), so the
/// file passes the course's CI unchanged, in every language. Throws Error on an unknown language.
[[nodiscard]] auto course_quiz(const CourseData& course, std::string_view lang) -> JsonDocument;

/// Throws Error naming the first problem: ids unique, stage and view known, 4 distinct options,
/// a valid `correct`, a source, every text in every language, a well-formed course set. `bank_text` is
/// the bank's JSON text (core/data/quiz_bank.json's shape); text that is not JSON is refused too.
void validate_quiz_bank(std::string_view bank_text);

}  // namespace pipesim
