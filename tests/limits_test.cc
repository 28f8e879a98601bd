#include "rollcall/limits.h"

#include <gtest/gtest.h>

#include <string>

namespace rollcall {
namespace {

std::string DeepBlock(int levels) {
  std::string out;
  for (int i = 0; i < levels; ++i) out += std::string(static_cast<std::size_t>(i), ' ') + "a:\n";
  return out;
}

TEST(FindExcessiveNesting, AcceptsOrdinaryManifest) {
  std::string text =
      "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n"
      "      - name: x\n        args: [\"--a\", {b: [1, 2]}]\n";
  EXPECT_FALSE(FindExcessiveNesting(text, 20).has_value());
}

TEST(FindExcessiveNesting, FlagsDeepFlowSequences) {
  std::string text = "a: " + std::string(1000, '[') + std::string(1000, ']') + "\n";
  auto at = FindExcessiveNesting(text, 512);
  ASSERT_TRUE(at.has_value());
  EXPECT_EQ(*at, 3u + 511u);  // the bracket that opens level 513 (level 1 is the mapping)
}

TEST(FindExcessiveNesting, FlagsDeepBlockMappings) {
  EXPECT_TRUE(FindExcessiveNesting(DeepBlock(600), 512).has_value());
  EXPECT_FALSE(FindExcessiveNesting(DeepBlock(100), 512).has_value());
}

TEST(FindExcessiveNesting, FlagsCompactSequences) {
  std::string text;
  for (int i = 0; i < 600; ++i) text += "- ";
  text += "x\n";
  EXPECT_TRUE(FindExcessiveNesting(text, 512).has_value());
}

TEST(FindExcessiveNesting, IgnoresBracketsInBlockScalarsQuotesAndComments) {
  std::string brackets(2000, '[');
  std::string text = "a: |\n  " + brackets + "\nb: \"" + brackets + "\"\nc: '" + brackets +
                     "'\n# " + brackets + "\nd: x" + brackets + "\n";
  EXPECT_FALSE(FindExcessiveNesting(text, 512).has_value());
}

TEST(FindExcessiveNesting, QuotedScalarAcrossLinesDoesNotHideNesting) {
  std::string text = "a: \"x\n  y\"\nb: " + std::string(600, '{') + "\n";
  EXPECT_TRUE(FindExcessiveNesting(text, 512).has_value());
}

}  // namespace
}  // namespace rollcall
