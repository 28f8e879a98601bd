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
  EXPECT_EQ(a.c_str(), b.c_str());  // held once
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
  std::vector<std::vector<const char*>> seen(kThreads, std::vector<const char*>(kTexts));
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &seen] {
      for (int i = 0; i < kTexts; ++i) {
        int at = (i * (2 * t + 1)) % kTexts;  // each thread in its own order
        seen[t][at] = Name("threaded-name-" + std::to_string(at)).c_str();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int i = 0; i < kTexts; ++i) {
    const char* expected = Name("threaded-name-" + std::to_string(i)).c_str();
    EXPECT_EQ(std::string(expected), "threaded-name-" + std::to_string(i));
    for (int t = 0; t < kThreads; ++t) ASSERT_EQ(seen[t][i], expected) << "thread " << t;
  }
}

// The table keeps texts in pages: texts that end a page, texts longer than a page
// (a block of their own, after which the rest of the last page is skipped) and the
// walks that rebuild the index as it grows must all give each text back as it was,
// and the same Name when it is interned again.
TEST(Name, TextsOfEveryLengthComeBackAsTheyWereAcrossPages) {
  std::vector<std::string> texts;
  for (int i = 0; i < 40000; ++i) {
    std::string text = "paged-" + std::to_string(i) + "-";
    text.append(static_cast<std::size_t>(i % 300), static_cast<char>('a' + i % 26));
    texts.push_back(text);
    if (i % 9000 == 4500) {
      texts.push_back(std::string(300 * 1024 + static_cast<std::size_t>(i), 'x'));  // over a page
      texts.push_back(std::string(3 * 1024 * 1024, static_cast<char>('A' + i % 26)));
    }
  }
  const std::size_t before = InternedNames();
  std::vector<Name> names(texts.begin(), texts.end());
  EXPECT_EQ(InternedNames(), before + texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i) {
    ASSERT_EQ(names[i].view(), texts[i]) << "text " << i;
    ASSERT_EQ(names[i].size(), texts[i].size());
    ASSERT_EQ(std::string(names[i].c_str()), texts[i]);  // NUL-terminated
    ASSERT_TRUE(names[i].Is(Name(texts[i]))) << "text " << i;
  }
  EXPECT_EQ(InternedNames(), before + texts.size());  // none added twice
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

// A handle of four bytes, read with no lock: sets past the first block of the
// directory, made on several threads at once, each read back as it was made.
TEST(KeySet, FourBytesEachSetReadBackPastTheFirstBlock) {
  static_assert(sizeof(KeySet) == 4);
  constexpr int kSets = 3000;
  std::vector<KeySet> made(kSets);
  std::vector<std::thread> threads;
  threads.reserve(2);
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&made, t] {
      for (int i = t; i < kSets; i += 2) {
        made[i] = KeySet({Name("key-" + std::to_string(i)), Name("shared")});
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int i = 0; i < kSets; ++i) {
    ASSERT_TRUE(made[i]);
    EXPECT_EQ(std::vector<std::string>(made[i]->begin(), made[i]->end()),
              (std::vector<std::string>{"key-" + std::to_string(i), "shared"}));
    EXPECT_EQ(made[i], KeySet({Name("shared"), Name("key-" + std::to_string(i))}));
  }
}

}  // namespace
}  // namespace rollcall
