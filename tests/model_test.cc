#include "rollcall/model.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "rollcall/facts.h"
#include "rollcall/input_error.h"

namespace rollcall {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

struct Parsed {
  Stream stream;
  std::vector<Document> documents;
  explicit Parsed(const std::string& text)
      : stream(text, "<stdin>"), documents(ParseStream(stream, Limits{})) {}
};

constexpr const char* kPodTemplate = R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: prod
spec:
  template:
    spec:
      initContainers:
      - name: init
        env:
        - name: A
          valueFrom:
            configMapKeyRef: {name: cm, key: a, optional: true}
      containers:
      - name: app
        env:
        - name: PW
          valueFrom:
            secretKeyRef:
              name: db
              key: password
        envFrom:
        - secretRef: {name: all}
        - configMapRef: {name: cm2}
        volumeMounts:
        - {name: certs, mountPath: /certs}
        - {name: one, mountPath: /one/file, subPath: file}
      ephemeralContainers:
      - name: debug
        envFrom: [{secretRef: {name: dbg}}]
      imagePullSecrets: [{name: pull}]
      volumes:
      - name: certs
        secret: {secretName: tls, items: [{key: tls.crt, path: c}, {key: tls.key, path: k}]}
      - name: one
        configMap: {name: files}
      - name: proj
        projected:
          sources:
          - secret: {name: p1, items: [{key: x, path: x}]}
          - configMap: {name: p2}
          - serviceAccountToken: {path: token}
)";

TEST(ExtractConsumer, FindsEveryReference) {
  Parsed parsed(kPodTemplate);
  std::optional<Consumer> consumer = ExtractConsumer(parsed.documents[0], "default");
  ASSERT_TRUE(consumer.has_value());
  EXPECT_EQ(consumer->Describe(), "Deployment prod/web");
  EXPECT_EQ(consumer->role, ConsumerRole::kWorkload);
  std::vector<std::string> seen;
  for (const Reference& ref : consumer->references) {
    std::string keys = "*";
    if (ref.keys) {
      keys.clear();
      for (const Name& key : *ref.keys) keys += key + ";";
    }
    std::string mounts;
    for (const VolumeMount& mount : consumer->Mounts(ref)) {
      mounts += mount.container + (mount.sub_path ? "(subPath)" : "");
    }
    seen.push_back(ref.source().Describe() + " " + ReadViaName(ref.via) + " " + keys +
                   (ref.optional ? " optional" : "") + " " + ref.container() + ref.volume() + " " +
                   mounts + " line " + std::to_string(consumer->Locate(ref).line));
  }
  EXPECT_THAT(seen, ElementsAre("ConfigMap prod/cm env a; optional init  line 14",
                                "Secret prod/db env password; app  line 21",
                                "Secret prod/all envFrom * app  line 24",
                                "ConfigMap prod/cm2 envFrom * app  line 25",
                                "Secret prod/dbg envFrom * debug  line 31",
                                "Secret prod/tls volume tls.crt;tls.key; certs app line 35",
                                "ConfigMap prod/files volume * one app(subPath) line 37",
                                "Secret prod/p1 projected volume x; proj  line 41",
                                "ConfigMap prod/p2 projected volume * proj  line 42"));
}

TEST(ExtractConsumer, ConsumerKindsAndRoles) {
  Parsed parsed(R"(apiVersion: batch/v1
kind: CronJob
metadata: {name: c}
spec: {jobTemplate: {spec: {template: {spec: {containers: [{name: x, envFrom: [{secretRef: {name: s}}]}]}}}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: hook, annotations: {helm.sh/hook: pre-install}}
spec: {template: {spec: {containers: []}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: argo-hook, annotations: {argocd.argoproj.io/hook: PreSync}}
spec: {template: {spec: {containers: []}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: plain}
spec: {template: {spec: {containers: []}}}
---
apiVersion: v1
kind: Pod
metadata: {name: bare}
spec: {containers: [{name: x, envFrom: [{secretRef: {name: s}}]}]}
---
apiVersion: v1
kind: PodTemplate
metadata: {name: pt}
template: {spec: {containers: []}}
---
apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata: {name: r}
spec: {template: {spec: {containers: []}}}
---
apiVersion: example.com/v1
kind: Deployment
metadata: {name: not-apps}
spec: {template: {spec: {containers: []}}}
)");
  std::vector<std::string> seen;
  for (const Document& doc : parsed.documents) {
    std::optional<Consumer> consumer = ExtractConsumer(doc, "ns");
    if (!consumer) {
      seen.push_back("none:" + doc.name());
      continue;
    }
    seen.push_back(consumer->Describe() + ":" + std::to_string(static_cast<int>(consumer->role)) +
                   ":" + std::to_string(consumer->references.size()));
  }
  EXPECT_THAT(seen, ElementsAre("CronJob ns/c:0:1", "Job ns/hook:1:0", "Job ns/argo-hook:1:0",
                                "Job ns/plain:2:0", "Pod ns/bare:3:1", "PodTemplate ns/pt:0:0",
                                "Rollout ns/r:0:0", "none:not-apps"));
}

TEST(ExtractSource, DecodesDataAndMergesStringData) {
  Parsed parsed(R"(apiVersion: v1
kind: Secret
metadata: {name: s}
data: {a: aHVudGVyMg==, b: eA==}
stringData: {b: "over", c: "0123"}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c, namespace: other}
data: {flag: "true", num: "5", on: x}
binaryData: {bin: AP8=}
)");
  std::optional<Source> secret = ExtractSource(parsed.documents[0], "ns");
  ASSERT_TRUE(secret.has_value());
  EXPECT_EQ(secret->id.Describe(), "Secret ns/s");
  EXPECT_EQ(secret->entries,
            (std::map<std::string, std::string>{{"a", "hunter2"}, {"b", "over"}, {"c", "0123"}}));
  std::optional<Source> config_map = ExtractSource(parsed.documents[1], "ns");
  ASSERT_TRUE(config_map.has_value());
  EXPECT_EQ(config_map->id.Describe(), "ConfigMap other/c");
  EXPECT_EQ(
      config_map->entries,
      (std::map<std::string, std::string>{
          {"bin", std::string("\x00\xff", 2)}, {"flag", "true"}, {"num", "5"}, {"true", "x"}}));
}

TEST(ExtractSource, StringDataInterleavedWithDataComesOutSortedAndOverData) {
  Parsed parsed(R"(apiVersion: v1
kind: Secret
metadata: {name: s}
data: {e: ZQ==, c: Yw==, a: YQ==}
stringData: {d: "D", c: "C", b: "B", f: ""}
)");
  std::optional<Source> secret = ExtractSource(parsed.documents[0], "ns");
  ASSERT_TRUE(secret.has_value());
  EXPECT_EQ(secret->entries,
            (std::map<std::string, std::string>{
                {"a", "a"}, {"b", "B"}, {"c", "C"}, {"d", "D"}, {"e", "e"}, {"f", ""}}));
}

TEST(ExtractSource, AValueStringDataReplacesCountsOnceTowardsTheMebibyte) {
  // 700 KB in data ("xxx" is "eHh4"), replaced by 700 KB in stringData: the object
  // holds 700 KB, not the 1.4 MB the API server would refuse.
  std::string encoded;
  for (int i = 0; i < 233'333; ++i) encoded += "eHh4";
  Parsed parsed("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata:\n  a: " + encoded +
                "\nstringData:\n  a: " + std::string(700'000, 'y') + "\n");
  std::optional<Source> secret = ExtractSource(parsed.documents[0], "ns");
  ASSERT_TRUE(secret.has_value());
  EXPECT_EQ(secret->entries.at("a"), std::string(700'000, 'y'));
}

// Each message names the object, the field and the key, never the value.
TEST(ExtractSource, EntriesThatAreNotStringsNameTheirObjectFieldAndKey) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c : {
           Case{"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: ns}\n"
                "data:\n  nested: {a: b}\n",
                "<stdin> (document 1, line 5, column 11): ConfigMap ns/c: data.nested must be a "
                "string, not a mapping"},
           Case{"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: ns}\n"
                "data:\n  list: [1]\n",
                "<stdin> (document 1, line 5, column 9): ConfigMap ns/c: data.list must be a "
                "string, not a sequence"},
       }) {
    Parsed parsed(c.text);
    try {
      ExtractSource(parsed.documents[0], "default");
      ADD_FAILURE() << "expected InputError for " << c.text;
    } catch (const InputError& e) {
      EXPECT_EQ(e.Describe(), c.message);
    }
  }
}

TEST(ExtractSource, InvalidBase64NamesObjectAndKeyButNotValue) {
  Parsed parsed(
      "apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: ns}\n"
      "data:\n  token: not-base64-sup3rsecret\n");
  try {
    ExtractSource(parsed.documents[0], "default");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(
        e.Describe(),
        "<stdin> (document 1, line 5, column 10): Secret ns/s: data.token is not valid base64");
    EXPECT_THAT(e.Describe(), Not(HasSubstr("sup3rsecret")));
  }
}

TEST(ExtractSource, AliasedValuesReadAsWrittenOut) {
  // What the API server stores (and the process reads) is the expanded value.
  Parsed parsed(
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"
      "data:\n  a: &v shared\n  b: *v\n");
  std::optional<Source> source = ExtractSource(parsed.documents[0], "ns");
  ASSERT_TRUE(source.has_value());
  EXPECT_EQ(source->entries,
            (std::map<std::string, std::string>{{"a", "shared"}, {"b", "shared"}}));
}

TEST(ExtractSource, ValuesOverOneMebibyteAreRefusedAsTheApiServerDoes) {
  // One 600 KB value, aliased twice: 1.8 MB once expanded, from 600 KB of text.
  Parsed parsed("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  a: &v " +
                std::string(600'000, 'x') + "\n  b: *v\n  c: *v\n");
  try {
    ExtractSource(parsed.documents[0], "ns");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.Describe(),
              "<stdin> (document 1, line 1, column 1): ConfigMap ns/c: its values total more "
              "than 1048576 bytes, which the API server refuses in a ConfigMap");
  }
  Parsed exactly("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData:\n  a: " +
                 std::string(1 << 20, 'x') + "\n");
  EXPECT_EQ(ExtractSource(exactly.documents[0], "ns")->entries.at("a").size(), 1u << 20);
}

TEST(ExtractSource, NonStringValueIsAnError) {
  Parsed parsed("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  k: {a: 1}\n");
  EXPECT_THROW(ExtractSource(parsed.documents[0], "default"), InputError);
}

TEST(ResolveReads, MergesKeysPerSourceAndListsUnresolved) {
  Parsed parsed(R"(apiVersion: v1
kind: Secret
metadata: {name: s}
stringData: {a: "1", b: "2"}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  template:
    spec:
      containers:
      - name: x
        env:
        - {name: A, valueFrom: {secretKeyRef: {name: s, key: a}}}
        - {name: B, valueFrom: {secretKeyRef: {name: s, key: b}}}
        - {name: C, valueFrom: {secretKeyRef: {name: gone, key: c}}}
)");
  Model model = BuildModel(parsed.documents, {}, "default");
  ASSERT_EQ(model.consumers.size(), 1u);
  std::vector<const Reference*> unresolved;
  std::vector<SourceRead> reads = ResolveReads(model.consumers[0], model, &unresolved);
  ASSERT_EQ(reads.size(), 1u);
  EXPECT_EQ(reads[0].source->id.name, "s");
  EXPECT_EQ(reads[0].keys, (std::set<std::string>{"a", "b"}));
  ASSERT_EQ(unresolved.size(), 1u);
  EXPECT_EQ(unresolved[0]->source().name, "gone");
}

TEST(BuildModel, TakesEachConsumerWhereItsFactsMadeIt) {
  // The model holds the facts' consumers themselves (owned_list.h), not copies: a
  // large stream's consumers are never in memory twice.
  Parsed parsed(R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: a}
spec: {template: {spec: {containers: [{name: c, envFrom: [{secretRef: {name: s}}]}]}}}
---
apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: b}
  spec: {template: {spec: {containers: [{name: c, envFrom: [{secretRef: {name: s}}]}]}}}
)");
  FactOptions options;
  ReadMissingFacts(parsed.documents, options);
  const Consumer* made = parsed.documents[0].consumer();
  ASSERT_NE(made, nullptr);
  Model model = BuildModel(parsed.documents, {}, "default");
  ASSERT_EQ(model.consumers.size(), 2u);
  EXPECT_EQ(&model.consumers[0], made);
  std::vector<std::string> names;
  for (const Consumer& consumer : model.consumers) {
    names.push_back(consumer.name().str() + "@" + consumer.document->Describe());
  }
  EXPECT_THAT(names, ElementsAre("a@Deployment a", "b@List (unnamed)"));
  // Each says its own object: the document's, or the List item's, read where it is.
  EXPECT_EQ(model.consumers[0].Describe(), "Deployment default/a");
  EXPECT_EQ(model.consumers[0].Where().line, 1u);
  EXPECT_FALSE(model.consumers[0].listed());
  EXPECT_EQ(model.consumers[1].Describe(), "Deployment default/b");
  EXPECT_EQ(model.consumers[1].api_version(), "apps/v1");
  EXPECT_EQ(model.consumers[1].Where().line, 9u);
  EXPECT_TRUE(model.consumers[1].listed());
}

// A List item whose references need notes of their own (the mounts of a volume it
// reads, restart watches) keeps its type and name in them: `kubectl get pods -o yaml`
// lists pods that mount kube-api-access and read a Secret, and roll leaves those a
// controller owns to their controller. Found on a real API server (tests/cluster/
// roll.sh): every such pod was "list/default/", not its own kind and name.
TEST(BuildModel, ListItemWithAMountedVolumeKeepsItsKindAndName) {
  Parsed parsed(R"(apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: api-7f4b9c6d2-x1
    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: api-7f4b9c6d2, uid: u, controller: true}]
  spec:
    containers:
    - name: c
      env: [{name: P, valueFrom: {secretKeyRef: {name: db, key: password}}}]
      volumeMounts: [{name: settings, mountPath: /etc/settings}]
    volumes: [{name: settings, configMap: {name: settings}}]
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
    annotations: {reloader.stakater.com/auto: "true"}
  spec: {template: {spec: {containers: [{name: c, envFrom: [{secretRef: {name: db}}]}]}}}
)");
  Model model = BuildModel(parsed.documents, {}, "default");
  ASSERT_EQ(model.consumers.size(), 2u);
  EXPECT_TRUE(model.consumers[0].listed());
  EXPECT_EQ(model.consumers[0].Describe(), "Pod default/api-7f4b9c6d2-x1");
  EXPECT_EQ(model.consumers[0].Mounts(model.consumers[0].references[1]).size(), 1u);
  EXPECT_TRUE(model.consumers[1].listed());
  EXPECT_EQ(model.consumers[1].Describe(), "Deployment default/web");
  ASSERT_NE(model.consumers[1].notes, nullptr);
  EXPECT_EQ(model.consumers[1].notes->restart_watches.size(), 1u);
}

// A consumer holds no handle of its pod template: while its document keeps the
// tree, the template is found again where its capture starts, each item of a List
// its own, a bare Pod the object itself.
TEST(BuildModel, FindsEachPodTemplateWhereItsCaptureStarts) {
  Parsed parsed(R"(apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: first}
  spec: {template: {metadata: {labels: {n: "1"}}, spec: {containers: [{name: c}]}}}
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: second}
  spec:
    template:
      metadata: {labels: {n: "2"}}
      spec: {containers: [{name: c}]}
---
apiVersion: v1
kind: Pod
metadata: {name: bare, labels: {n: "3"}}
spec: {containers: [{name: c}]}
)");
  Model model = BuildModel(parsed.documents, {}, "default");
  ASSERT_EQ(model.consumers.size(), 3u);
  std::vector<std::string> labels;
  for (const Consumer& consumer : model.consumers) {
    YamlNode n = Child(Child(Child(consumer.pod_template(), "metadata"), "labels"), "n");
    labels.push_back(consumer.name().str() + "=" + (n.IsScalar() ? std::string(n.Scalar()) : "?"));
  }
  EXPECT_THAT(labels, ElementsAre("first=1", "second=2", "bare=3"));
  parsed.documents[1].DropTree();
  EXPECT_FALSE(model.consumers[2].pod_template().IsDefined());
}

}  // namespace
}  // namespace rollcall
