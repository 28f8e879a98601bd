#include "rollcall/yaml_text.h"

#include <gtest/gtest.h>

namespace rollcall {
namespace {

TEST(SkipBlanks, SkipsSpacesAndTabsOnly) {
  EXPECT_EQ(SkipBlanks("  \t x", 0), 4u);
  EXPECT_EQ(SkipBlanks("x", 0), 0u);
  EXPECT_EQ(SkipBlanks("a   ", 1), 4u);    // to the end: the text's size
  EXPECT_EQ(SkipBlanks("  \r\n", 0), 2u);  // a line break is not a blank
  EXPECT_EQ(SkipBlanks("", 0), 0u);
  EXPECT_EQ(SkipBlanks(std::string(5000, ' ') + "#", 0), 5000u);
}

TEST(TrimBlanks, TrimsBlanksAndATrailingCr) {
  EXPECT_EQ(TrimBlanks(" \tstatic: why \r"), "static: why");
  EXPECT_EQ(TrimBlanks("   "), "");
}

TEST(ScalarEnd, EndsPlainScalarsBeforeCommentsAndQuotedOnesAtTheirQuote) {
  std::string_view text = "a: plain value  # note\nb: \"quoted # not a comment\"\n";
  EXPECT_EQ(ScalarEnd(text, 3, false), 14u);
  std::size_t quoted = text.find('"');
  EXPECT_EQ(ScalarEnd(text, quoted, false), text.rfind('"') + 1);
  EXPECT_EQ(ScalarEnd("a: |\n  block\n", 3, false), std::string_view::npos);
  EXPECT_EQ(ScalarEnd("{a: x, b: y}", 4, true), 5u);
}

}  // namespace
}  // namespace rollcall
