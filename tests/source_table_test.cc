// The model's table of sources (source_table.h): the last definition of each id,
// found by id, iterated in id order, and never moved once added.
#include "rollcall/source_table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace rollcall {
namespace {

using ::testing::ElementsAre;

Source Defined(SourceKind kind, const char* name_space, const char* name, const char* value) {
  Source source;
  source.id = {kind, name_space, name};
  source.entries = std::map<std::string, std::string>{{"k", value}};
  return source;
}

Source Secret(const char* name, const char* value) {
  return Defined(SourceKind::kSecret, "ns", name, value);
}

// "kind/ns/name=value" of each source, in the table's order.
std::vector<std::string> Rows(const SourceTable& table) {
  std::vector<std::string> out;
  for (const Source& source : table) {
    out.push_back(source.id.Path() + "=" + std::string(source.entries.at("k")));
  }
  return out;
}

// A stream of a million one-line ConfigMaps keeps a million of each
// (docs/performance.md): a Name a 4-byte handle, a Source 40 bytes.
static_assert(sizeof(Name) == 4, "a handle into the Name table");
static_assert(sizeof(Source) <= 40, "a source for every Secret and ConfigMap, kept for the run");

// The table hands out pointers to its sources for its whole life: an element added
// to a StableList never moves, however many come after it, across blocks.
TEST(StableList, ElementsStayWhereTheyWereAddedAndIterateInOrder) {
  StableList<std::string> list;
  std::vector<const std::string*> where;
  for (int i = 0; i < 5000; ++i) {
    list.push_back("element-" + std::to_string(i) + std::string(20, 'x'));
    where.push_back(&list.back());
  }
  ASSERT_EQ(list.size(), 5000u);
  for (int i = 0; i < 5000; ++i) {
    ASSERT_EQ(&list[i], where[i]) << i;
    ASSERT_EQ(list[i], "element-" + std::to_string(i) + std::string(20, 'x'));
  }
  int seen = 0;
  for (std::string& element : list) {
    ASSERT_EQ(&element, where[seen++]);
    element += "!";
  }
  EXPECT_EQ(seen, 5000);
  const StableList<std::string>& read_only = list;
  EXPECT_EQ(*read_only.begin(), "element-0" + std::string(20, 'x') + "!");
  StableList<std::string> moved = std::move(list);
  EXPECT_EQ(&moved[4999], where[4999]);  // moving the list moves no element
}

TEST(SourceTable, OfDefinitionsKeepsTheLastOfEachIdInIdOrder) {
  SourceDefinitions definitions;
  definitions.push_back(Secret("b", "first"));
  definitions.push_back(Defined(SourceKind::kConfigMap, "ns", "z", "config"));
  definitions.push_back(Secret("a", "only"));
  definitions.push_back(Secret("b", "second"));
  definitions.push_back(Defined(SourceKind::kSecret, "other", "b", "elsewhere"));
  definitions.push_back(Secret("b", "third"));
  std::vector<std::pair<std::string, std::string>> repeats;  // (again, before)
  SourceTable table = SourceTable::OfDefinitions(
      std::move(definitions), [&](const Source& again, const Source& before) {
        repeats.emplace_back(again.entries.at("k"), before.entries.at("k"));
      });
  // ConfigMaps before Secrets ("configmap" < "secret"), then by namespace and name.
  EXPECT_THAT(Rows(table), ElementsAre("configmap/ns/z=config", "secret/ns/a=only",
                                       "secret/ns/b=third", "secret/other/b=elsewhere"));
  // Each later definition with the one just before it, in the order defined.
  EXPECT_THAT(repeats,
              ElementsAre(std::make_pair("second", "first"), std::make_pair("third", "second")));
  EXPECT_EQ(table.size(), 4u);
  ASSERT_NE(table.Find(Secret("b", "").id), nullptr);
  EXPECT_EQ(table.Find(Secret("b", "").id)->entries.at("k"), "third");
  EXPECT_EQ(table.Find(Secret("c", "").id), nullptr);
  EXPECT_FALSE(table.Contains(Defined(SourceKind::kConfigMap, "ns", "a", "").id));
}

TEST(SourceTable, AddKeepsTheTablesSourceOrReplacesIt) {
  SourceDefinitions definitions;
  definitions.push_back(Secret("a", "table"));
  SourceTable kept = SourceTable::OfDefinitions(std::move(definitions));
  SourceTable replaced = kept;  // a copy: the two change apart
  std::vector<Source> added = {Secret("a", "added"), Secret("c", "first c"), Secret("b", "b"),
                               Secret("c", "second c")};
  // Two new ids (b, c); of the two c's the first, as one insert after another keeps.
  EXPECT_EQ(kept.Add(added, SourceTable::OnSameId::kKeepTable), 2u);
  EXPECT_THAT(Rows(kept), ElementsAre("secret/ns/a=table", "secret/ns/b=b", "secret/ns/c=first c"));
  // The same two new ids; the last of each id wins, the table's a too.
  EXPECT_EQ(replaced.Add(added, SourceTable::OnSameId::kReplace), 2u);
  EXPECT_THAT(Rows(replaced),
              ElementsAre("secret/ns/a=added", "secret/ns/b=b", "secret/ns/c=second c"));
}

TEST(SourceTable, ASourceFoundStaysWhereItIsWhateverIsAddedAfter) {
  SourceDefinitions definitions;
  definitions.push_back(Secret("m", "held"));
  SourceTable table = SourceTable::OfDefinitions(std::move(definitions));
  const Source* held = table.Find(Secret("m", "").id);
  std::vector<Source> more;
  for (int i = 0; i < 5000; ++i) {
    std::string name = "s" + std::to_string(i);
    more.push_back(Secret(name.c_str(), "v"));
  }
  EXPECT_EQ(table.Add(std::move(more), SourceTable::OnSameId::kKeepTable), 5000u);
  EXPECT_EQ(table.Find(Secret("m", "").id), held);
  EXPECT_EQ(held->entries.at("k"), "held");
  ASSERT_NE(table.Find(Secret("s4999", "").id), nullptr);
  EXPECT_EQ(table.size(), 5001u);
}

}  // namespace
}  // namespace rollcall
