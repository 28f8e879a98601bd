#include "rollcall/byte_budget.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <thread>

namespace rollcall {
namespace {

TEST(ByteBudget, SharesThatFitTogetherAreTakenTogether) {
  ByteBudget budget(1000);
  // One thread: a Take that waited for the other share would never return.
  ByteBudget::Share first = budget.Take(400);
  ByteBudget::Share second = budget.Take(600);
  ByteBudget::Share nothing = budget.Take(0);
  SUCCEED();
}

TEST(ByteBudget, AShareLargerThanTheCapacityIsTakenAlone) {
  ByteBudget budget(1000);
  { ByteBudget::Share large = budget.Take(5000); }
  // Given back whole: the budget is empty again.
  ByteBudget::Share all = budget.Take(1000);
  SUCCEED();
}

// Whether a thread's Take(wanted) returned only once a share of `held` was given
// back: were it not to wait, the thread would see the flag still down, having had
// 20 ms to get there.
bool WaitsForAShareOf(std::size_t held, std::size_t wanted) {
  ByteBudget budget(1000);
  std::atomic<bool> given_back{false};
  std::atomic<bool> seen_given_back{false};
  std::thread waiter;
  {
    ByteBudget::Share share = budget.Take(held);
    waiter = std::thread([&] {
      ByteBudget::Share mine = budget.Take(wanted);
      seen_given_back = given_back.load();
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    given_back = true;
  }
  waiter.join();
  return seen_given_back;
}

TEST(ByteBudget, AShareThatDoesNotFitWaitsForTheOthersToGoBack) {
  EXPECT_TRUE(WaitsForAShareOf(600, 600));
}

TEST(ByteBudget, ALargeShareWaitsForEveryOtherOne) { EXPECT_TRUE(WaitsForAShareOf(1, 5000)); }

}  // namespace
}  // namespace rollcall
