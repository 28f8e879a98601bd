#include "rollcall/flat_string_map.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace rollcall {
namespace {

std::vector<std::pair<std::string, std::string>> Listed(const FlatStringMap& map) {
  std::vector<std::pair<std::string, std::string>> out;
  map.ForEach([&](std::string_view key, std::string_view value) { out.emplace_back(key, value); });
  return out;
}

TEST(FlatStringMap, KeepsTheFirstValueOfAKeyAndSaysWhatItIs) {
  FlatStringMap map;
  EXPECT_TRUE(map.empty());
  EXPECT_EQ(map.Emplace("12", "i:12"), "i:12");
  EXPECT_EQ(map.Emplace("on", "s:on"), "s:on");
  // The same key again: the value it has, whatever this call brings.
  EXPECT_EQ(map.Emplace("12", "s:12"), "i:12");
  EXPECT_EQ(map.Emplace("12", "i:12"), "i:12");
  EXPECT_EQ(map.size(), 2u);
  EXPECT_EQ(Listed(map),
            (std::vector<std::pair<std::string, std::string>>{{"12", "i:12"}, {"on", "s:on"}}));
}

TEST(FlatStringMap, KeysAreWholeStringsOfAnyBytes) {
  FlatStringMap map;
  map.Emplace("", "empty");
  map.Emplace(std::string("a\0b", 3), "nul");
  map.Emplace("a", "");
  map.Emplace("ab", "x");  // the bytes of "a" and "" side by side in the text are no "ab"
  EXPECT_EQ(map.Emplace("", "other"), "empty");
  EXPECT_EQ(map.Emplace(std::string("a\0b", 3), "other"), "nul");
  EXPECT_EQ(map.Emplace("a", "other"), "");
  EXPECT_EQ(map.Emplace("ab", "other"), "x");
  EXPECT_EQ(map.size(), 4u);
}

TEST(FlatStringMap, GrowsKeepingEveryKeyInOrder) {
  FlatStringMap map;
  for (int i = 0; i < 10'000; ++i) {
    const std::string key = "k" + std::to_string(i);
    ASSERT_EQ(map.Emplace(key, "s:" + key), "s:" + key);
  }
  for (int i = 0; i < 10'000; i += 997) {
    const std::string key = "k" + std::to_string(i);
    EXPECT_EQ(map.Emplace(key, "changed"), "s:" + key);
  }
  std::vector<std::pair<std::string, std::string>> listed = Listed(map);
  ASSERT_EQ(listed.size(), 10'000u);
  EXPECT_EQ(listed.front(), (std::pair<std::string, std::string>{"k0", "s:k0"}));
  EXPECT_EQ(listed[4321], (std::pair<std::string, std::string>{"k4321", "s:k4321"}));
  EXPECT_EQ(listed.back(), (std::pair<std::string, std::string>{"k9999", "s:k9999"}));
}

}  // namespace
}  // namespace rollcall
