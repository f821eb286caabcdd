#include "detail/course_order.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <set>

namespace pipesim::detail {

namespace {

constexpr std::array<std::uint32_t, 64> sha256_k = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

void sha256_block(std::array<std::uint32_t, 8>& h, const unsigned char* block) {
  std::array<std::uint32_t, 64> w{};
  for (int i = 0; i < 16; ++i)
    w[i] = static_cast<std::uint32_t>(block[4 * i]) << 24 | static_cast<std::uint32_t>(block[4 * i + 1]) << 16 |
           static_cast<std::uint32_t>(block[4 * i + 2]) << 8 | static_cast<std::uint32_t>(block[4 * i + 3]);
  for (int i = 16; i < 64; ++i) {
    const std::uint32_t s0 = std::rotr(w[i - 15], 7) ^ std::rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    const std::uint32_t s1 = std::rotr(w[i - 2], 17) ^ std::rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  std::array<std::uint32_t, 8> v = h;
  for (int i = 0; i < 64; ++i) {
    const std::uint32_t s1 = std::rotr(v[4], 6) ^ std::rotr(v[4], 11) ^ std::rotr(v[4], 25);
    const std::uint32_t ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
    const std::uint32_t t1 = v[7] + s1 + ch + sha256_k[i] + w[i];
    const std::uint32_t s0 = std::rotr(v[0], 2) ^ std::rotr(v[0], 13) ^ std::rotr(v[0], 22);
    const std::uint32_t maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
    const std::uint32_t t2 = s0 + maj;
    v = {t1 + t2, v[0], v[1], v[2], v[3] + t1, v[4], v[5], v[6]};
  }
  for (int i = 0; i < 8; ++i) h[i] += v[i];
}

// ---- the course's test for options that refer to each other, on whole words ----

/// The code point at `text[i]` (UTF-8), advancing i; a malformed byte stands for itself.
auto next_code_point(std::string_view text, std::size_t& i) -> char32_t {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  const std::size_t length = lead < 0x80 ? 1 : lead >> 5 == 0x6 ? 2 : lead >> 4 == 0xe ? 3 : lead >> 3 == 0x1e ? 4 : 1;
  if (i + length > text.size() || length == 1) return static_cast<char32_t>(byte(i++));
  char32_t cp = lead & (0x7f >> length);
  for (std::size_t k = 1; k < length; ++k) cp = cp << 6 | (byte(i + k) & 0x3f);
  i += length;
  return cp;
}

/// Python's \s on str.
auto is_space(char32_t c) -> bool {
  return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20) || c == 0x85 || c == 0xa0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}

/// Python's \w on str: ASCII letters, digits and "_", and beyond ASCII every letter and digit. Outside
/// ASCII this counts as a word character whatever is not a space or in the punctuation and symbol
/// blocks the course's languages use (Latin-1 signs, general punctuation, CJK and full-width
/// punctuation); the course's texts need nothing finer.
auto is_word(char32_t c) -> bool {
  if (c < 0x80) return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  if (is_space(c)) return false;
  if (c < 0xa0) return false;  // C1 controls
  if (c <= 0xbf) return c == 0xaa || c == 0xb2 || c == 0xb3 || c == 0xb5 || c == 0xb9 || c == 0xba || (c >= 0xbc && c <= 0xbe);
  if (c == 0xd7 || c == 0xf7) return false;
  if (c >= 0x2010 && c <= 0x205e) return false;
  if (c >= 0x3001 && c <= 0x3003) return false;
  if (c >= 0x3008 && c <= 0x3011) return false;
  if ((c >= 0xff01 && c <= 0xff0f) || (c >= 0xff1a && c <= 0xff20) || (c >= 0xff3b && c <= 0xff40) || (c >= 0xff5b && c <= 0xff65))
    return false;
  return true;
}

/// A maximal run of word characters, lower-cased when ASCII, and whether only spaces precede it back to
/// the previous word (and there is at least one).
struct Word {
  std::string text;
  bool spaces_before = false;
};

auto words_of(std::string_view text) -> std::vector<Word> {
  std::vector<Word> words;
  Word current;
  bool in_word = false;
  bool gap_is_spaces = true;
  bool gap_empty = true;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t start = i;
    const char32_t c = next_code_point(text, i);
    if (is_word(c)) {
      if (!in_word) {
        current = Word{"", !words.empty() && gap_is_spaces && !gap_empty};
        in_word = true;
      }
      for (std::size_t k = start; k < i; ++k) {
        const char ch = text[k];
        current.text += (ch >= 'A' && ch <= 'Z') ? static_cast<char>(ch - 'A' + 'a') : ch;
      }
    } else {
      if (in_word) {
        words.push_back(current);
        in_word = false;
        gap_is_spaces = true;
        gap_empty = true;
      }
      gap_empty = false;
      if (!is_space(c)) gap_is_spaces = false;
    }
  }
  if (in_word) words.push_back(current);
  return words;
}

auto one_of(const std::string& word, std::initializer_list<std::string_view> list) -> bool {
  return std::find(list.begin(), list.end(), word) != list.end();
}

auto is_option_letter(const std::string& word) -> bool { return word.size() == 1 && word[0] >= 'a' && word[0] <= 'd'; }

}  // namespace

auto sha256_hex(std::string_view bytes) -> std::string {
  std::array<std::uint32_t, 8> h = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::string padded(bytes);
  const std::uint64_t bit_length = static_cast<std::uint64_t>(bytes.size()) * 8;
  padded += static_cast<char>(0x80);
  while (padded.size() % 64 != 56) padded += '\0';
  for (int shift = 56; shift >= 0; shift -= 8) padded += static_cast<char>((bit_length >> shift) & 0xff);
  for (std::size_t at = 0; at < padded.size(); at += 64)
    sha256_block(h, reinterpret_cast<const unsigned char*>(padded.data() + at));
  std::string hex;
  for (std::uint32_t word : h) {
    char digits[9];
    std::snprintf(digits, sizeof digits, "%08x", word);
    hex += digits;
  }
  return hex;
}

PythonRandom::PythonRandom(std::uint64_t seed) {
  // init_genrand(19650218), then init_by_array(key) with the seed's 32-bit words (one word for 0).
  std::vector<std::uint32_t> key = {static_cast<std::uint32_t>(seed)};
  if (seed >> 32) key.push_back(static_cast<std::uint32_t>(seed >> 32));
  constexpr std::uint32_t n = 624;
  state_[0] = 19650218U;
  for (std::uint32_t i = 1; i < n; ++i) state_[i] = 1812433253U * (state_[i - 1] ^ (state_[i - 1] >> 30)) + i;
  std::uint32_t i = 1;
  std::uint32_t j = 0;
  const auto key_size = static_cast<std::uint32_t>(key.size());
  for (std::uint32_t k = std::max(n, key_size); k > 0; --k) {
    state_[i] = (state_[i] ^ ((state_[i - 1] ^ (state_[i - 1] >> 30)) * 1664525U)) + key[j] + j;
    ++i;
    ++j;
    if (i >= n) {
      state_[0] = state_[n - 1];
      i = 1;
    }
    if (j >= key_size) j = 0;
  }
  for (std::uint32_t k = n - 1; k > 0; --k) {
    state_[i] = (state_[i] ^ ((state_[i - 1] ^ (state_[i - 1] >> 30)) * 1566083941U)) - i;
    ++i;
    if (i >= n) {
      state_[0] = state_[n - 1];
      i = 1;
    }
  }
  state_[0] = 0x80000000U;
  index_ = n;
}

auto PythonRandom::next() -> std::uint32_t {
  constexpr int n = 624;
  constexpr int m = 397;
  if (index_ >= n) {
    for (int k = 0; k < n; ++k) {
      const std::uint32_t y = (state_[k] & 0x80000000U) | (state_[(k + 1) % n] & 0x7fffffffU);
      state_[k] = state_[(k + m) % n] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
    }
    index_ = 0;
  }
  std::uint32_t y = state_[index_++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680U;
  y ^= (y << 15) & 0xefc60000U;
  y ^= y >> 18;
  return y;
}

auto PythonRandom::getrandbits(int k) -> std::uint32_t { return next() >> (32 - k); }

auto PythonRandom::randbelow(std::uint32_t n) -> std::uint32_t {
  const int k = std::bit_width(n);
  std::uint32_t r = getrandbits(k);
  while (r >= n) r = getrandbits(k);
  return r;
}

void PythonRandom::shuffle(std::vector<std::size_t>& items) {
  for (std::size_t i = items.size(); i-- > 1;) {
    const std::size_t j = randbelow(static_cast<std::uint32_t>(i + 1));
    std::swap(items[i], items[j]);
  }
}

auto course_seed(std::string_view quiz_path, std::string_view question) -> std::uint64_t {
  std::string text(quiz_path);
  text += '\0';
  text += question;
  const std::string hex = sha256_hex(text).substr(0, 16);
  std::uint64_t seed = 0;
  for (char digit : hex) seed = seed << 4 | static_cast<std::uint64_t>(digit <= '9' ? digit - '0' : digit - 'a' + 10);
  return seed;
}

auto refers_to_other_options(std::string_view option) -> bool {
  const std::vector<Word> w = words_of(option);
  const auto follows = [&](std::size_t k) { return k < w.size() && w[k].spaces_before; };
  for (std::size_t i = 0; i < w.size(); ++i) {
    const std::string& word = w[i].text;
    if (one_of(word, {"above", "below", "following"})) return true;
    if (one_of(word, {"all", "none", "both", "neither"}) && follows(i + 1) && w[i + 1].text == "of" && follows(i + 2) &&
        one_of(w[i + 2].text, {"the", "these"}))
      return true;
    if (one_of(word, {"both", "neither", "either"}) && follows(i + 1) && is_option_letter(w[i + 1].text)) return true;
    if (is_option_letter(word) && follows(i + 1) && w[i + 1].text == "and" && follows(i + 2) && is_option_letter(w[i + 2].text))
      return true;
  }
  return false;
}

auto course_order(std::string_view quiz_path, std::string_view question, const std::vector<std::string>& options,
                  std::size_t correct) -> CourseOrder {
  const bool anchored = std::any_of(options.begin(), options.end(), [](const std::string& o) { return refers_to_other_options(o); });
  const bool repeated = std::set<std::string>(options.begin(), options.end()).size() != options.size();
  if (anchored || repeated || options.size() < 2) return {options, correct};
  std::vector<std::string> sorted = options;  // byte order of UTF-8 is code point order, as Python sorts
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::size_t> permutation(sorted.size());
  for (std::size_t i = 0; i < permutation.size(); ++i) permutation[i] = i;
  PythonRandom(course_seed(quiz_path, question)).shuffle(permutation);
  CourseOrder out;
  for (std::size_t i : permutation) {
    if (sorted[i] == options[correct]) out.correct = out.options.size();
    out.options.push_back(sorted[i]);
  }
  return out;
}

}  // namespace pipesim::detail
