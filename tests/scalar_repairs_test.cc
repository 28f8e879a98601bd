// Scalars repaired to what go-yaml v2 reads (each expected value is what
// gopkg.in/yaml.v2 2.4 gives for the same text).
#include "rollcall/scalar_repairs.h"

#include <gtest/gtest.h>

#include "rollcall/document.h"
#include "rollcall/stream.h"
#include "test_support.h"

namespace rollcall {
namespace {

std::string Read(const std::string& text, const char* key = "k") {
  YAML::Node root = YAML::Load(text);
  if (MayNeedScalarRepairs(text)) RepairScalars(text, root);
  return root[key].Scalar();
}

TEST(RepairScalars, EscapesNAndUnderscoreAreUtf8) {
  EXPECT_EQ(Read("k: \"1\\N2\\_3\\L4\\P5\\xA56\\e7\"\n"),
            "1\u00852\u00a03\u20284\u20295\u00a56\x1b"
            "7");
}

TEST(RepairScalars, FoldedKeepKeepsItsTrailingEmptyLines) {
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
// hands yaml-cpp the same text (document.cc), and go-yaml then reads "x\n".
std::string ReadLastDocument(const std::string& text) {
  Stream stream(text, "in.yaml");
  Document doc = ParseDocument(stream, stream.documents().back(), Limits{});
  return Child(doc.root(), "k").Scalar();
}

TEST(RepairScalars, ABlockOnATextsLastLineWithoutALineBreakEndsInOne) {
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

TEST(RepairScalars, AnAliasedScalarIsRepairedOnce) {
  std::string text = "k: &a >+\n  x\n\n\nj: *a\nl: [*a, *a]\n";
  YAML::Node root = YAML::Load(text);
  RepairScalars(text, root);
  EXPECT_EQ(root["k"].Scalar(), "x\n\n\n");
  EXPECT_EQ(root["j"].Scalar(), "x\n\n\n");
  EXPECT_EQ(root["l"][1].Scalar(), "x\n\n\n");
}

TEST(RepairScalars, KeysAreRepairedToo) {
  YAML::Node root = YAML::Load("{\"a\\Nb\": 1}");
  RepairScalars("{\"a\\Nb\": 1}", root);
  EXPECT_EQ(root.begin()->first.Scalar(), "a\u0085b");
}

TEST(RepairScalars, ConsumersJsonWithAnEscapedKeyDoesNotAbort) {
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
