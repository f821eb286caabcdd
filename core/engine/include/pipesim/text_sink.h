#pragma once
// Where a large text (an export, the full JSON report) goes while it is written, piece by piece: the
// CLI hands its pieces to the output file as they come, so an export of millions of ops needs no more
// memory than the run it describes; the WebAssembly module keeps them in one string capped at a budget
// (BudgetedText), so an export too large to hand to JavaScript is refused instead of exhausting memory.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace pipesim {

class TextSink {
 public:
  TextSink() = default;
  TextSink(const TextSink&) = delete;
  auto operator=(const TextSink&) -> TextSink& = delete;
  virtual ~TextSink() = default;
  virtual void write(std::string_view text) = 0;
  /// Progress, for a sink that shows it (the page's large downloads): a writer says how many records
  /// (ops, trace events) its text will have, then after each block how many it has written so far.
  virtual void expect_records(std::uint64_t /*total*/) {}
  virtual void records_written(std::uint64_t /*done*/) {}
};

/// A whole text in memory (the to_* functions that return a string use it).
class StringSink final : public TextSink {
 public:
  void write(std::string_view text) override { text_.append(text); }
  [[nodiscard]] auto take() -> std::string { return std::move(text_); }

 private:
  std::string text_;
};

/// A text kept in memory up to `budget` bytes. Past the budget it is dropped and only counted, so
/// that the refusal can say how large the text would have been without holding it.
class BudgetedText final : public TextSink {
 public:
  explicit BudgetedText(std::size_t budget) : budget_(budget) {}
  void write(std::string_view text) override {
    size_ += text.size();
    if (size_ > budget_) {
      if (!text_.empty() || text_.capacity() != 0) std::string().swap(text_);
      return;
    }
    // Grown by hand so that the string never holds more than the budget (append would double it).
    if (text_.size() + text.size() > text_.capacity()) text_.reserve(std::min(budget_, 2 * (text_.size() + text.size())));
    text_.append(text);
  }
  [[nodiscard]] auto over_budget() const -> bool { return size_ > budget_; }
  /// Every byte written, kept or not.
  [[nodiscard]] auto size() const -> std::uint64_t { return size_; }
  [[nodiscard]] auto take() -> std::string { return std::move(text_); }

 private:
  std::size_t budget_;
  std::uint64_t size_ = 0;
  std::string text_;
};

namespace detail {

/// Gathers small pieces into blocks of about 64 KiB for a sink: writers append to text() and call
/// flush_if_full() between records; flush() hands over the rest.
class SinkBuffer {
 public:
  explicit SinkBuffer(TextSink& sink) : sink_(sink) { text_.reserve(block + 4096); }
  [[nodiscard]] auto text() -> std::string& { return text_; }
  /// How many records the writer will write, for the sink's progress: writers call flush_if_full()
  /// once between records, so its calls count the records written.
  void expect_records(std::uint64_t total) { sink_.expect_records(total); }
  void flush_if_full() {
    ++records_;
    if (text_.size() >= block) flush();
  }
  void flush() {
    if (text_.empty()) return;
    sink_.write(text_);
    text_.clear();
    sink_.records_written(records_);
  }

 private:
  static constexpr std::size_t block = std::size_t{64} << 10;
  TextSink& sink_;
  std::string text_;
  std::uint64_t records_ = 0;
};

}  // namespace detail

}  // namespace pipesim
