// Render reads values as Kubernetes does (docs/yaml.md): what the process reads is
// what the hash covers, and an object the API server would refuse is refused.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_support.h"

namespace rollcall {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::ProcessResult;
using testing::RollcallBinary;
using testing::RunProcess;

std::string Consumer(const std::string& env) {
  return "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n"
         "    spec:\n      containers:\n      - name: app\n        env:\n" +
         env;
}

// An input render refuses, with exit 2, nothing on stdout and `message` on stderr.
struct Refused {
  std::string input;
  std::string message;
};

void ExpectRefused(const std::vector<Refused>& cases) {
  for (const Refused& c : cases) {
    ProcessResult result = RunProcess({RollcallBinary(), "render"}, c.input);
    EXPECT_EQ(result.exit_code, 2) << c.input;
    EXPECT_EQ(result.out, "") << c.input;
    EXPECT_THAT(result.err, HasSubstr(c.message)) << c.input;
  }
}

TEST(Yaml11Reading, OptionalYesIsOptional) {
  for (const char* yes : {"yes", "on", "y", "True", "TRUE"}) {
    std::string input =
        "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {a: b}\n" +
        Consumer(std::string("        - name: X\n          valueFrom: {secretKeyRef: {name: s, "
                             "key: absent, optional: ") +
                 yes + "}}\n");
    ProcessResult result = RunProcess({RollcallBinary(), "render"}, input);
    EXPECT_EQ(result.exit_code, 0) << yes;
    // Kubernetes starts the pod without the variable: no missing-key finding.
    EXPECT_THAT(result.err, Not(HasSubstr("missing-key"))) << yes;
  }
  // Quoted, it is a string, which the API server refuses where a bool belongs.
  std::string quoted =
      "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {a: b}\n" +
      Consumer(
          "        - name: X\n          valueFrom: {secretKeyRef: {name: s, key: absent, "
          "optional: \"yes\"}}\n");
  ProcessResult refused = RunProcess({RollcallBinary(), "render"}, quoted);
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(refused.out, "");
  EXPECT_EQ(refused.err,
            "rollcall: error: <stdin> (document 2, line 16, column 70): Deployment web: "
            "spec.template.spec.containers.env.valueFrom.secretKeyRef.optional is a string to "
            "Kubernetes, not a bool; write true or false, unquoted. The API server refuses the "
            "object: \"Deployment in version \\\"apps/v1\\\" cannot be handled as a Deployment: "
            "json: cannot unmarshal string into Go struct field "
            "Deployment.spec.template.spec.containers.env.valueFrom.secretKeyRef.optional of "
            "type bool\"\n");
}

TEST(Yaml11Reading, AKeyOnIsTheKeyTrue) {
  std::string secret =
      "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData:\n  on: one\n";
  std::string reads_true = Consumer(
      "        - name: X\n          valueFrom: {secretKeyRef: {name: s, key: \"true\"}}\n");
  ProcessResult result = RunProcess({RollcallBinary(), "render"}, secret + reads_true);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.err, HasSubstr("hashed 1"));
  EXPECT_THAT(result.err, Not(HasSubstr("missing-key")));
  // The value of the key "true" is in the hash.
  std::string changed =
      "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData:\n  on: two\n";
  EXPECT_NE(testing::TemplateAnnotation(
                RunProcess({RollcallBinary(), "render"}, secret + reads_true).out, "web"),
            testing::TemplateAnnotation(
                RunProcess({RollcallBinary(), "render"}, changed + reads_true).out, "web"));
}

TEST(Yaml11Reading, ANumberOrBoolWhereAStringBelongsIsRefused) {
  const std::string v1 = "apiVersion: v1\n";
  ExpectRefused({
      {v1 + "kind: ConfigMap\nmetadata: {name: c}\ndata:\n  port: 0123\n",
       "rollcall: error: <stdin> (document 1, line 5, column 3): ConfigMap default/c: data.port is "
       "a "
       "number to Kubernetes, which reads unquoted YAML by YAML 1.1's rules; quote it to keep it a "
       "string. The API server refuses the object: \"ConfigMap in version \\\"v1\\\" cannot be "
       "handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data "
       "of type string\"\n"},
      {v1 + "kind: ConfigMap\nmetadata: {name: c}\ndata:\n  ratio: 1e3\n",
       "data.ratio is a number"},
      {v1 + "kind: Secret\nmetadata: {name: s}\nstringData:\n  enabled: yes\n",
       "stringData.enabled is a bool to Kubernetes"},
      {v1 + "kind: Secret\nmetadata: {name: s}\ndata:\n  token: 12\n",
       "cannot unmarshal number into Go struct field Secret.data of type []uint8"},
  });
  // Quoted, or a date (a string to go-yaml v2), it is fine.
  ProcessResult quoted = RunProcess({RollcallBinary(), "render"},
                                    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: "
                                    "{port: \"0123\", day: 2001-12-14}\n");
  EXPECT_EQ(quoted.exit_code, 0) << quoted.err;
}

// Every string field rollcall reads is read as the API server decodes it: a bool or
// number there makes it refuse the object, and so does rollcall, naming the field.
TEST(Yaml11Reading, ABoolOrNumberInANameOrKeyIsRefused) {
  ExpectRefused({
      {"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: 0123}\n",
       "rollcall: error: <stdin> (document 1, line 3, column 18): ConfigMap 0123: metadata.name "
       "is a number to Kubernetes, which reads unquoted YAML by YAML 1.1's rules; quote it to "
       "keep it a string. The API server refuses the object: \"ConfigMap in version \\\"v1\\\" "
       "cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field "
       "ConfigMap.metadata.name of type string\"\n"},
      {"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: no}\n",
       "metadata.namespace is a bool to Kubernetes"},
      {"apiVersion: 1.0\nkind: ConfigMap\nmetadata: {name: c}\n", "apiVersion is a number"},
      {Consumer("        - name: on\n          value: x\n"),
       "spec.template.spec.containers.env.name is a bool"},
      {Consumer("        - name: X\n          valueFrom: {secretKeyRef: {name: s, key: 1e3}}\n"),
       "spec.template.spec.containers.env.valueFrom.secretKeyRef.key is a number"},
      {Consumer("        - name: X\n          valueFrom: {configMapKeyRef: {name: y, key: k}}\n"),
       "spec.template.spec.containers.env.valueFrom.configMapKeyRef.name is a bool"},
      {Consumer("        - name: X\n          value: x\n      volumes:\n      - name: v\n"
                "        secret: {secretName: s, items: [{key: 0x1F, path: p}]}\n"),
       "spec.template.spec.volumes.secret.items.key is a number"},
      {Consumer("        - name: X\n          value: x\n      volumes:\n      - name: v\n"
                "        configMap: {name: c, optional: 'true'}\n"),
       "spec.template.spec.volumes.configMap.optional is a string to Kubernetes, not a bool"},
  });
  // Quoted, each is the string it looks like; a mapping that is no object (no
  // apiVersion) is not decoded by the API server, so its fields are not checked.
  EXPECT_EQ(RunProcess({RollcallBinary(), "render"},
                       "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: '0123', namespace: "
                       "\"no\"}\n---\nmetadata: {name: 0123}\n")
                .exit_code,
            0);
}

// A field of the wrong shape makes the API server refuse the object; rollcall used
// to skip the field and read the rest (found by differential fuzzing).
TEST(Yaml11Reading, AFieldOfTheWrongShapeIsRefused) {
  ExpectRefused({
      {Consumer("        - x\n"),
       "rollcall: error: <stdin> (document 1, line 11, column 11): Deployment web: "
       "spec.template.spec.containers.env is a string to Kubernetes, where a mapping belongs. "
       "The API server refuses the object: \"Deployment in version \\\"apps/v1\\\" cannot be "
       "handled as a Deployment: json: cannot unmarshal string into Go struct field "
       "Deployment.spec.template.spec.containers.env\"\n"},
      {Consumer("        - name: X\n          valueFrom: {secretKeyRef: db}\n"),
       "spec.template.spec.containers.env.valueFrom.secretKeyRef is a string to Kubernetes, "
       "where a mapping belongs"},
      {"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n"
       "    spec:\n      containers: {name: a}\n",
       "spec.template.spec.containers is an object to Kubernetes, where a list belongs"},
      {"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n"
       "    spec: [a]\n",
       "spec.template.spec is an array to Kubernetes, where a mapping belongs"},
      {"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, annotations: {a: true}}\n",
       "metadata.annotations is a bool to Kubernetes"},
      {"apiVersion: v1\nkind: ConfigMap\nmetadata: c\n",
       "metadata is a string to Kubernetes, where a mapping belongs"},
      {"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n"
       "    metadata: yes\n    spec: {}\n",
       "spec.template.metadata is a bool to Kubernetes, where a mapping belongs"},
      {"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n"
       "    metadata: {annotations: {a: 1}}\n    spec: {}\n",
       "spec.template.metadata.annotations is a number to Kubernetes"},
  });
  // Null is the zero value to Go: nothing to refuse.
  EXPECT_EQ(RunProcess({RollcallBinary(), "render"},
                       Consumer("        - name: X\n          valueFrom: ~\n"))
                .exit_code,
            0);
}

TEST(Yaml11Reading, AnEnvValueThatIsANumberIsRefused) {
  std::string input = Consumer("        - name: PIN\n          value: 0123\n");
  ProcessResult result = RunProcess({RollcallBinary(), "render"}, input);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(
      result.err,
      "rollcall: error: <stdin> (document 1, line 12, column 18): Deployment web: "
      "spec.template.spec.containers.env.value is a number to Kubernetes, which reads unquoted "
      "YAML by YAML 1.1's rules; quote "
      "it to keep it a string. The API server refuses the object: \"Deployment in version "
      "\\\"apps/v1\\\" cannot be handled as a Deployment: json: cannot unmarshal number into "
      "Go struct field Deployment.spec.template.spec.containers.env.value of type string\"\n");
  EXPECT_EQ(RunProcess({RollcallBinary(), "render"},
                       Consumer("        - name: PIN\n          value: \"0123\"\n"))
                .exit_code,
            0);
}

TEST(Yaml11Reading, BinaryTaggedValuesAreTheBytesGoYamlDecodes) {
  // stringData: !!binary is base64 that go-yaml decodes: the value is "hello".
  std::string tagged =
      "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData:\n"
      "  token: !!binary aGVsbG8=\n" +
      Consumer(
          "        - name: T\n          valueFrom: {secretKeyRef: {name: s, "
          "key: token}}\n");
  std::string plain =
      "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData:\n"
      "  token: hello\n" +
      Consumer(
          "        - name: T\n          valueFrom: {secretKeyRef: {name: s, "
          "key: token}}\n");
  ProcessResult result = RunProcess({RollcallBinary(), "render"}, tagged);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(
      testing::TemplateAnnotation(result.out, "web"),
      testing::TemplateAnnotation(RunProcess({RollcallBinary(), "render"}, plain).out, "web"));
  // data: the decoded bytes must be base64 again, and "hello" is not.
  ProcessResult refused = RunProcess(
      {RollcallBinary(), "render"},
      "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata:\n  raw: !!binary aGVsbG8=\n");
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_THAT(refused.err, HasSubstr("data.raw is not valid base64"));
}

std::string MergedSecret(const std::string& password) {
  return "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\nstringData:\n  <<: &base {user: app, "
         "password: " +
         password + "}\n  host: db\n";
}

TEST(MergeKeys, ASecretsMergedValuesAreHashed) {
  std::string consumer = Consumer(
      "        - name: P\n          valueFrom: {secretKeyRef: {name: db, key: password}}\n");
  ProcessResult one = RunProcess({RollcallBinary(), "render"}, MergedSecret("one") + consumer);
  ProcessResult two = RunProcess({RollcallBinary(), "render"}, MergedSecret("two") + consumer);
  EXPECT_EQ(one.exit_code, 0) << one.err;
  EXPECT_THAT(one.err, HasSubstr("hashed 1"));
  // Was refused ("stringData.<< must be a string"); the merged password is what the
  // process reads, so changing it changes the hash.
  EXPECT_NE(testing::TemplateAnnotation(one.out, "web"),
            testing::TemplateAnnotation(two.out, "web"));
}

TEST(MergeKeys, AContainerBuiltByAMergeHasItsReferences) {
  std::string input =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n"
      "    spec:\n      containers:\n      - &base\n        name: base\n        env:\n"
      "        - name: P\n          valueFrom: {secretKeyRef: {name: db, key: password}}\n"
      "      - <<: *base\n        name: worker\n";
  ProcessResult result = RunProcess({RollcallBinary(), "lint", "-"}, input);
  EXPECT_THAT(result.out, HasSubstr("in container base"));
  EXPECT_THAT(result.out, HasSubstr("in container worker"));
}

TEST(MergeKeys, AMergeKeyWhereRenderWritesIsRefused) {
  std::string input =
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n---\n"
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n"
      "    <<: {metadata: {labels: {app: web}}}\n"
      "    spec:\n      containers: [{name: app, envFrom: [{configMapRef: {name: c}}]}]\n";
  ProcessResult result = RunProcess({RollcallBinary(), "render"}, input);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_THAT(
      result.err,
      HasSubstr("(document 2, line 11, column 5): Deployment web: pod template holds a merge "
                "key (<<); rollcall cannot add its annotations there without changing what "
                "Kubernetes reads: write the merged entries out\n"));
}

TEST(Lists, ASecretInsideAListIsASource) {
  std::string listed =
      "apiVersion: v1\nkind: SecretList\nitems:\n- apiVersion: v1\n  kind: Secret\n"
      "  metadata: {name: db}\n  stringData: {password: one}\n";
  std::string consumer = Consumer(
      "        - name: P\n          valueFrom: {secretKeyRef: {name: db, key: password}}\n");
  ProcessResult result = RunProcess({RollcallBinary(), "render"}, listed + consumer);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.err, HasSubstr("hashed 1"));
  std::string changed = listed;
  changed.replace(changed.find("one"), 3, "two");
  EXPECT_NE(testing::TemplateAnnotation(result.out, "web"),
            testing::TemplateAnnotation(
                RunProcess({RollcallBinary(), "render"}, changed + consumer).out, "web"));
}

// kubectl and Helm apply every item of a List: a workload there is read and its pod
// template annotated in place, as a document of its own would be.
TEST(Lists, AWorkloadInsideAListIsAnnotated) {
  std::string secret = "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\nstringData: {p: one}\n";
  std::string list =
      "---\napiVersion: v1\nkind: List\nitems:\n- apiVersion: apps/v1\n  kind: Deployment\n"
      "  metadata: {name: web}\n  spec:\n    template:\n      spec:\n"
      "        containers: [{name: a, envFrom: [{secretRef: {name: db}}]}]\n"
      "- apiVersion: apps/v1\n  kind: StatefulSet\n  metadata: {name: db, namespace: shop}\n"
      "  spec:\n    template:\n      metadata: {labels: {app: db}}\n      spec:\n"
      "        containers: [{name: a, envFrom: [{secretRef: {name: db}}]}]\n";
  ProcessResult result = RunProcess({RollcallBinary(), "render"}, secret + list);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  // Each item's template gets its annotations where it stands; the StatefulSet in
  // shop reads a Secret the input does not hold, and is left as it was.
  const std::string hash =
      "sha256:caa6ef5c6104d4a39c3a8555f17aa406a4ef5dac5b74ab31d816747340804c25";
  std::string expected = list;
  expected.replace(expected.find("    template:\n      spec:"), 0,
                   "    template:\n      metadata:\n        annotations:\n"
                   "          rollcall.dev/config-hash: \"" +
                       hash +
                       "\"\n"
                       "          rollcall.dev/config-sources: \"secret/db\"\n");
  expected.erase(expected.find("    template:\n      spec:"),
                 std::string("    template:\n").size());
  EXPECT_EQ(result.out, secret + expected);
  EXPECT_EQ(result.err,
            "rollcall: <stdin>:23:61: error[unresolved-reference] "
            "StatefulSet shop/db reads secret/db via envFrom in container a, but Secret shop/db is "
            "not in the input: nothing makes a change to it reach the process; did you mean Secret "
            "default/db, which the input defines?\n"
            "rollcall: references: 2 — hashed 1, waived 0, pending 0, runtime 0, unresolved 1\n"
            "rollcall: rollout: 2 new\n");
  std::string changed = secret;
  changed.replace(changed.find("one"), 3, "two");
  EXPECT_NE(RunProcess({RollcallBinary(), "render"}, changed + list).out, result.out);
  // lint and consumers see them too.
  EXPECT_THAT(RunProcess({RollcallBinary(), "lint", "-"}, secret + list).out,
              HasSubstr("references: 2 — hashed 1, waived 0, pending 0, runtime 0, unresolved 1"));
  EXPECT_EQ(RunProcess({RollcallBinary(), "consumers", "db", "-"}, secret + list).out,
            "deployment/default/web container a reads envFrom: hashed (content known)\n"
            "statefulset/shop/db container a reads envFrom: unresolved (Secret shop/db is not in "
            "the input)\n");
}

// Every item is decoded as an object of its own: one the API server refuses makes
// the stream refused, whatever its kind (found by differential fuzzing).
TEST(Lists, AnItemTheApiServerRefusesIsRefused) {
  std::string input =
      "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Service\n"
      "  metadata: {name: 12}\n";
  ProcessResult result = RunProcess({RollcallBinary(), "render"}, input);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_THAT(result.err, HasSubstr("(document 1, line 6, column 20): List (unnamed): "
                                    "items.metadata.name is a number to Kubernetes"));
  EXPECT_EQ(RunProcess({RollcallBinary(), "render"}, "apiVersion: v1\nkind: List\nitems: [1]\n")
                .exit_code,
            2);
  // An item without its kind: kubectl refuses it ("Object 'Kind' is missing").
  ProcessResult no_kind =
      RunProcess({RollcallBinary(), "lint", "-"},
                 "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  metadata: {name: c}\n");
  EXPECT_EQ(no_kind.exit_code, 2);
  EXPECT_EQ(no_kind.err,
            "rollcall: error: <stdin>:4:3: List (unnamed): Object 'kind' is missing: an item of a "
            "List without its kind (kubectl gives it the List's only when both are missing and "
            "the List's kind names its items, as SecretList does), which kubectl and Helm refuse "
            "to apply\n");
  // Without both, under a plain List: the kind it would take is "".
  EXPECT_EQ(RunProcess({RollcallBinary(), "render"},
                       "apiVersion: v1\nkind: List\nitems:\n- metadata: {name: c}\n")
                .exit_code,
            2);
}

const char kReadsDb[] =
    "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n"
    "    spec:\n      containers:\n      - name: app\n        envFrom: [{secretRef: {name: db}}]\n";

// apimachinery's List decoding gives the items of a typed list written without
// apiVersion and kind (as the API server writes them) the List's: a SecretList's
// items are Secrets, hashed as such.
TEST(Lists, ATypedListGivesItsItemsTheirType) {
  ProcessResult typed =
      RunProcess({RollcallBinary(), "render"},
                 std::string("apiVersion: v1\nkind: SecretList\nitems:\n- metadata: {name: db}\n"
                             "  stringData: {password: s3cret}\n") +
                     kReadsDb);
  EXPECT_EQ(typed.exit_code, 0) << typed.err;
  EXPECT_THAT(typed.out, HasSubstr("rollcall.dev/config-sources: \"secret/db\""));
}

// Any object with an `items` field is a List to kubectl, `items: null` one of
// nothing: none of its own fields is applied, so such a "Secret" is no source.
TEST(Lists, AnObjectWithItemsNullIsAListOfNothing) {
  for (const char* items : {"items: null\n", "items: []\n", "items:\n"}) {
    const std::string input = std::string(
                                  "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\n"
                                  "stringData: {password: s3cret}\n") +
                              items + kReadsDb;
    ProcessResult result = RunProcess({RollcallBinary(), "render"}, input);
    EXPECT_EQ(result.exit_code, 0) << items;
    EXPECT_EQ(result.out, input) << "nothing hashed: " << items;
    EXPECT_THAT(result.err, HasSubstr("but Secret default/db is not in the input")) << items;
  }
}

TEST(Lists, AListInsideAListIsRefused) {
  ProcessResult result =
      RunProcess({RollcallBinary(), "render"},
                 "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: List\n"
                 "  items:\n  - {apiVersion: v1, kind: Secret, metadata: {name: db}}\n");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_THAT(result.err, HasSubstr("a List inside a List, which kubectl and Helm refuse to apply "
                                    "(no matches for kind \"List\" in version \"v1\")"));
}

TEST(Lists, AJobInsideAListIsRefused) {
  std::string input =
      "apiVersion: v1\nkind: List\nitems:\n- apiVersion: batch/v1\n  kind: Job\n"
      "  metadata: {name: migrate}\n  spec: {template: {spec: {restartPolicy: Never, "
      "containers: [{name: a, envFrom: [{secretRef: {name: db}}]}]}}}\n";
  for (const char* command : {"render", "lint"}) {
    std::vector<std::string> argv = {RollcallBinary(), command};
    if (std::string(command) == "lint") argv.push_back("-");
    ProcessResult result = RunProcess(argv, input);
    EXPECT_EQ(result.exit_code, 2) << command;
    if (std::string(command) == "render") {
      EXPECT_EQ(result.out, "");
    }
    if (std::string(command) == "lint") {
      EXPECT_THAT(result.out,
                  ::testing::StartsWith("<stdin>:4:3: error[input-error] a Job inside "));
    }
    EXPECT_EQ(result.err,
              std::string("rollcall: error: ") +
                  (std::string(command) == "lint" ? "<stdin>:4:3"
                                                  : "<stdin> (document 1, line 4, column 3)") +
                  ": a Job inside a List: kubectl and Helm apply every item of a List, but "
                  "rollcall handles Jobs only in documents of their own; write the List's items "
                  "as documents (separated by ---)\n")
        << command;
  }
}

// kubectl and Helm refuse a document with a kind and no apiVersion: render refuses
// it, lint notes it (a kustomization may be written so).
TEST(HalfObjects, RenderRefusesWhatLintNotes) {
  std::string input = "kind: Deployment\nmetadata: {name: x}\n";
  ProcessResult render = RunProcess({RollcallBinary(), "render"}, input);
  EXPECT_EQ(render.exit_code, 2);
  EXPECT_EQ(render.out, "");
  EXPECT_EQ(render.err,
            "rollcall: error: <stdin> (document 1, line 1, column 1): Object 'apiVersion' is "
            "missing: a document with a kind and no apiVersion, which kubectl and Helm refuse to "
            "apply; add it, or take this document out of the stream\n");
  ProcessResult lint = RunProcess({RollcallBinary(), "lint", "-"}, input);
  EXPECT_EQ(lint.exit_code, 0) << lint.err;
  EXPECT_THAT(lint.out, HasSubstr("<stdin>:1:1: info[not-an-object] a mapping with a kind and no "
                                  "apiVersion is not a Kubernetes object, and kubectl and Helm "
                                  "refuse to apply it (a kustomization?); skipped\n"));
}

// Found by differential fuzzing: CRLF line breaks with the last LF missing leave a
// CR at the very end, a line break to kubectl; rollcall refused the stream.
TEST(LineBreaks, ACarriageReturnEndingTheStreamEndsItsLastLine) {
  std::string input =
      "apiVersion: v1\r\nkind: Secret\r\nmetadata: {name: s}\r\nstringData: {p: \"x\"}\r";
  ProcessResult result = RunProcess({RollcallBinary(), "render"}, input);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, input);
}

// What follows a "..." line, or a directive that ends the document, up to the next
// "---", is never read by Kubernetes: it is passed through and not checked (found by
// differential fuzzing: rollcall refused streams kubectl reads).
TEST(DocumentEnd, WhatFollowsTheEndIsNotRead) {
  for (const char* end : {"...\n", "%YAML 1.1\n"}) {
    std::string input = std::string("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n") +
                        "data: {a: b}\n" + end + ": [ {\n\tnot: yaml\n---\napiVersion: v1\n" +
                        "kind: ConfigMap\nmetadata: {name: d}\n";
    ProcessResult result = RunProcess({RollcallBinary(), "render"}, input);
    EXPECT_EQ(result.exit_code, 0) << end << result.err;
    EXPECT_EQ(result.out, input) << end;
  }
}

TEST(WhatRenderWrites, CharactersGoYamlWouldNotReadBackAreEscaped) {
  // A key with DEL lands in rollcall.dev/config-sources; go-yaml refused the output
  // when it was written raw. U+0085 in a Job's name is a line break to go-yaml.
  std::string input =
      "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {\"a\\x7fb\": x}\n---\n"
      "apiVersion: batch/v1\nkind: Job\nmetadata: {name: \"wor\\N ker\"}\nspec:\n  template:\n"
      "    spec:\n      restartPolicy: Never\n      containers:\n      - name: a\n"
      "        env:\n        - name: X\n          valueFrom: {secretKeyRef: {name: s, key: "
      "\"a\\x7fb\"}}\n";
  ProcessResult result = RunProcess({RollcallBinary(), "render"}, input);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("rollcall.dev/config-sources: \"secret/s[a\\u007Fb]\""));
  EXPECT_THAT(result.out,
              HasSubstr("\"rollcall.dev/job-name\": \"wor\\u0085 ker\"}, name: \"wor\\u0085 ker-"));
  EXPECT_THAT(result.out, Not(HasSubstr("\x7f")));
  EXPECT_THAT(result.out, Not(HasSubstr("\xc2\x85")));
}

// go-yaml v2 reads a ':' ending a plain scalar in a flow collection as part of it
// (`{red: v:}` is "v:"), which libyaml 0.2.5 refuses: rollcall reads it as go-yaml does.
TEST(FlowScalars, AColonEndingAPlainValueInAFlowMappingIsPartOfIt) {
  auto hash_of = [](const std::string& data) {
    ProcessResult result = RunProcess(
        {RollcallBinary(), "render"},
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: " + data + "\n" +
            Consumer("        - name: X\n          valueFrom: {configMapKeyRef: {name: c, key: "
                     "red}}\n"));
    EXPECT_EQ(result.exit_code, 0) << data << result.err;
    const std::size_t at = result.out.find("sha256:");
    return at == std::string::npos ? std::string() : result.out.substr(at, 71);
  };
  const std::string quoted = hash_of("{red: \"v:\", blue: \"a:b:\"}");
  EXPECT_FALSE(quoted.empty());
  EXPECT_EQ(hash_of("{red: v:, blue: a:b:}"), quoted);
  EXPECT_NE(hash_of("{red: v, blue: \"a:b:\"}"), quoted);
  // Over lines, its value is not its text: refused, saying that Kubernetes reads it.
  ExpectRefused({{"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {red: v\n  w:}\n",
                  "Kubernetes reads the ':' as part of the value"}});
}

// What the API server refuses of a Secret or ConfigMap itself, or of a pod
// template's metadata, found by the differential oracle (tests/oracle/regressions).
TEST(TypedDecode, SourcesAndTemplateMetadataTheApiServerRefuses) {
  ExpectRefused({
      {"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\nimmutable: 'true'\ndata: {a: b}\n",
       "immutable is a string to Kubernetes"},
      {"apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nimmutable: 'true'\nstringData: {a: b}\n",
       "immutable is a string to Kubernetes"},
      {"apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ntype: 3\nstringData: {a: b}\n",
       "type is a number to Kubernetes"},
      {"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\nbinaryData: {a: "
       "Yg==}\n",
       "ConfigMap c: data[a]: Invalid value: \"a\": duplicate of key present in binaryData"},
      {"apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {a: b}\n" +
           Consumer("        - name: X\n          valueFrom: {secretKeyRef: {name: s, key: a}}\n") +
           "    metadata: {labels: {canary: true}}\n",
       "spec.template.metadata.labels is a bool to Kubernetes"},
  });
}

}  // namespace
}  // namespace rollcall
