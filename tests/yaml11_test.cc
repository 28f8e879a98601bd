// Scalars read as Kubernetes reads them (go-yaml v2, YAML 1.1): each expectation is
// what go-yaml v2.4's resolve() gives for the same text.
#include "rollcall/yaml11.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>
#include <type_traits>
#include <utility>

#include "test_support.h"

namespace rollcall {
namespace {

using Type = ResolvedScalar::Type;

TEST(ResolvePlainScalar, BooleansOfYaml11) {
  for (const char* text :
       {"y", "Y", "yes", "Yes", "YES", "true",  "True",  "TRUE",  "on",  "On",  "ON",
        "n", "N", "no",  "No",  "NO",  "false", "False", "FALSE", "off", "Off", "OFF"}) {
    EXPECT_EQ(ResolvePlainScalar(std::string(text)), Type::kBool) << text;
  }
  for (const char* text : {"yES", "tRUE", "t", "f", "oN", "Yess", "enabled"}) {
    EXPECT_EQ(ResolvePlainScalar(std::string(text)), Type::kString) << text;
  }
}

TEST(ResolvePlainScalar, NullsAndFloatWords) {
  for (const char* text : {"", "~", "null", "Null", "NULL"}) {
    EXPECT_EQ(ResolvePlainScalar(std::string(text)), Type::kNull) << text;
  }
  EXPECT_EQ(ResolvePlainScalar("nULL"), Type::kString);
  for (const char* text : {".nan", ".NaN", ".inf", "-.Inf", "+.INF", ".5", ".5e3"}) {
    EXPECT_EQ(ResolvePlainScalar(std::string(text)), Type::kFloat) << text;
  }
  for (const char* text : {".", ".x", ".5e", ".Nan"}) {
    EXPECT_EQ(ResolvePlainScalar(std::string(text)), Type::kString) << text;
  }
}

TEST(ResolvePlainScalar, IntegersAsGoReadsThemWithBaseZero) {
  for (const char* text :
       {"0", "-0", "+5", "123", "0123", "0x1F", "0X1f", "0o17", "0b101", "-0b101", "1_000",
        "9223372036854775807", "-9223372036854775808", "18446744073709551615"}) {
    EXPECT_EQ(ResolvePlainScalar(std::string(text)), Type::kInt) << text;
  }
  // 08 and 09 are not octal, but are floats by the YAML-style pattern.
  EXPECT_EQ(ResolvePlainScalar("08"), Type::kFloat);
  EXPECT_EQ(ResolvePlainScalar("+9223372036854775808"), Type::kFloat);
  EXPECT_EQ(ResolvePlainScalar("18446744073709551616"), Type::kFloat);
  for (const char* text : {"0x", "0xZ", "0b2", "1-2", "12abc", "+", "-", "0x1.8p1"}) {
    EXPECT_EQ(ResolvePlainScalar(std::string(text)), Type::kString) << text;
  }
}

TEST(ResolvePlainScalar, FloatsAndWhatOverflows) {
  for (const char* text : {"1e3", "1.5", "1.", "-2.5E-3", "+1e+3", "1_0.5"}) {
    EXPECT_EQ(ResolvePlainScalar(std::string(text)), Type::kFloat) << text;
  }
  EXPECT_EQ(ResolvePlainScalar("1e999"), Type::kString);  // ParseFloat: out of range
  EXPECT_EQ(ResolvePlainScalar("1e"), Type::kString);
}

TEST(ResolvePlainScalar, TimestampsStayStrings) {
  EXPECT_EQ(ResolvePlainScalar("2001-12-14"), Type::kString);
  EXPECT_EQ(ResolvePlainScalar("2001-12-14T21:59:43.10Z"), Type::kString);
  EXPECT_EQ(ResolvePlainScalar("1.2.3"), Type::kString);
  EXPECT_EQ(ResolvePlainScalar("10.0.0.1"), Type::kString);
}

TEST(ResolveScalar, QuotesAndTagsDecide) {
  testing::ParsedYaml doc = testing::ParseYaml(
      "a: yes\nb: \"yes\"\nc: 'yes'\nd: !!str yes\ne: !!int \"12\"\nf: ~\ng: |\n  yes\n");
  EXPECT_EQ(ResolveScalar(Child(doc, "a")).type, Type::kBool);
  EXPECT_EQ(ResolveScalar(Child(doc, "b")).type, Type::kString);
  EXPECT_EQ(ResolveScalar(Child(doc, "c")).type, Type::kString);
  EXPECT_EQ(ResolveScalar(Child(doc, "d")).type, Type::kString);
  EXPECT_EQ(ResolveScalar(Child(doc, "e")).type, Type::kInt);
  EXPECT_EQ(ResolveScalar(Child(doc, "f")).type, Type::kNull);
  EXPECT_EQ(ResolveScalar(Child(doc, "g")).type,
            Type::kString);  // a block scalar is never resolved
}

TEST(BoolValue, OptionalAsKubernetesReadsIt) {
  testing::ParsedYaml doc = testing::ParseYaml("a: yes\nb: On\nc: n\nd: \"true\"\ne: 1\n");
  EXPECT_EQ(BoolValue(Child(doc, "a")), true);
  EXPECT_EQ(BoolValue(Child(doc, "b")), true);
  EXPECT_EQ(BoolValue(Child(doc, "c")), false);
  EXPECT_EQ(BoolValue(Child(doc, "d")), std::nullopt);
  EXPECT_EQ(BoolValue(Child(doc, "e")), std::nullopt);
  EXPECT_EQ(BoolValue(Child(doc, "missing")), std::nullopt);
}

TEST(KeyText, KeysAsSigsK8sYamlWritesThem) {
  testing::ParsedYaml doc = testing::ParseYaml(
      "{on: 1, Off: 2, y: 3, \"on\": 4, 0123: 5, 0x1F: 6, 1_000: 7, -0: 8, plain: 9}");
  std::vector<std::string> keys;
  for (const auto& entry : doc) keys.push_back(KeyText(entry.first));
  EXPECT_EQ(keys, (std::vector<std::string>{"true", "false", "true", "on", "83", "31", "1000", "0",
                                            "plain"}));
}

TEST(JsonEntries, SortedByKeyTheLastOfEachKeptAndMergesExpandedAsGoYamlDoes) {
  testing::ParsedYaml doc = testing::ParseYaml(
      "base: &b {p: 1, q: 2}\n"
      "other: &o {q: 3, r: 4}\n"
      "m:\n"
      "  <<: [*b, *o]\n"  // of merged mappings the earlier wins: q is 2
      "  r: 5\n"          // a written key wins over a merged one
      "  a: 1\n"
      "  a: 2\n"  // of duplicate keys the last wins
      "  on: t\n");
  std::vector<std::string> seen;
  for (const JsonMapping::Entry& entry : JsonEntries(Child(doc, "m"))) {
    seen.push_back(std::string(entry.key) + "=" + std::string(entry.value.Scalar()) + "@" +
                   std::to_string(entry.key_node.Mark().line));
  }
  // A merged key is placed where its mapping wrote it (line 0 for base's p and q).
  EXPECT_EQ(seen, (std::vector<std::string>{"a=2@6", "p=1@0", "q=2@0", "r=5@4", "true=t@7"}));
  EXPECT_TRUE(JsonEntries(Child(doc, "missing")).empty());
  EXPECT_TRUE(JsonEntries(Child(Child(doc, "m"), "a")).empty());  // a scalar
}

TEST(JsonEntries, KeysTurnedIntoOtherTextStayReadableHoweverManyThereAre) {
  // Octal keys, each a JSON key unlike its text (`010` is "8"): the mapping keeps
  // them beside the rows that view them, a hundred of them (a vector of strings
  // would move the short ones as it grows, and the views with them); of `010` and
  // `0x8`, the same integer, the later wins.
  std::string text = "m:\n";
  for (int i = 8; i < 108; ++i) {
    char octal[16];
    std::snprintf(octal, sizeof octal, "0%o", static_cast<unsigned>(i));
    text += std::string("  ") + octal + ": v" + std::to_string(i) + "\n";
  }
  text += "  0x8: last\n";
  testing::ParsedYaml doc = testing::ParseYaml(text);
  // Read after a move, whose keys stay where they were; a copy would not.
  static_assert(!std::is_copy_constructible_v<JsonMapping>);
  JsonMapping read = JsonEntries(Child(doc, "m"));
  JsonMapping moved(std::move(read));
  std::map<std::string, std::string> seen;
  std::size_t count = 0;
  for (const JsonMapping::Entry& entry : moved) {
    seen[std::string(entry.key)] = std::string(entry.value.Scalar());
    ++count;
  }
  EXPECT_EQ(count, 100u);  // each key once
  EXPECT_EQ(seen.size(), 100u);
  EXPECT_EQ(seen.at("8"), "last");    // 010, then 0x8
  EXPECT_EQ(seen.at("9"), "v9");      // 011
  EXPECT_EQ(seen.at("107"), "v107");  // 0153
  EXPECT_EQ(seen.count("010"), 0u);   // never its text
}

}  // namespace
}  // namespace rollcall
