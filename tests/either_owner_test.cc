#include "rollcall/either_owner.h"

#include <gtest/gtest.h>

#include <memory>
#include <utility>

namespace rollcall {
namespace {

// Counts the live objects of its kind, so that a test sees what was let go.
template <int kKind>
struct Counted {
  static int live;
  explicit Counted(int v) : value(v) { ++live; }
  ~Counted() { --live; }
  Counted(const Counted&) = delete;
  Counted& operator=(const Counted&) = delete;
  int value;
};
template <int kKind>
int Counted<kKind>::live = 0;

using A = Counted<1>;
using B = Counted<2>;
using Owner = EitherOwner<A, B>;

TEST(EitherOwner, HoldsOneOrTheOtherOrNothingInOnePointer) {
  static_assert(sizeof(Owner) == sizeof(void*));
  Owner owner;
  EXPECT_EQ(owner.first(), nullptr);
  EXPECT_EQ(owner.second(), nullptr);

  owner.Set(std::make_unique<A>(1));
  ASSERT_NE(owner.first(), nullptr);
  EXPECT_EQ(owner.first()->value, 1);
  EXPECT_EQ(owner.second(), nullptr);

  owner.Set(std::make_unique<B>(2));  // lets the A go
  EXPECT_EQ(A::live, 0);
  EXPECT_EQ(owner.first(), nullptr);
  ASSERT_NE(owner.second(), nullptr);
  EXPECT_EQ(owner.second()->value, 2);

  owner.Set(std::unique_ptr<B>());  // nothing
  EXPECT_EQ(B::live, 0);
  EXPECT_EQ(owner.first(), nullptr);
  EXPECT_EQ(owner.second(), nullptr);
}

TEST(EitherOwner, TakingHandsOverOnlyWhatItHoldsOfThatType) {
  Owner owner;
  owner.Set(std::make_unique<B>(7));
  EXPECT_EQ(owner.TakeFirst(), nullptr);  // a B is kept
  ASSERT_NE(owner.second(), nullptr);
  std::unique_ptr<B> taken = owner.TakeSecond();
  ASSERT_NE(taken, nullptr);
  EXPECT_EQ(taken->value, 7);
  EXPECT_EQ(owner.second(), nullptr);
  EXPECT_EQ(B::live, 1);  // the caller's now
  taken.reset();

  owner.Set(std::make_unique<A>(3));
  EXPECT_EQ(owner.TakeSecond(), nullptr);
  EXPECT_EQ(owner.TakeFirst()->value, 3);
  EXPECT_EQ(A::live, 0);
}

TEST(EitherOwner, MovesAndLetsGoOfWhatItHeld) {
  {
    Owner from;
    from.Set(std::make_unique<B>(5));
    const B* held = from.second();
    Owner to(std::move(from));
    EXPECT_EQ(to.second(), held);
    // What a move leaves: nothing.
    // NOLINTNEXTLINE(bugprone-use-after-move,clang-analyzer-cplusplus.Move)
    EXPECT_EQ(from.second(), nullptr);

    Owner other;
    other.Set(std::make_unique<A>(6));
    to = std::move(other);  // lets the B go
    EXPECT_EQ(B::live, 0);
    EXPECT_EQ(to.first()->value, 6);
    to.Reset();
    EXPECT_EQ(A::live, 0);
    to.Set(std::make_unique<A>(8));
  }
  EXPECT_EQ(A::live, 0);  // let go with its owner
  EXPECT_EQ(B::live, 0);
}

}  // namespace
}  // namespace rollcall
