// `rollcall krm`: golden ResourceLists under testdata/krm/<case>/, run through the
// binary as kpt and kustomize run it, and the pieces the command is made of.
//
// A case holds input.yaml and, for a case that succeeds, expected.yaml (read by a
// person). Optional: config.yaml (then the case is kustomize's exec plugin protocol:
// `rollcall krm config.yaml` on a plain stream), expected.stderr (exact), exit-code
// (default 0). A case whose input is no ResourceList must leave stdout empty.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <functional>

#include "rollcall/input_error.h"
#include "rollcall/krm/field_path.h"
#include "rollcall/krm/function.h"
#include "rollcall/krm/function_config.h"
#include "rollcall/krm/item_stream.h"
#include "rollcall/krm/results.h"
#include "test_support.h"

namespace rollcall {
namespace {

using testing::FileExists;
using testing::GoldenCaseName;
using testing::GoldenCases;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::ReadFile;
using testing::RollcallBinary;
using testing::RunProcess;
using testing::TestdataPath;

std::vector<std::string> Command(const std::string& dir) {
  std::vector<std::string> argv = {RollcallBinary(), "krm"};
  if (FileExists(dir + "/config.yaml")) argv.push_back(dir + "/config.yaml");
  return argv;
}

// The cases must not depend on the caller's Helm environment (the namespace).
const std::vector<std::string> kEnv = {"HELM_NAMESPACE="};

class KrmGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(KrmGolden, MatchesExpectedOutput) {
  std::string dir = TestdataPath("krm/" + GetParam());
  int expected_exit = FileExists(dir + "/exit-code") ? std::stoi(ReadFile(dir + "/exit-code")) : 0;
  testing::ProcessResult result = RunProcess(Command(dir), ReadFile(dir + "/input.yaml"), kEnv);
  EXPECT_EQ(result.exit_code, expected_exit) << result.err;
  std::string expected = FileExists(dir + "/expected.yaml") ? ReadFile(dir + "/expected.yaml") : "";
  EXPECT_EQ(result.out, expected);
  if (FileExists(dir + "/expected.stderr")) {
    std::string err = ReadFile(dir + "/expected.stderr");
    // The config file's path depends on where the tests run.
    for (std::size_t at; (at = err.find("$DIR")) != std::string::npos;) err.replace(at, 4, dir);
    EXPECT_EQ(result.err, err);
  }
}

// Running the output through again changes nothing: the items carry their hashes
// and the results are replaced, not added to.
TEST_P(KrmGolden, RenderingTheOutputAgainChangesNothing) {
  std::string dir = TestdataPath("krm/" + GetParam());
  if (FileExists(dir + "/exit-code")) GTEST_SKIP() << "error case";
  std::string expected = ReadFile(dir + "/expected.yaml");
  testing::ProcessResult again = RunProcess(Command(dir), expected, kEnv);
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, expected);
}

// No case may print a Secret's value, whatever it says.
TEST_P(KrmGolden, NeverPrintsTheSecretValue) {
  std::string dir = TestdataPath("krm/" + GetParam());
  testing::ProcessResult result = RunProcess(Command(dir), ReadFile(dir + "/input.yaml"), kEnv);
  EXPECT_THAT(result.err, Not(HasSubstr("hunter2")));
  EXPECT_THAT(result.err, Not(HasSubstr("aHVudGVyMg")));  // base64 of it
}

std::string CaseName(const ::testing::TestParamInfo<std::string>& info) {
  return GoldenCaseName(info.param);
}

INSTANTIATE_TEST_SUITE_P(Krm, KrmGolden, ::testing::ValuesIn(GoldenCases("krm", "input.yaml")),
                         CaseName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(KrmGolden);

TEST(KrmGoldenCases, AreThere) { EXPECT_GE(GoldenCases("krm", "input.yaml").size(), 10u); }

TEST(KrmCommand, IsListedAndTakesAtMostTheConfigFile) {
  testing::ProcessResult help = RunProcess({RollcallBinary(), "help"}, "");
  EXPECT_THAT(
      help.out,
      HasSubstr(
          "  krm         render as a KRM function (kpt fn eval) or a kustomize exec plugin\n"));
  testing::ProcessResult two = RunProcess({RollcallBinary(), "krm", "a.yaml", "b.yaml"}, "");
  EXPECT_EQ(two.exit_code, 2);
  EXPECT_EQ(two.out, "");
  EXPECT_EQ(two.err,
            "rollcall: error: krm takes at most one argument, the config file kustomize passes; "
            "got 'b.yaml' as well (options go in the function config)\n");
  testing::ProcessResult missing = RunProcess({RollcallBinary(), "krm", "/no/such/fn.yaml"}, "");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.out, "");
  EXPECT_EQ(missing.err,
            "rollcall: error: /no/such/fn.yaml: cannot read rollcall's function config: No such "
            "file or directory\n");
}

// The HMAC key comes from the user's environment, as render's does; never from the
// function config, which comes with the package.
TEST(KrmCommand, TheHmacKeyComesFromTheEnvironment) {
  const std::string dir = TestdataPath("krm/block-comments-indented");
  const std::string input = ReadFile(dir + "/input.yaml");
  char key_path[] = "/tmp/rollcall-krm-key-XXXXXX";
  const int fd = mkstemp(key_path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, "0123456789abcdef0123456789abcdef", 32), 32);
  close(fd);
  testing::ProcessResult keyed =
      RunProcess({RollcallBinary(), "krm"}, input,
                 {"HELM_NAMESPACE=", std::string("ROLLCALL_HMAC_KEY_FILE=") + key_path});
  unlink(key_path);
  testing::ProcessResult plain = RunProcess({RollcallBinary(), "krm"}, input, kEnv);
  EXPECT_THAT(keyed.out, HasSubstr("hmac-sha256:"));
  EXPECT_THAT(plain.out, ::testing::Not(HasSubstr("hmac-sha256:")));
  EXPECT_THAT(plain.out, HasSubstr("sha256:"));
}

// --- the pieces -------------------------------------------------------------------

testing::ParsedYaml Parse(const std::string& text) { return testing::ParseYaml(text); }

TEST(FieldPathAt, NamesMapKeysSequenceIndexesAndKeysWithDots) {
  testing::ParsedYaml root = Parse(
      "spec:\n"                                // line 0
      "  containers:\n"                        // line 1
      "  - name: a\n"                          // line 2
      "  - name: b\n"                          // line 3
      "    env: [{name: X}]\n"                 // line 4
      "metadata:\n"                            // line 5
      "  annotations:\n"                       // line 6
      "    rollcall.dev/ignore: \"x: y\"\n");  // line 7
  EXPECT_EQ(FieldPathAt(root, 3, 10), "spec.containers[1].name");
  EXPECT_EQ(FieldPathAt(root, 4, 17), "spec.containers[1].env[0].name");
  EXPECT_EQ(FieldPathAt(root, 7, 25), "metadata.annotations[\"rollcall.dev/ignore\"]");
  EXPECT_EQ(FieldPathAt(root, 3, 5), "");  // inside a key: no field starts there
  // A block mapping starts where its first key does: the position names the mapping.
  EXPECT_EQ(FieldPathAt(root, 3, 4), "spec.containers[1]");
  EXPECT_EQ(FieldPathAt(root, 0, 0), "");  // the object itself
}

// A function config parsed as it would come in a file.
struct ParsedConfig {
  explicit ParsedConfig(const std::string& text) : stream(text, "fn.yaml") {
    documents = ParseStream(stream, Limits{});
  }
  FunctionConfig Read() const {
    return ReadFunctionConfig(documents.at(0), documents.at(0).root());
  }
  Stream stream;
  std::vector<Document> documents;
};

// What `run` throws, described; "no error" when it throws nothing.
std::string InputErrorOf(const std::function<void()>& run) {
  try {
    run();
  } catch (const InputError& e) {
    return e.Describe();
  }
  return "no error";
}

std::string ConfigError(const std::string& text) {
  return InputErrorOf([&text] { ParsedConfig(text).Read(); });
}

TEST(ReadFunctionConfig, TypedObjectTakesOptionsAtTopLevel) {
  FunctionConfig config = ParsedConfig(
                              "apiVersion: rollcall.dev/v1\nkind: Rollcall\nmetadata: {name: r}\n"
                              "namespace: prod\njobPolicy: keep\nstrict: true\n"
                              "runOncePatterns: ['-boot$', '^seed-']\nconfig: ci/.rollcall.yaml\n")
                              .Read();
  EXPECT_EQ(config.name_space, "prod");
  EXPECT_EQ(config.job_policy, JobPolicy::kKeep);
  EXPECT_TRUE(config.strict);
  EXPECT_EQ(config.run_once_patterns, (std::vector<std::string>{"-boot$", "^seed-"}));
  EXPECT_EQ(config.config_path, "ci/.rollcall.yaml");
}

TEST(ReadFunctionConfig, ConfigMapDataHoldsStrings) {
  FunctionConfig config =
      ParsedConfig(
          "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: function-input}\n"
          "data: {namespace: prod, strict: \"false\", runOncePatterns: \"a\\n b \\n\\n\"}\n")
          .Read();
  EXPECT_EQ(config.name_space, "prod");
  EXPECT_FALSE(config.strict);
  EXPECT_EQ(config.run_once_patterns, (std::vector<std::string>{"a", "b"}));
  EXPECT_FALSE(config.job_policy.has_value());
}

TEST(ReadFunctionConfig, NoConfigIsTheDefaults) {
  ParsedConfig parsed("apiVersion: v1\nkind: ConfigMap\n");
  FunctionConfig config = ReadFunctionConfig(parsed.documents.at(0), YamlNode());
  EXPECT_EQ(config.name_space, "");
  EXPECT_FALSE(config.strict);
}

TEST(ReadFunctionConfig, ErrorsNameTheLineAndTheOption) {
  EXPECT_EQ(ConfigError("apiVersion: rollcall.dev/v1\nkind: Rollcall\nnamespase: prod\n"),
            "fn.yaml (document 1, line 3, column 1): unknown option 'namespase' in rollcall's "
            "function config (it takes namespace, jobPolicy, runOncePatterns, strict, config)");
  // The package's config names no key file: the user's environment does.
  EXPECT_EQ(ConfigError("apiVersion: v1\nkind: ConfigMap\ndata: {hmacKeyFile: /etc/shadow}\n"),
            "fn.yaml (document 1, line 3, column 8): hmacKeyFile is not taken from the function "
            "config, which comes with the package: the key file is the user's to give, as "
            "ROLLCALL_HMAC_KEY_FILE in the function's environment");
  EXPECT_EQ(ConfigError("apiVersion: v1\nkind: ConfigMap\ndata:\n  jobPolicy: recreate\n"),
            "fn.yaml (document 1, line 4, column 14): jobPolicy must be rename or keep");
  EXPECT_EQ(ConfigError("apiVersion: v1\nkind: ConfigMap\ndata: {strict: maybe}\n"),
            "fn.yaml (document 1, line 3, column 16): strict must be true or false");
  EXPECT_EQ(ConfigError("apiVersion: v1\nkind: ConfigMap\nbinaryData: {a: b}\n"),
            "fn.yaml (document 1, line 3, column 1): rollcall reads only the data of a ConfigMap "
            "function config, not 'binaryData'");
  EXPECT_EQ(ConfigError("apiVersion: example.com/v1\nkind: Rollcall\n"),
            "fn.yaml (document 1, line 1, column 1): rollcall's function config must be a "
            "rollcall.dev/v1 Rollcall or a v1 ConfigMap, not 'example.com/v1' 'Rollcall'");
  EXPECT_EQ(ConfigError("apiVersion: rollcall.dev/v1\nkind: Rollcall\nnamespace: {a: b}\n"),
            "fn.yaml (document 1, line 3, column 12): namespace must be a non-empty string");
}

TEST(ResultsYaml, QuotesEveryStringAndUsesTheLineBreakGiven) {
  KrmResult result;
  result.message = "says \"no\": true\nsecond line";
  result.severity = Severity::kWarning;
  result.kind = "Deployment";
  result.name = "yes";
  result.file_path = "a b.yaml";
  result.file_index = 0;
  EXPECT_EQ(ResultsYaml({result}, "\r\n"),
            "results:\r\n"
            "- message: \"says \\\"no\\\": true\\nsecond line\"\r\n"
            "  severity: warning\r\n"
            "  resourceRef:\r\n"
            "    kind: \"Deployment\"\r\n"
            "    name: \"yes\"\r\n"
            "  file:\r\n"
            "    path: \"a b.yaml\"\r\n"
            "    index: 0\r\n");
  EXPECT_EQ(ResultsYaml({}, "\n"), "");
  // What rollcall writes is what a YAML reader reads back.
  testing::ParsedYaml back = testing::ParseYaml(ResultsYaml({result}, "\n"));
  YamlNode first = *Child(back, "results").begin();
  EXPECT_EQ(Child(first, "message").Scalar(), result.message);
  EXPECT_EQ(Child(Child(first, "resourceRef"), "name").Scalar(), "yes");
}

std::string ListError(const std::string& text) {
  return InputErrorOf([&text] {
    Stream stream(text, "<stdin>");
    ParseResourceList(stream, Limits{});
  });
}

TEST(ParseResourceList, RefusesWhatItCannotEditAsBytes) {
  EXPECT_EQ(ListError(""), "<stdin>: no ResourceList: the input is empty");
  EXPECT_EQ(ListError("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n---\n"
                      "apiVersion: v1\nkind: ConfigMap\n"),
            "<stdin> (document 2, line 4, column 1): a second document: a KRM function reads "
            "exactly one ResourceList");
  EXPECT_EQ(ListError("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: {a: 1}\n"),
            "<stdin> (document 1, line 3, column 8): items is not a sequence");
  EXPECT_EQ(ListError("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- 3\n"),
            "<stdin> (document 1, line 4, column 3): item 1 is not a mapping");
  EXPECT_EQ(ListError("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n"
                      "- # the first\n  apiVersion: v1\n  kind: ConfigMap\n"),
            "<stdin> (document 1, line 5, column 3): cannot find the '-' of item 1 (rollcall krm "
            "edits items written as \"- key: value\" entries)");
  EXPECT_EQ(ListError("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n"
                      "- &a {apiVersion: v1, kind: ConfigMap}\n- *a\n"),
            "<stdin> (document 1, line 4, column 1): item 2 is an alias of an earlier item; "
            "rollcall krm edits each item's own text");
  EXPECT_EQ(ListError("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n"
                      "items: []\n"),
            "<stdin> (document 1, line 4, column 1): the ResourceList has 'items' twice");
  EXPECT_EQ(ListError("apiVersion: config.kubernetes.io/v2\nkind: ResourceList\nitems: []\n"),
            "<stdin> (document 1, line 1, column 1): not a ResourceList: rollcall krm reads a "
            "ResourceList (apiVersion config.kubernetes.io/v1 or config.kubernetes.io/v1beta1) on "
            "stdin, or a plain stream when given a config file");
}

TEST(ItemStream, EachItemIsADocumentWithItsBytesAndComesBackAsItWas) {
  const std::string text =
      "apiVersion: config.kubernetes.io/v1\n"
      "kind: ResourceList\n"
      "items:\n"
      "  # before the first item\n"
      "  - apiVersion: v1   # one\n"
      "    kind: ConfigMap\n"
      "    metadata: {name: a}\n"
      "  -\n"
      "    apiVersion: v1\n"
      "    kind: ConfigMap\n"
      "    metadata: {name: b}\n"
      "functionConfig: {apiVersion: v1, kind: ConfigMap}\n";
  Stream stream(text, "<stdin>");
  ResourceList list = ParseResourceList(stream, Limits{});
  ASSERT_EQ(list.items.size(), 2u);
  EXPECT_EQ(list.items[1].name, "b");
  ItemStream items = ItemsAsStream(stream, list);
  EXPECT_EQ(items.bytes,
            "---\n"
            "    apiVersion: v1   # one\n"
            "    kind: ConfigMap\n"
            "    metadata: {name: a}\n"
            "---\n"
            "   \n"
            "    apiVersion: v1\n"
            "    kind: ConfigMap\n"
            "    metadata: {name: b}\n");
  EXPECT_EQ(items.first_line, (std::vector<std::size_t>{2, 6}));
  EXPECT_EQ(ResourceListLine(stream, list, items, 1, 7), 9u);  // kind of item b
  std::vector<std::string> back = ItemsFromStream(stream, list, items.bytes);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0], text.substr(list.items[0].begin, list.items[0].end - list.items[0].begin));
  EXPECT_EQ(back[1], text.substr(list.items[1].begin, list.items[1].end - list.items[1].begin));
}

TEST(RenderResourceList, AnInputErrorInAnItemNamesTheResourceListLine) {
  const std::string text =
      "apiVersion: config.kubernetes.io/v1\n"
      "kind: ResourceList\n"
      "items:\n"
      "- apiVersion: v1\n"
      "  kind: Secret\n"
      "  metadata: {name: s}\n"
      "  data: {k: \"not base64!\"}\n";
  Stream stream(text, "<stdin>");
  ResourceList list = ParseResourceList(stream, Limits{});
  try {
    RenderResourceList(stream, list, RenderOptions{}, false);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().line, 7u) << e.Describe();
    EXPECT_EQ(e.where().origin, "<stdin>");
  }
}

}  // namespace
}  // namespace rollcall
