#include "rollcall/edit.h"

#include <gtest/gtest.h>

#include <stdexcept>

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

}  // namespace
}  // namespace rollcall
