// Byte edits on the original input (design.md, decision 1): rollcall never re-emits
// YAML; it replaces [begin, end) with new text and copies every other byte.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rollcall {

struct Edit {
  std::size_t begin = 0;  // first byte replaced (or the insertion point)
  std::size_t end = 0;    // one past the last byte replaced; == begin to insert
  std::string text;       // what goes in their place

  static Edit Insert(std::size_t at, std::string text) { return {at, at, std::move(text)}; }
  static Edit Replace(std::size_t begin, std::size_t end, std::string text) {
    return {begin, end, std::move(text)};
  }
};

// Applies edits to `bytes`. Edits may come in any order but must not overlap
// (two insertions at one point keep their given order). Throws std::logic_error
// on overlap or an edit past the end: that is a bug in rollcall, not bad input.
std::string Splice(std::string_view bytes, std::vector<Edit> edits);

// What Splice joins, cut a run of edits at a time, for writing a large output
// without building it (render's stdout, whose edits come a chunk of consumers at a
// time: docs/performance.md). Each run's edits may come in any order but must start
// at or past where the previous run's ended.
class SpliceCutter {
 public:
  explicit SpliceCutter(std::string_view bytes) : bytes_(bytes) {}
  // The pieces of `bytes` and the edits' texts, in output order, up to the last of
  // `edits` (sorted in place): they point into `bytes` and `edits`. Throws as
  // Splice does.
  std::vector<std::string_view> Cut(std::vector<Edit>& edits);
  // What follows the last edit cut.
  std::string_view Rest() const { return bytes_.substr(copied_); }

 private:
  std::string_view bytes_;
  std::size_t copied_ = 0;  // the bytes before this are in pieces already cut
};

}  // namespace rollcall
