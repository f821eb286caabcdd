#pragma once
// The order the course's CI demands of every quiz question's options (its scripts/debias_quizzes.py
// --check runs on each pull request): the options sorted as strings (by code point), then permuted by
// Python's random.Random(seed).shuffle, where seed = the first 16 hex digits of SHA-256 of
// "<quiz path>\x00<question text>" read as an integer. Options that refer to each other ("all of the
// above", "both A and B") keep their order, and so do questions with a repeated option. pipesim's
// course export uses this order, so the check finds nothing to rewrite, by construction.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pipesim::detail {

/// SHA-256 of `bytes`, as 64 lower-case hex digits.
[[nodiscard]] auto sha256_hex(std::string_view bytes) -> std::string;

/// CPython's random.Random seeded with a non-negative integer: MT19937 seeded through init_by_array
/// with the integer's 32-bit words, least significant first, and CPython's shuffle (Fisher-Yates from
/// the end, each index drawn by rejection from getrandbits(bit_length(i + 1))).
class PythonRandom {
 public:
  explicit PythonRandom(std::uint64_t seed);
  /// random.getrandbits(k) for 1 <= k <= 32.
  auto getrandbits(int k) -> std::uint32_t;
  /// random.Random._randbelow(n) for 1 <= n < 2^32.
  auto randbelow(std::uint32_t n) -> std::uint32_t;
  /// random.shuffle(items).
  void shuffle(std::vector<std::size_t>& items);

 private:
  auto next() -> std::uint32_t;
  std::uint32_t state_[624] = {};
  int index_ = 624;
};

/// The course's seed for one question: int(sha256(path + "\0" + question)[:16], 16).
[[nodiscard]] auto course_seed(std::string_view quiz_path, std::string_view question) -> std::uint64_t;

/// Whether an option refers to the others by position, as the course's check detects it (whole words,
/// any case): "all/none/both/neither of the/these", "both/neither/either A".."D", "A and B", "above",
/// "below", "following".
[[nodiscard]] auto refers_to_other_options(std::string_view option) -> bool;

/// The question's options in the course's order (see above) and where the correct one went.
struct CourseOrder {
  std::vector<std::string> options;
  std::size_t correct = 0;
};
[[nodiscard]] auto course_order(std::string_view quiz_path, std::string_view question,
                                const std::vector<std::string>& options, std::size_t correct) -> CourseOrder;

}  // namespace pipesim::detail
