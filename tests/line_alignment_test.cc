// Which lines of a rendered document stand for which lines of its template.
#include "rollcall/line_alignment.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rollcall {
namespace {

constexpr std::size_t kNone = LineAlignment::kNone;

std::vector<std::size_t> Matches(const std::vector<std::string>& a,
                                 const std::vector<std::string>& b) {
  LineAlignment alignment(a, b);
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < a.size(); ++i) out.push_back(alignment.MatchOf(i));
  return out;
}

TEST(LineAlignment, ALongestCommonSubsequenceOfSmallTexts) {
  EXPECT_EQ(Matches({"a", "x", "b", "c"}, {"a", "b", "y", "c"}),
            (std::vector<std::size_t>{0, kNone, 1, 3}));
  // Blank lines match nothing, not even each other.
  EXPECT_EQ(Matches({"a", "", "b"}, {"a", "", "b"}), (std::vector<std::size_t>{0, kNone, 2}));
  EXPECT_EQ(Matches({}, {"a"}), (std::vector<std::size_t>{}));
  EXPECT_EQ(Matches({"a"}, {}), (std::vector<std::size_t>{kNone}));
}

TEST(LineAlignment, NearestMatchedLinesOnEachSide) {
  LineAlignment alignment({"a", "x", "y", "b"}, {"a", "b"});
  EXPECT_EQ(alignment.MatchedBefore(2), 0u);
  EXPECT_EQ(alignment.MatchedAfter(1), 3u);
  EXPECT_EQ(alignment.MatchedBefore(0), kNone);
  EXPECT_EQ(alignment.MatchedAfter(3), kNone);
}

// A template of 200,000 comment lines before 20,000 lines the rendered document
// also has: too large for one exact table, so the lines that occur once on each
// side split it, and each rendered line still finds its own.
TEST(LineAlignment, LargeTextsAreSplitAtLinesThatOccurOnce) {
  std::vector<std::string> rendered;
  std::vector<std::string> template_lines;
  for (int i = 0; i < 200000; ++i) template_lines.push_back("comment " + std::to_string(i));
  for (int i = 0; i < 20000; ++i) {
    rendered.push_back("- name: E" + std::to_string(i));
    rendered.push_back("value: v");  // the same on every other line
    template_lines.push_back(rendered[rendered.size() - 2]);
    template_lines.push_back("value: v");
  }
  LineAlignment alignment(rendered, template_lines);
  EXPECT_EQ(alignment.MatchOf(0), 200000u);
  EXPECT_EQ(alignment.MatchOf(1), 200001u);
  EXPECT_EQ(alignment.MatchOf(39998), 239998u);
  EXPECT_EQ(alignment.MatchOf(39999), 239999u);
}

// Nothing in common on a scale no exact table fits: every line stays unmatched.
TEST(LineAlignment, NothingSharedIsNothingMatched) {
  std::vector<std::string> a(30000, "same");
  std::vector<std::string> b(30000, "other");
  b[15000] = "same";
  LineAlignment alignment(a, b);
  // "same" occurs once in b only, so nothing anchors the split; no line is matched.
  EXPECT_EQ(alignment.MatchOf(0), kNone);
  EXPECT_EQ(alignment.MatchedAfter(0), kNone);
}

}  // namespace
}  // namespace rollcall
