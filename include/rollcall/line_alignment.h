// Which lines of one text stand for which lines of another: the rendered document's
// lines against the template's, for citing a chart file (chart_findings.h).
//
// A longest common subsequence is the best alignment but costs a table of n × m
// cells; a chart's template is text its author controls, and a 20,000-line one
// made that table 1.6 GB. So the work is bounded, as diff tools bound it:
//   1. lines equal at both ends match;
//   2. a range whose table fits kExactCells is aligned exactly (every chart in
//      charts/ and the corpus is one such range);
//   3. a larger one is split at lines that occur once on each side, in order
//      (patience diff), and each piece goes through 1–3 again;
//   4. once kWorkBudget units of work are spent, what is left stays unmatched.
// Unmatched is safe: a finding then names the file without a line, or a values
// file's line.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace rollcall {

class LineAlignment {
 public:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  // Cells of one exact table (4 bytes each): 16 MiB.
  static constexpr std::size_t kExactCells = std::size_t{1} << 22;
  // Table cells plus lines and bytes looked at, over one whole alignment.
  static constexpr std::size_t kWorkBudget = std::size_t{1} << 26;

  // Aligns `a` with `b`, both lines without their indentation. Blank lines never match.
  LineAlignment(const std::vector<std::string>& a, const std::vector<std::string>& b);

  // The line of `b` that line `i` of `a` is, or kNone.
  std::size_t MatchOf(std::size_t i) const { return match_[i]; }
  // The nearest matched line of `a` before `i` / after `i`, or kNone.
  std::size_t MatchedBefore(std::size_t i) const;
  std::size_t MatchedAfter(std::size_t i) const;

 private:
  std::vector<std::size_t> match_;    // per line of a
  std::vector<std::size_t> matched_;  // the lines of a with a match, ascending
};

}  // namespace rollcall
