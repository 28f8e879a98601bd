// The tree rollcall reads documents into (yaml_tree.h): values as go-yaml v2 reads
// them (each expected value is what gopkg.in/yaml.v2 2.4 gives for the same text;
// yaml-cpp, which rollcall used before, read several of them differently), and the
// nodes, tags and marks every reader and the byte edits rely on.
#include "rollcall/yaml_tree.h"

#include <gtest/gtest.h>

#include "rollcall/document.h"
#include "rollcall/stream.h"
#include "test_support.h"

namespace rollcall {
namespace {

std::string Read(const std::string& text, const char* key = "k") {
  return std::string(Child(testing::ParseYaml(text), key).Scalar());
}

TEST(YamlTree, EscapesNAndUnderscoreAreUtf8) {
  EXPECT_EQ(Read("k: \"1\\N2\\_3\\L4\\P5\\xA56\\e7\"\n"),
            "1\u00852\u00a03\u20284\u20295\u00a56\x1b"
            "7");
}

TEST(YamlTree, FoldedKeepKeepsItsTrailingEmptyLines) {
  EXPECT_EQ(Read("k: >+\n  x\n\nz: 1\n"), "x\n\n");
  EXPECT_EQ(Read("k: >+\n  x\n\n"), "x\n\n");
  EXPECT_EQ(Read("k: >+\n  x\n"), "x\n");
  EXPECT_EQ(Read("k: >+\n  x\n  y\n\n"), "x y\n\n");
  EXPECT_EQ(Read("k: >2+\n    x\n\n\nz: 1\n"), "  x\n\n\n");
  EXPECT_EQ(Read("k: !!str >+\n  x\n\n# c\nz: 1\n"), "x\n\n");
  // Literal keep and folded clip were read right already.
  EXPECT_EQ(Read("k: |+\n  x\n\n\nz: 1\n"), "x\n\n\n");
  EXPECT_EQ(Read("k: >\n  x\n\nz: 1\n"), "x\n");
}

// kubectl's stream reader adds the line break to a stream's last line; the parse
// hands libyaml the same text (document.cc), and go-yaml then reads "x\n".
std::string ReadLastDocument(const std::string& text) {
  Stream stream(text, "in.yaml");
  Document doc = ParseDocument(stream, stream.documents().back(), Limits{});
  return std::string(Child(doc.root(), "k").Scalar());
}

TEST(YamlTree, ABlockOnATextsLastLineWithoutALineBreakEndsInOne) {
  EXPECT_EQ(ReadLastDocument("k: |\n  x"), "x\n");
  EXPECT_EQ(ReadLastDocument("k: |+\n  x"), "x\n");
  EXPECT_EQ(ReadLastDocument("k: >\n  x\n  y"), "x y\n");
  EXPECT_EQ(ReadLastDocument("k: |-\n  x"), "x");
  EXPECT_EQ(ReadLastDocument("k: |\n  x\nz: 1"), "x\n");  // the block ended before the text did
  // Found by differential fuzzing: a last line of spaces only, read once it has its
  // line break (k8sread -documents gives the same).
  EXPECT_EQ(ReadLastDocument("k: >1\n   y\n   "), "  y\n  \n");
  EXPECT_EQ(ReadLastDocument("k: >1\n y\n   "), "y\n  \n");
  EXPECT_EQ(ReadLastDocument("a: 1\n---\nk: |\n  x\n  "), "x\n");
}

TEST(YamlTree, AnAliasIsItsAnchorsNode) {
  testing::ParsedYaml root = testing::ParseYaml("k: &a >+\n  x\n\n\nj: *a\nl: [*a, *a]\n");
  YamlNode k = Child(root, "k");
  EXPECT_EQ(k.Scalar(), "x\n\n\n");
  EXPECT_TRUE(Child(root, "j").is(k));
  ASSERT_EQ(Child(root, "l").size(), 2u);
  EXPECT_TRUE((*std::next(Child(root, "l").begin())).is(k));
  EXPECT_EQ(Child(root, "j").Mark().pos, 3);  // where the anchor is, as yaml-cpp had it
}

TEST(YamlTree, AnAliasNamesTheLatestAnchorOfItsName) {
  testing::ParsedYaml root = testing::ParseYaml("a: &x 1\nb: *x\nc: &x [2]\nd: *x\n");
  EXPECT_EQ(Child(root, "b").Scalar(), "1");
  EXPECT_TRUE(Child(root, "d").is(Child(root, "c")));
  EXPECT_EQ((*Child(root, "d").begin()).Scalar(), "2");
}

TEST(YamlTree, KeysAreReadAsGoYamlReadsThem) {
  testing::ParsedYaml root = testing::ParseYaml("{\"a\\Nb\": 1}");
  EXPECT_EQ(root.begin()->first.Scalar(), "a\u0085b");
}

TEST(YamlTree, TagsAsYamlCppGaveThem) {
  testing::ParsedYaml root = testing::ParseYaml(
      "a: x\nb: 'x'\nc: |\n  x\nd: !!str 1\ne: ! 1\nf: !t x\ng: {}\nh: !!map {}\n");
  EXPECT_EQ(Child(root, "a").Tag(), "?");
  EXPECT_EQ(Child(root, "b").Tag(), "!");
  EXPECT_EQ(Child(root, "c").Tag(), "!");
  EXPECT_EQ(Child(root, "d").Tag(), "tag:yaml.org,2002:str");
  EXPECT_EQ(Child(root, "e").Tag(), "!");
  EXPECT_EQ(Child(root, "f").Tag(), "!t");
  EXPECT_EQ(Child(root, "g").Tag(), "?");
  EXPECT_EQ(Child(root, "h").Tag(), "tag:yaml.org,2002:map");
  EXPECT_EQ(root.Tag(), "?");
}

TEST(YamlTree, PlainUntaggedNullsAreNullNodes) {
  testing::ParsedYaml root = testing::ParseYaml(
      "a: ~\nb: null\nc: NULL\nd:\ne: 'null'\nf: !!null null\ng: nULL\nh: !!str\n");
  for (const char* key : {"a", "b", "c", "d"}) {
    EXPECT_TRUE(Child(root, key).IsNull()) << key;
    EXPECT_EQ(Child(root, key).Tag(), "") << key;
    EXPECT_EQ(Child(root, key).Scalar(), "") << key;
  }
  EXPECT_TRUE(Child(root, "e").IsScalar());
  EXPECT_TRUE(Child(root, "f").IsScalar());  // tagged: yaml11.h resolves it
  EXPECT_TRUE(Child(root, "g").IsScalar());
  // An empty node with a tag is that tag's empty value to go-yaml ("" here).
  EXPECT_TRUE(Child(root, "h").IsScalar());
  EXPECT_EQ(Child(root, "h").Tag(), "tag:yaml.org,2002:str");
}

TEST(YamlTree, MarksAreWhereTheNodeStarts) {
  const std::string text =
      "a:\n  b: &x 'q'\n  c: |\n    t\n  d:\n  e: [1, {f: 2}]\n  g:\n  - h\n\u00e9: z\n";
  testing::ParsedYaml root = testing::ParseYaml(text);
  auto pos = [&](const YamlNode& node) { return static_cast<std::size_t>(node.Mark().pos); };
  YamlNode a = Child(root, "a");
  EXPECT_EQ(pos(root), 0u);
  EXPECT_EQ(pos(a), text.find("b:"));              // a block mapping: its first key
  EXPECT_EQ(pos(Child(a, "b")), text.find("&x"));  // its properties
  EXPECT_EQ(pos(Child(a, "c")), text.find('|'));
  EXPECT_EQ(pos(Child(a, "d")), text.find("d:") + 2);  // an empty value: past the colon
  EXPECT_EQ(pos(Child(a, "e")), text.find('['));
  EXPECT_EQ(Child(a, "e").Style(), YamlStyle::kFlow);
  EXPECT_EQ(a.Style(), YamlStyle::kBlock);
  EXPECT_EQ(pos(Child(a, "g")), text.find("- h"));
  // Bytes, not characters: the key after a two-byte character.
  EXPECT_EQ(pos(Child(root, "\u00e9")), text.find(": z") + 2);
  EXPECT_EQ(Child(a, "e").Mark().line, 5);
  EXPECT_EQ(Child(a, "e").Mark().column, 5);
  EXPECT_EQ(Child(root, "\u00e9").Mark().column, 4);  // bytes from the line's start
}

TEST(YamlTree, IteratesEntriesAndItems) {
  testing::ParsedYaml root = testing::ParseYaml("m: {a: 1, b: [x, y, z], a: 3}\n");
  YamlNode m = Child(root, "m");
  std::string keys;
  for (const auto& entry : m)
    keys += std::string(entry.first.Scalar()) + "=" + std::to_string(entry.second.size()) + ";";
  EXPECT_EQ(keys, "a=0;b=3;a=0;");
  EXPECT_EQ(Child(m, "a").Scalar(), "3");  // the last of duplicate keys
  std::string items;
  for (const YamlNode& item : Child(m, "b")) items += item.Scalar();
  EXPECT_EQ(items, "xyz");
  YamlNode undefined;
  EXPECT_FALSE(undefined.IsDefined());
  EXPECT_EQ(undefined.begin(), undefined.end());
  EXPECT_EQ(Child(undefined, "a").Scalar(), "");
}

TEST(YamlTree, ConsumersJsonWithAnEscapedKeyDoesNotAbort) {
  // Was exit 134: nlohmann::json threw on the byte 0x85 yaml-cpp made of \N.
  std::string input =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec:\n  template:\n    spec:\n"
      "      containers:\n      - name: a\n        env:\n        - name: X\n          valueFrom: "
      "{secretKeyRef: {name: s, key: \"k\\N1\"}}\n";
  testing::ProcessResult result = testing::RunProcess(
      {testing::RollcallBinary(), "consumers", "s", "--format", "json", "-"}, input);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("\"env k\u00851\""), std::string::npos) << result.out;
}

}  // namespace
}  // namespace rollcall
