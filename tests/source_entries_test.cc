#include "rollcall/source_entries.h"

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace rollcall {
namespace {

std::vector<std::pair<std::string, std::string>> Listed(const SourceEntries& entries) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [key, value] : entries) out.emplace_back(key, value);
  return out;
}

TEST(SourceEntries, ReadsAsTheMapItWasBuiltFrom) {
  std::map<std::string, std::string> map{{"password", "s3cret"}, {"LOG", "info"}, {"a.b", ""}};
  SourceEntries entries(map);
  EXPECT_EQ(entries, map);
  EXPECT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries.at("password"), "s3cret");
  EXPECT_EQ(entries.at("a.b"), "");
  EXPECT_EQ(entries.count("a.b"), 1u);
  EXPECT_EQ(entries.find("absent"), entries.end());
  EXPECT_EQ(entries.find("a"), entries.end());  // a prefix of a key is not the key
  EXPECT_EQ(entries.find("password")->second, "s3cret");
  EXPECT_THROW(entries.at("absent"), std::out_of_range);
  // By key, as the map: keys and values side by side in one block keep their bounds.
  EXPECT_EQ(Listed(entries), (std::vector<std::pair<std::string, std::string>>{
                                 {"LOG", "info"}, {"a.b", ""}, {"password", "s3cret"}}));
}

TEST(SourceEntries, BuiltFromSortedViewsOwnsItsBytes) {
  std::string text = "a1b22c";
  const std::vector<SourceEntries::Entry> views{{std::string_view(text).substr(0, 1), "1"},
                                                {std::string_view(text).substr(2, 1), "22"},
                                                {std::string_view(text).substr(5, 1), ""}};
  SourceEntries entries(views.size(), [&](std::size_t i) { return views[i]; });
  text.assign(text.size(), '?');  // the views' bytes are gone; the entries keep theirs
  EXPECT_EQ(entries, (std::map<std::string, std::string>{{"a", "1"}, {"b", "22"}, {"c", ""}}));
  EXPECT_TRUE(SourceEntries(0, [](std::size_t) { return SourceEntries::Entry{}; }).empty());
}

TEST(SourceEntries, KeepsEveryByteOfAValue) {
  // A Secret's value is bytes: NUL, newlines and non-UTF-8 included, and longer
  // than a string's inline buffer.
  const std::string binary = std::string("\0\x01\xff\n", 4) + std::string(100, 'x');
  std::map<std::string, std::string> map{{"bin", binary}, {"empty", ""}, {"z", "last"}};
  SourceEntries entries(map);
  EXPECT_EQ(entries.at("bin"), binary);
  EXPECT_EQ(entries.at("bin").size(), 104u);
  EXPECT_EQ(entries.at("z"), "last");
  EXPECT_EQ(entries, map);
}

TEST(SourceEntries, ACopyHoldsItsOwnEntries) {
  std::map<std::string, std::string> map{{"a", "1"}, {"b", "22"}, {"c", "333"}};
  SourceEntries copy;
  {
    SourceEntries original(map);
    copy = original;
    SourceEntries constructed(original);  // NOLINT(performance-unnecessary-copy-initialization):
                                          // the copy is what is tested
    EXPECT_EQ(constructed, map);
  }
  EXPECT_EQ(copy, map);  // the original is gone; the copy's views are into its own block
  SourceEntries moved(std::move(copy));
  EXPECT_EQ(moved, map);
  copy = SourceEntries();
  EXPECT_TRUE(copy.empty());
  moved = copy;  // an empty one copies as empty
  EXPECT_TRUE(moved.empty());
  EXPECT_EQ(moved.begin(), moved.end());
}

TEST(SourceEntries, NoEntriesNoMemory) {
  SourceEntries none(std::map<std::string, std::string>{});
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.size(), 0u);
  EXPECT_EQ(none.find(""), none.end());
  EXPECT_EQ(none, (std::map<std::string, std::string>{}));
  EXPECT_NE(none, (std::map<std::string, std::string>{{"a", "1"}}));
  // One pointer per source: a stream of a million sources without data pays 8 bytes
  // each for their entries (docs/performance.md).
  EXPECT_EQ(sizeof(SourceEntries), sizeof(void*));
}

TEST(SourceEntries, ComparesWithAMapEntryByEntry) {
  SourceEntries entries(std::map<std::string, std::string>{{"a", "1"}, {"b", "2"}});
  EXPECT_NE(entries, (std::map<std::string, std::string>{{"a", "1"}}));
  EXPECT_NE(entries, (std::map<std::string, std::string>{{"a", "1"}, {"b", "3"}}));
  EXPECT_NE(entries, (std::map<std::string, std::string>{{"a", "1"}, {"c", "2"}}));
  EXPECT_NE(entries, (std::map<std::string, std::string>{{"a", "1"}, {"b", "2"}, {"c", "3"}}));
}

TEST(SourceEntries, FindsEachOfManyKeys) {
  std::map<std::string, std::string> map;
  for (int i = 0; i < 1000; ++i) map["key-" + std::to_string(i)] = std::to_string(i * i);
  SourceEntries entries(map);
  for (const auto& [key, value] : map) {
    auto found = entries.find(key);
    ASSERT_NE(found, entries.end()) << key;
    EXPECT_EQ(found->first, key);
    EXPECT_EQ(found->second, value);
  }
  EXPECT_EQ(entries.find("key-"), entries.end());
  EXPECT_EQ(entries.find("key-1000"), entries.end());
}

// Keys and values of every length class (a length byte below 128, two and three
// above), entries past every sixteenth one that a key is found from, and keys that
// fall between, before and after them.
TEST(SourceEntries, FindsAndListsEntriesOfEveryLengthAroundEachStride) {
  std::map<std::string, std::string> map;
  for (int i = 0; i < 100; ++i) {
    const std::string key =
        "k" + std::string(static_cast<std::size_t>(i * 3), 'x') + std::to_string(1000 + i);
    const std::size_t value_size = i == 7 ? 1 << 20 : i % 5 == 0 ? 0 : 127 + i;
    map[key] = std::string(value_size, static_cast<char>('a' + i % 26));
  }
  SourceEntries entries(map);
  EXPECT_EQ(entries.size(), map.size());
  EXPECT_EQ(entries, map);  // every entry, in order
  std::size_t index = 0;
  for (const auto& [key, value] : map) {
    auto found = entries.find(key);
    ASSERT_NE(found, entries.end()) << key;
    EXPECT_EQ(found, SourceEntries::const_iterator(&entries, index)) << key;
    EXPECT_EQ(found->second, value);
    EXPECT_EQ(entries.find(key + "0"), entries.end()) << "between, after " << key;
    ++index;
  }
  EXPECT_EQ(entries.find(""), entries.end());   // before the first
  EXPECT_EQ(entries.find("l"), entries.end());  // past the last
  EXPECT_EQ(entries.find("k"), entries.end());  // a prefix of each
  SourceEntries copy(entries);
  EXPECT_EQ(copy, map);
}

}  // namespace
}  // namespace rollcall
