#include "rollcall/edit.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rollcall {
namespace {

TEST(Splice, AppliesEditsInAnyOrder) {
  EXPECT_EQ(Splice("hello world", {Edit::Replace(6, 11, "there"), Edit::Insert(0, ">> ")}),
            ">> hello there");
}

TEST(Splice, KeepsOrderOfInsertionsAtOnePoint) {
  EXPECT_EQ(Splice("ac", {Edit::Insert(1, "b"), Edit::Insert(1, "B")}), "abBc");
}

TEST(Splice, NoEditsCopiesBytes) { EXPECT_EQ(Splice("a\r\nb", {}), "a\r\nb"); }

TEST(Splice, RejectsOverlapAndOutOfRange) {
  EXPECT_THROW(Splice("abcdef", {Edit::Replace(0, 3, ""), Edit::Replace(2, 4, "")}),
               std::logic_error);
  EXPECT_THROW(Splice("abc", {Edit::Insert(4, "x")}), std::logic_error);
}

TEST(SpliceCutter, CutsTheSplicedOutputInOrderPointingIntoTheInput) {
  std::string_view input = "hello world";
  SpliceCutter cutter(input);
  std::vector<Edit> edits = {Edit::Replace(6, 11, "there"), Edit::Insert(0, ">> ")};
  std::vector<std::string_view> pieces = cutter.Cut(edits);
  pieces.push_back(cutter.Rest());
  std::string joined;
  for (std::string_view piece : pieces) joined += piece;
  EXPECT_EQ(joined, ">> hello there");
  ASSERT_EQ(pieces.size(), 5u);  // "", ">> ", "hello ", "there", ""
  EXPECT_EQ(pieces[2].data(), input.data());
  std::vector<Edit> past_the_end = {Edit::Insert(4, "x")};
  EXPECT_THROW(SpliceCutter("abc").Cut(past_the_end), std::logic_error);
}

TEST(SpliceCutter, CutsRunAfterRunAndRefusesARunBeforeTheLast) {
  std::string_view input = "a: 1\nb: 2\nc: 3\n";
  SpliceCutter cutter(input);
  std::string joined;
  std::vector<Edit> first = {Edit::Replace(3, 4, "one")};
  for (std::string_view piece : cutter.Cut(first)) joined += piece;
  std::vector<Edit> second = {Edit::Replace(13, 14, "three"), Edit::Insert(10, "  # two\n")};
  for (std::string_view piece : cutter.Cut(second)) joined += piece;
  joined += cutter.Rest();
  EXPECT_EQ(joined, "a: one\nb: 2\n  # two\nc: three\n");
  // An edit before where the previous run ended is a bug in the caller.
  std::vector<Edit> behind = {Edit::Insert(12, "x")};
  EXPECT_THROW(cutter.Cut(behind), std::logic_error);
}

}  // namespace
}  // namespace rollcall
