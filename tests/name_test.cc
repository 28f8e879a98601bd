#include "rollcall/name.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "rollcall/key_set.h"

namespace rollcall {
namespace {

TEST(Name, TheSameTextIsTheSameName) {
  Name a("app0-credentials");
  Name b(std::string("app0-") + "credentials");
  EXPECT_TRUE(a.Is(b));
  EXPECT_EQ(&a.str(), &b.str());  // held once
  EXPECT_FALSE(a.Is(Name("app0-config")));
  EXPECT_EQ(a, "app0-credentials");
  EXPECT_NE(a, "app0");
}

TEST(Name, EmptyIsTheDefaultAndIsNotInterned) {
  std::size_t before = InternedNames();
  Name empty("");
  EXPECT_TRUE(empty.empty());
  EXPECT_TRUE(empty.Is(Name()));
  EXPECT_EQ(InternedNames(), before);
}

TEST(Name, OrdersByTextAsTheStringsItReplaced) {
  std::vector<Name> names{Name("b"), Name("a"), Name("B"), Name("ab"), Name("")};
  std::sort(names.begin(), names.end());
  std::vector<std::string> texts(names.begin(), names.end());
  EXPECT_EQ(texts, (std::vector<std::string>{"", "B", "a", "ab", "b"}));
}

TEST(Name, JoinsStringsIntoMessages) {
  Name ns("team-0");
  EXPECT_EQ("Secret " + ns + "/x", "Secret team-0/x");
  EXPECT_EQ(ns + " and more", "team-0 and more");
  EXPECT_EQ(std::string("in ") + ns, "in team-0");
}

// Documents are parsed on every hardware thread, each interning as it reads: every
// thread must get the one Name of a text, and none may be lost.
TEST(Name, InterningFromManyThreadsGivesOneNamePerText) {
  constexpr int kThreads = 4;
  constexpr int kTexts = 4999;  // a prime: each order below visits every text
  // seen[t][i]: the text of Name i as thread t interned it.
  std::vector<std::vector<const std::string*>> seen(kThreads,
                                                    std::vector<const std::string*>(kTexts));
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &seen] {
      for (int i = 0; i < kTexts; ++i) {
        int at = (i * (2 * t + 1)) % kTexts;  // each thread in its own order
        seen[t][at] = &Name("threaded-name-" + std::to_string(at)).str();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int i = 0; i < kTexts; ++i) {
    const std::string* expected = &Name("threaded-name-" + std::to_string(i)).str();
    EXPECT_EQ(*expected, "threaded-name-" + std::to_string(i));
    for (int t = 0; t < kThreads; ++t) ASSERT_EQ(seen[t][i], expected) << "thread " << t;
  }
}

// What the fuzzers do between inputs: empty the tables, then intern anew.
TEST(Name, ForgettingEmptiesTheTableAndInterningGoesOn) {
  ForgetKeySets();
  ForgetNames();
  EXPECT_EQ(InternedNames(), 0u);
  EXPECT_TRUE(Name().empty());  // not in the table: still valid
  Name again("after-forgetting");
  EXPECT_EQ(InternedNames(), 1u);
  EXPECT_TRUE(again.Is(Name("after-forgetting")));
  KeySet keys({again});
  EXPECT_EQ(keys, KeySet::Of("after-forgetting"));
}

TEST(KeySet, EmptyMeansEveryKeyAndSetsAreSortedAndHeldOnce) {
  KeySet every;
  EXPECT_FALSE(every);
  KeySet some({Name("b"), Name("a"), Name("b")});
  ASSERT_TRUE(some);
  EXPECT_EQ(std::vector<std::string>(some->begin(), some->end()),
            (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(some, KeySet({Name("a"), Name("b")}));  // the same set, held once
  EXPECT_NE(some, KeySet::Of("a"));
}

}  // namespace
}  // namespace rollcall
