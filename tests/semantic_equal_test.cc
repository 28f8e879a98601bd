// Values compared as Kubernetes reads them: YAML 1.1 scalars (go-yaml v2), JSON
// keys, merge keys, resource quantities.
#include "rollcall/previous/semantic_equal.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "test_support.h"

namespace rollcall {
namespace {

bool Same(const std::string& a, const std::string& b, const EqualOptions& options = {}) {
  return SemanticEqual(testing::ParseYaml(a), testing::ParseYaml(b), options);
}

std::string Json(const std::string& scalar) {
  return JsonScalarText(ResolveScalar(testing::ParseYaml(scalar)));
}

TEST(SemanticEqual, MappingsIgnoreKeyOrder) {
  EXPECT_TRUE(Same("{a: 1, b: [x, y]}", "b: [x, y]\na: 1\n"));
  EXPECT_FALSE(Same("{a: 1, b: 2}", "{a: 1, b: 3}"));
  EXPECT_FALSE(Same("{a: 1}", "{a: 1, b: 2}"));
}

TEST(SemanticEqual, DuplicateKeysLastWins) {
  EXPECT_TRUE(Same("{a: 1, a: 2}", "{a: 2}"));
  EXPECT_FALSE(Same("{a: 1, a: 2}", "{a: 1}"));
}

TEST(SemanticEqual, SequencesCompareInOrder) {
  EXPECT_TRUE(Same("[1, 2]", "- 1.0\n- 0x2\n"));
  EXPECT_FALSE(Same("[1, 2]", "[2, 1]"));
  EXPECT_FALSE(Same("[1, 2]", "[1, 2, 3]"));
  EXPECT_FALSE(Same("[1]", "{a: 1}"));
}

TEST(SemanticEqual, Yaml11Booleans) {
  for (const char* yes : {"y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "True", "TRUE"}) {
    EXPECT_TRUE(Same(yes, "true")) << yes;
    EXPECT_FALSE(Same(yes, "false")) << yes;
  }
  for (const char* no : {"n", "N", "no", "No", "NO", "off", "Off", "OFF", "False", "FALSE"}) {
    EXPECT_TRUE(Same(no, "false")) << no;
  }
  EXPECT_FALSE(Same("\"true\"", "true"));  // quoted: a string
  EXPECT_FALSE(Same("'yes'", "true"));
  EXPECT_FALSE(Same("tRUE", "true"));  // not a YAML 1.1 spelling: a string
  EXPECT_TRUE(Same("tRUE", "\"tRUE\""));
}

TEST(SemanticEqual, Yaml11Integers) {
  EXPECT_TRUE(Same("010", "8"));  // leading zero: octal
  EXPECT_TRUE(Same("0o17", "15"));
  EXPECT_TRUE(Same("0x1F", "31"));
  EXPECT_TRUE(Same("-0x1F", "-31"));
  EXPECT_TRUE(Same("0b101", "5"));
  EXPECT_TRUE(Same("1_000", "1000"));
  EXPECT_TRUE(Same("+1", "1"));
  EXPECT_TRUE(Same("-0", "0"));
  EXPECT_TRUE(Same("08", "8"));  // no octal, so go-yaml reads the float 8
  EXPECT_TRUE(Same("18446744073709551615", "0xFFFFFFFFFFFFFFFF"));
  EXPECT_TRUE(Same("-9223372036854775808", "-0x8000000000000000"));
  EXPECT_FALSE(Same("010", "10"));
}

TEST(SemanticEqual, NumbersAreJsonNumbers) {
  EXPECT_TRUE(Same("1", "1.0"));  // replicas: 1 and replicas: 1.0 send the same JSON
  EXPECT_TRUE(Same("1e3", "1000"));
  EXPECT_TRUE(Same(".5", "0.5"));
  EXPECT_TRUE(Same("1.", "1"));
  EXPECT_TRUE(Same("-.5e1", "-5"));
  // (.inf and .nan never get here: the parse refuses them, as JSON cannot hold them.)
  EXPECT_FALSE(Same("1.5", "1"));
  EXPECT_FALSE(Same("1", "\"1\""));  // replicas: 1 against replicas: "1"
  EXPECT_FALSE(Same("1", "true"));
  // Out of float64 range go-yaml keeps the text as a string.
  EXPECT_TRUE(Same("1e400", "\"1e400\""));
}

TEST(SemanticEqual, NullAndAbsent) {
  for (const char* null : {"~", "null", "Null", "NULL", ""}) {
    EXPECT_TRUE(Same(null, "null")) << null;
  }
  EXPECT_FALSE(Same("\"null\"", "null"));
  EXPECT_FALSE(Same("''", "null"));
  EXPECT_TRUE(Same("{a: 1, b: ~}", "{a: 1}"));
  EXPECT_TRUE(Same("{a: 1, b: }", "{a: 1, c: null}"));
  EXPECT_TRUE(SemanticEqual(YamlNode(), testing::ParseYaml("~")));
  EXPECT_FALSE(Same("{a: 1, b: []}", "{a: 1}"));
  EXPECT_TRUE(Same("{a: 1, b: []}", "{a: 1}", ApiSemantics()));
  EXPECT_TRUE(Same("{a: {}, b: null}", "{b: []}", ApiSemantics()));
}

TEST(SemanticEqual, QuotedAndPlainStrings) {
  EXPECT_TRUE(Same("abc", "\"abc\""));
  EXPECT_TRUE(Same("abc", "'abc'"));
  EXPECT_TRUE(Same("|\n  line\n", "\"line\\n\""));
  EXPECT_FALSE(Same("'010'", "010"));
  EXPECT_TRUE(Same("2001-12-14", "\"2001-12-14\""));  // timestamps stay strings
}

TEST(SemanticEqual, Tags) {
  EXPECT_TRUE(Same("!!str 1", "\"1\""));
  EXPECT_TRUE(Same("!!str yes", "\"yes\""));
  EXPECT_TRUE(Same("!!int \"3\"", "3"));
  EXPECT_TRUE(Same("!!float 1", "1"));
  EXPECT_TRUE(Same("!!bool yes", "true"));
  EXPECT_TRUE(Same("!!binary aGk=", "hi"));
  EXPECT_TRUE(Same("!custom 1", "\"1\""));
}

TEST(SemanticEqual, KeysBecomeJsonStrings) {
  EXPECT_TRUE(Same("{1: a}", "{\"1\": a}"));
  EXPECT_TRUE(Same("{0x10: a}", "{\"16\": a}"));
  EXPECT_TRUE(Same("{yes: a}", "{\"true\": a}"));
  EXPECT_TRUE(Same("{1.5: a}", "{\"1.5\": a}"));
  EXPECT_TRUE(Same("{1e6: a}", "{\"1e+06\": a}"));
  EXPECT_FALSE(Same("{'yes': a}", "{\"true\": a}"));
}

TEST(SemanticEqual, MergeKeys) {
  EXPECT_TRUE(Same("{base: &b {x: 1}, m: {<<: *b, y: 2}}", "{base: {x: 1}, m: {y: 2, x: 1}}"));
  // go-yaml v2: entries in order, so a later merge overwrites an earlier key.
  EXPECT_TRUE(Same("{<<: {a: 1}, a: 2}", "{a: 2}"));
  EXPECT_TRUE(Same("{a: 2, <<: {a: 1}}", "{a: 1}"));
  // Of a sequence of mappings, the first wins.
  EXPECT_TRUE(Same("{<<: [{a: 1}, {a: 2, b: 3}]}", "{a: 1, b: 3}"));
  EXPECT_FALSE(Same("{'<<': {a: 1}}", "{a: 1}"));  // quoted: an ordinary key
}

TEST(SemanticEqual, QuantitiesWhereKubernetesHasThem) {
  const std::string a = "resources: {requests: {memory: 1Gi, cpu: 500m}, limits: {cpu: 1}}";
  const std::string b = "resources: {requests: {memory: 1024Mi, cpu: 0.5}, limits: {cpu: 1000m}}";
  EXPECT_FALSE(Same(a, b));
  EXPECT_TRUE(Same(a, b, ApiSemantics()));
  EXPECT_TRUE(Same("emptyDir: {sizeLimit: 1G}", "emptyDir: {sizeLimit: 1000M}", ApiSemantics()));
  EXPECT_FALSE(Same("resources: {requests: {memory: 1Gi}}", "resources: {requests: {memory: 1G}}",
                    ApiSemantics()));
  // Elsewhere a quantity-like string is just a string.
  EXPECT_FALSE(Same("labels: {size: 1Gi}", "labels: {size: 1024Mi}", ApiSemantics()));
  EXPECT_TRUE(SemanticEqualAt("limits", testing::ParseYaml("{cpu: 2}"),
                              testing::ParseYaml("{cpu: 2000m}"), ApiSemantics()));
}

TEST(SemanticEqual, AliasBombsEndUnequal) {
  // (A cycle, "&a [*a]", never gets here: the parse refuses an alias inside its anchor.)
  // Nine levels of ten aliases each: 10^9 leaves.
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char level = 'b'; level <= 'i'; ++level) {
    bomb += {level, ':', ' ', '&', level, ' ', '['};
    for (int i = 0; i < 10; ++i) bomb += {i == 0 ? ' ' : ',', '*', static_cast<char>(level - 1)};
    bomb += "]\n";
  }
  auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(Same(bomb, bomb));  // two parses: no shortcut by identity
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  testing::ParsedYaml same = testing::ParseYaml(bomb);
  EXPECT_TRUE(SemanticEqual(same, same));
}

TEST(ResolveScalar, JsonText) {
  EXPECT_EQ(Json("1.5"), "1.5");
  EXPECT_EQ(Json("1e3"), "1000");
  EXPECT_EQ(Json("1e21"), "1e+21");
  EXPECT_EQ(Json("1e-7"), "1e-7");
  EXPECT_EQ(Json("0.1"), "0.1");
  EXPECT_EQ(Json("010"), "8");
  EXPECT_EQ(Json("-0x10"), "-16");
  EXPECT_EQ(Json("yes"), "true");
  EXPECT_EQ(Json("~"), "null");
  EXPECT_EQ(Json("'010'"), "010");
  EXPECT_EQ(ResolveScalar(testing::ParseYaml("9223372036854775808")).type,
            ResolvedScalar::Type::kInt);
  EXPECT_EQ(ResolveScalar(testing::ParseYaml("+9223372036854775808")).type,
            ResolvedScalar::Type::kFloat);
}

TEST(Quantity, EqualValuesWrittenDifferently) {
  EXPECT_TRUE(QuantityEqual("1Gi", "1024Mi"));
  EXPECT_TRUE(QuantityEqual("1Ki", "1024"));
  EXPECT_TRUE(QuantityEqual("1.5Gi", "1536Mi"));
  EXPECT_TRUE(QuantityEqual("1Ei", "1152921504606846976"));
  EXPECT_TRUE(QuantityEqual("1G", "1000M"));
  EXPECT_TRUE(QuantityEqual("1k", "1000"));
  EXPECT_TRUE(QuantityEqual("500m", "0.5"));
  EXPECT_TRUE(QuantityEqual("0.1", "100m"));
  EXPECT_TRUE(QuantityEqual("1e3", "1k"));
  EXPECT_TRUE(QuantityEqual("1E3", "1000"));
  EXPECT_TRUE(QuantityEqual("1E", "1e18"));
  EXPECT_TRUE(QuantityEqual("1.5e-3", "1500u"));
  EXPECT_TRUE(QuantityEqual("1n", "0.000000001"));
  EXPECT_TRUE(QuantityEqual("+1", "1"));
  EXPECT_TRUE(QuantityEqual("0", "-0"));
  EXPECT_TRUE(QuantityEqual("007", "7"));
  EXPECT_TRUE(QuantityEqual("-1", "-1000m"));
  EXPECT_FALSE(QuantityEqual("1Gi", "1G"));
  EXPECT_FALSE(QuantityEqual("1", "-1"));
  EXPECT_FALSE(QuantityEqual("1.000000001", "1"));
}

TEST(Quantity, NormalisedAsTheApiServerStoresThem) {
  // Below a nano, rounded up.
  EXPECT_TRUE(QuantityEqual("0.0000000001", "1n"));
  EXPECT_TRUE(QuantityEqual("1.0000000001", "1.000000001"));
  EXPECT_FALSE(QuantityEqual("1.0000000001", "1"));
  EXPECT_TRUE(QuantityEqual("1e-1000000000", "1n"));
  // Huge exponents, exactly and without writing the number out.
  EXPECT_TRUE(QuantityEqual("1e1000000000", "10e999999999"));
  EXPECT_LT(CompareQuantity("1e1000000000", "2e1000000000"), 0);
  EXPECT_GT(CompareQuantity("1e1000000000", "999999999999999999999999999999E"), 0);
}

TEST(Quantity, Compare) {
  EXPECT_GT(CompareQuantity("2Gi", "1Gi"), 0);
  EXPECT_LT(CompareQuantity("1Gi", "2Gi"), 0);
  EXPECT_LT(CompareQuantity("1G", "1Gi"), 0);
  EXPECT_EQ(CompareQuantity("1Gi", "1073741824"), 0);
  EXPECT_LT(CompareQuantity("-1", "1"), 0);
  EXPECT_LT(CompareQuantity("-2", "-1"), 0);
  EXPECT_LT(CompareQuantity("100Mi", "0.1Gi"), 0);
  EXPECT_LT(CompareQuantity("0", "1n"), 0);
}

TEST(Quantity, InvalidTextComparesAsText) {
  for (const char* bad : {"", "1K", "1i", "abc", "1.5.5", "1e", "1 Gi", "1Gb", "0x10", "1e1.5"}) {
    EXPECT_FALSE(IsQuantity(bad)) << bad;
  }
  EXPECT_TRUE(IsQuantity("1."));  // the API server takes these
  EXPECT_TRUE(QuantityEqual("Gi", "0"));
  EXPECT_TRUE(QuantityEqual("1K", "1K"));
  EXPECT_FALSE(QuantityEqual("1K", "1000"));
  EXPECT_LT(CompareQuantity("abc", "abd"), 0);
}

}  // namespace
}  // namespace rollcall
