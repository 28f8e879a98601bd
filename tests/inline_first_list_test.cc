#include "rollcall/inline_first_list.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace rollcall {
namespace {

// The items as a vector, read through begin() and end().
std::vector<std::string> Items(const InlineFirstList<std::string>& list) {
  return {list.begin(), list.end()};
}

// Whether `item` lies within the list object itself (held in place).
template <typename T>
bool InPlace(const InlineFirstList<T>& list, const T* item) {
  const auto* first = reinterpret_cast<const char*>(&list);
  const auto* at = reinterpret_cast<const char*>(item);
  return at >= first && at < first + sizeof(list);
}

TEST(InlineFirstList, HoldsNoneOneOrManyInOrder) {
  InlineFirstList<std::string> none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.size(), 0u);
  EXPECT_EQ(none.begin(), none.end());

  InlineFirstList<std::string> one(std::vector<std::string>{"a"});
  EXPECT_FALSE(one.empty());
  EXPECT_EQ(one.size(), 1u);
  EXPECT_EQ(Items(one), std::vector<std::string>{"a"});
  EXPECT_TRUE(InPlace(one, one.begin()));

  InlineFirstList<std::string> many(std::vector<std::string>{"a", "b", "c"});
  EXPECT_EQ(many.size(), 3u);
  EXPECT_EQ(Items(many), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(many[2], "c");
  EXPECT_FALSE(InPlace(many, many.begin()));
  // Contiguous, as a vector's: a reference's index is its distance from begin().
  EXPECT_EQ(&many[2] - many.begin(), 2);
}

TEST(InlineFirstList, AMoveTakesTheItemsAndLeavesTheOtherEmpty) {
  InlineFirstList<std::string> many(std::vector<std::string>{"a", "b"});
  const std::string* before = many.begin();
  InlineFirstList<std::string> moved(std::move(many));
  EXPECT_EQ(Items(moved), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(moved.begin(), before);  // two or more stay where they were
  EXPECT_TRUE(many.empty());         // NOLINT(bugprone-use-after-move): what a move leaves

  InlineFirstList<std::string> one(std::vector<std::string>{"x"});
  moved = std::move(one);
  EXPECT_EQ(Items(moved), std::vector<std::string>{"x"});
  EXPECT_TRUE(InPlace(moved, moved.begin()));
  EXPECT_TRUE(one.empty());  // NOLINT(bugprone-use-after-move)

  moved = InlineFirstList<std::string>();
  EXPECT_TRUE(moved.empty());
}

TEST(InlineFirstList, ItemsCanBeChangedWhereTheyAre) {
  InlineFirstList<std::unique_ptr<int>> list([] {
    std::vector<std::unique_ptr<int>> items;
    items.push_back(std::make_unique<int>(1));
    return items;
  }());
  *list[0] = 7;
  for (std::unique_ptr<int>& item : list) *item += 1;
  EXPECT_EQ(*list[0], 8);
}

}  // namespace
}  // namespace rollcall
