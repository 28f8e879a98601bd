#include "rollcall/base64.h"

#include <gtest/gtest.h>

namespace rollcall {
namespace {

TEST(DecodeBase64, DecodesWithAndWithoutPadding) {
  EXPECT_EQ(DecodeBase64("aHVudGVyMg=="), "hunter2");
  EXPECT_EQ(DecodeBase64("YWJj"), "abc");
  EXPECT_EQ(DecodeBase64("YWI="), "ab");
  EXPECT_EQ(DecodeBase64(""), "");
}

TEST(DecodeBase64, KeepsBinaryBytes) {
  EXPECT_EQ(DecodeBase64("AP8A"), std::string("\x00\xff\x00", 3));
}

TEST(DecodeBase64, IgnoresLineBreaksAsTheApiServerDoes) {
  EXPECT_EQ(DecodeBase64("aHVu\ndGVy\r\nMg=="), "hunter2");
}

TEST(DecodeBase64, RejectsWhatGoRejects) {
  EXPECT_FALSE(DecodeBase64("aHVudGVyMg").has_value());    // padding missing
  EXPECT_FALSE(DecodeBase64("aHVu dGVy").has_value());     // space
  EXPECT_FALSE(DecodeBase64("aHV*dGVy").has_value());      // not in the alphabet
  EXPECT_FALSE(DecodeBase64("aG==dGVy").has_value());      // padding in the middle
  EXPECT_FALSE(DecodeBase64("aHVudGVy_w==").has_value());  // URL alphabet
  EXPECT_FALSE(DecodeBase64("a===").has_value());
}

}  // namespace
}  // namespace rollcall
