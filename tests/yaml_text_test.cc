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

TEST(PropertyEnd, EndsAnchorsAndTagsWhereYamlCppDoes) {
  EXPECT_EQ(PropertyEnd("&a x", 0), 2u);
  EXPECT_EQ(PropertyEnd("&a,b", 0), 2u);  // a flow indicator ends an anchor
  EXPECT_EQ(PropertyEnd("!!str x", 0), 5u);
  EXPECT_EQ(PropertyEnd("!t\"x\"", 0), 2u);      // a quote ends a tag and opens the scalar
  EXPECT_EQ(PropertyEnd("!!map{a: b}", 0), 5u);  // so does a flow collection's bracket
  EXPECT_EQ(PropertyEnd("!t,x", 0), 2u);
  EXPECT_EQ(PropertyEnd("!e!t:x/y x", 0), 8u);      // '!' and ':' are a tag's characters
  EXPECT_EQ(PropertyEnd("!a%2Fb x", 0), 6u);        // '%' with two hex digits is too
  EXPECT_EQ(PropertyEnd("!a%zz x", 0), 2u);         // … and ends it without them
  EXPECT_EQ(PropertyEnd("!<tag:x,y>[1]", 0), 10u);  // a verbatim tag through its '>'
  EXPECT_EQ(PropertyEnd("!t\r\n", 0), 2u);
  EXPECT_EQ(PropertyEnd("x: !t", 3), 5u);  // to the end of the text
}

TEST(SkipProperties, SkipsToTheNodesContent) {
  EXPECT_EQ(SkipProperties("&a !t {x: 1}", 0), 6u);
  EXPECT_EQ(SkipProperties("!!map{x: 1}", 0), 5u);
  EXPECT_EQ(SkipProperties("!t\"x\"", 0), 2u);
  EXPECT_EQ(SkipProperties("plain", 0), 0u);
  EXPECT_EQ(AnchorAt("!t &a {x: 1}", 0), "a");
  EXPECT_EQ(AnchorAt("!!map{x: 1}", 0), "");
  EXPECT_EQ(AnchorAt("&a,", 0), "a");
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
