// Hash semantics: what moves a consumer's config hash and what must not.
#include "rollcall/render.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "rollcall/input_error.h"
#include "rollcall/jobs.h"
#include "test_support.h"

namespace rollcall {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::RenderText;
using testing::TemplateAnnotation;

std::string SecretDoc(const std::string& body, const std::string& name = "db",
                      const std::string& name_space = "") {
  std::string ns = name_space.empty() ? "" : "\n  namespace: " + name_space;
  return "apiVersion: v1\nkind: Secret\nmetadata:\n  name: " + name + ns + "\n" + body + "---\n";
}

constexpr const char* kEnvConsumer = R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      containers:
      - name: app
        env:
        - name: PW
          valueFrom: {secretKeyRef: {name: db, key: password}}
)";

std::string HashOf(const std::string& stream, const std::string& consumer = "web") {
  return TemplateAnnotation(RenderText(stream).output, consumer);
}

TEST(RenderHash, IsSha256OfTheCanonicalEncoding) {
  std::string hash = HashOf(SecretDoc("stringData: {password: x}\n") + kEnvConsumer);
  EXPECT_THAT(hash, ::testing::MatchesRegex("sha256:[0-9a-f]{64}"));
}

TEST(RenderHash, ChangesWithTheValueRead) {
  EXPECT_NE(HashOf(SecretDoc("stringData: {password: one}\n") + kEnvConsumer),
            HashOf(SecretDoc("stringData: {password: two}\n") + kEnvConsumer));
}

TEST(RenderHash, UnusedKeyDoesNotMoveIt) {
  EXPECT_EQ(HashOf(SecretDoc("stringData: {password: x, other: a}\n") + kEnvConsumer),
            HashOf(SecretDoc("stringData: {password: x, other: b}\n") + kEnvConsumer));
}

TEST(RenderHash, DataAndStringDataHashTheSame) {
  EXPECT_EQ(HashOf(SecretDoc("data: {password: aHVudGVyMg==}\n") + kEnvConsumer),
            HashOf(SecretDoc("stringData: {password: hunter2}\n") + kEnvConsumer));
}

TEST(RenderHash, StringDataOverridesData) {
  EXPECT_EQ(
      HashOf(SecretDoc("data: {password: b2xk}\nstringData: {password: new}\n") + kEnvConsumer),
      HashOf(SecretDoc("stringData: {password: new}\n") + kEnvConsumer));
}

TEST(RenderHash, MetadataChangeDoesNotMoveIt) {
  std::string plain = SecretDoc("stringData: {password: x}\n") + kEnvConsumer;
  std::string labelled =
      "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  labels: {a: b}\n"
      "  annotations: {note: changed}\ntype: Opaque\nstringData: {password: x}\n---\n" +
      std::string(kEnvConsumer);
  EXPECT_EQ(HashOf(plain), HashOf(labelled));
}

TEST(RenderHash, AbsentKeyThenAddedMovesIt) {
  EXPECT_NE(HashOf(SecretDoc("stringData: {other: x}\n") + kEnvConsumer),
            HashOf(SecretDoc("stringData: {other: x, password: yz}\n") + kEnvConsumer));
}

TEST(RenderHash, ResolvesOnlyWithinTheConsumersNamespace) {
  std::string consumers = R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: a, namespace: team-a}
spec: {template: {spec: {containers: [{name: x, envFrom: [{secretRef: {name: db}}]}]}}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: b, namespace: team-b}
spec: {template: {spec: {containers: [{name: x, envFrom: [{secretRef: {name: db}}]}]}}}
)";
  std::string stream = SecretDoc("stringData: {k: a-value}\n", "db", "team-a") +
                       SecretDoc("stringData: {k: b-value}\n", "db", "team-b") + consumers;
  std::string out = RenderText(stream).output;
  EXPECT_NE(TemplateAnnotation(out, "a"), "");
  EXPECT_NE(TemplateAnnotation(out, "b"), "");
  EXPECT_NE(TemplateAnnotation(out, "a"), TemplateAnnotation(out, "b"));
  // Only team-b's Secret changes: only b's hash moves.
  std::string changed = SecretDoc("stringData: {k: a-value}\n", "db", "team-a") +
                        SecretDoc("stringData: {k: changed}\n", "db", "team-b") + consumers;
  std::string out2 = RenderText(changed).output;
  EXPECT_EQ(TemplateAnnotation(out, "a"), TemplateAnnotation(out2, "a"));
  EXPECT_NE(TemplateAnnotation(out, "b"), TemplateAnnotation(out2, "b"));
}

TEST(RenderHash, DefaultNamespaceComesFromOptions) {
  std::string stream = SecretDoc("stringData: {password: x}\n", "db", "prod") + kEnvConsumer;
  EXPECT_EQ(TemplateAnnotation(RenderText(stream).output, "web"), "");
  RenderOptions options;
  options.default_namespace = "prod";
  EXPECT_NE(TemplateAnnotation(RenderText(stream, options).output, "web"), "");
}

constexpr const char* kProjectedConsumer = R"(apiVersion: apps/v1
kind: StatefulSet
metadata: {name: st}
spec:
  template:
    spec:
      initContainers:
      - name: init
        envFrom: [{configMapRef: {name: settings}}]
      containers: [{name: app}]
      volumes:
      - name: p
        projected:
          sources:
          - secret: {name: db, items: [{key: password, path: pw}]}
)";

TEST(RenderHash, ProjectedItemsAndInitContainers) {
  auto stream = [](const std::string& password, const std::string& other,
                   const std::string& setting) {
    return SecretDoc("stringData: {password: " + password + ", other: " + other + "}\n") +
           "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {s: " + setting +
           "}\n---\n" + kProjectedConsumer;
  };
  std::string base = HashOf(stream("p", "o", "s"), "st");
  EXPECT_NE(base, "");
  EXPECT_EQ(base, HashOf(stream("p", "changed", "s"), "st"));
  EXPECT_NE(base, HashOf(stream("changed", "o", "s"), "st"));
  EXPECT_NE(base, HashOf(stream("p", "o", "changed"), "st"));
  EXPECT_EQ(
      TemplateAnnotation(RenderText(stream("p", "o", "s")).output, "st", kConfigSourcesAnnotation),
      "configmap/settings, secret/db[password]");
}

TEST(RenderHash, CronJobTemplateIsAnnotated) {
  std::string stream = SecretDoc("stringData: {password: x}\n") + R"(apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          containers:
          - name: job
            envFrom: [{secretRef: {name: db}}]
)";
  EXPECT_EQ(TemplateAnnotation(RenderText(stream).output, "nightly", kConfigSourcesAnnotation),
            "secret/db");
}

TEST(RenderHash, HmacKeyGivesKeyedHash) {
  std::string stream = SecretDoc("stringData: {password: x}\n") + kEnvConsumer;
  RenderOptions keyed;
  keyed.hmac_key = "key one";
  std::string a = TemplateAnnotation(RenderText(stream, keyed).output, "web");
  keyed.hmac_key = "key two";
  std::string b = TemplateAnnotation(RenderText(stream, keyed).output, "web");
  EXPECT_THAT(a, ::testing::MatchesRegex("hmac-sha256:[0-9a-f]{64}"));
  EXPECT_NE(a, b);
}

TEST(Render, NeverWritesValuesInAnnotationsOrFindings) {
  std::string stream = SecretDoc("stringData: {password: sup3rsecret}\n") + kEnvConsumer +
                       "---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\n"
                       "spec: {template: {spec: {containers: [{name: x, envFrom: "
                       "[{secretRef: {name: db}}, {secretRef: {name: gone}}]}]}}}\n";
  RenderResult result = RenderText(stream);
  std::string added = result.output.substr(0);
  for (const Finding& finding : result.findings) {
    EXPECT_THAT(FormatFinding(finding), Not(HasSubstr("sup3rsecret")));
  }
  // The value occurs once: where the input had it.
  EXPECT_EQ(result.output.find("sup3rsecret"), result.output.rfind("sup3rsecret"));
}

TEST(Render, KeptPlainJobAndBarePodStayByteIdenticalWithWarnings) {
  std::string stream = SecretDoc("stringData: {password: x}\n") +
                       "apiVersion: batch/v1\nkind: Job\nmetadata: {name: migrate}\n"
                       "spec: {template: {spec: {containers: [{name: x, envFrom: "
                       "[{secretRef: {name: db}}]}]}}}\n---\n"
                       "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
                       "spec: {containers: [{name: x, envFrom: [{secretRef: {name: db}}]}]}\n";
  RenderOptions keep;
  keep.jobs.policy = JobPolicy::kKeep;
  RenderResult result = RenderText(stream, keep);
  EXPECT_EQ(result.output, stream);
  // The Pod's reference reads a source of the input: bare-pod alone says it.
  ASSERT_EQ(result.findings.size(), 3u);
  EXPECT_EQ(FormatFinding(result.findings[0]),
            "<stdin>:7:1: warning[plain-job-unchanged] Job "
            "default/migrate is left unchanged (job policy keep): a Job's pod template is "
            "immutable, so a Secret or ConfigMap change will not reach it");
  EXPECT_EQ(FormatFinding(result.findings[1]),
            "<stdin>:10:78: error[unresolved-reference] Job "
            "default/migrate reads secret/db via envFrom in container x, but the Job is kept "
            "unchanged (job policy keep), so its content is in no hash: nothing makes a change "
            "to it reach the process");
  EXPECT_EQ(result.findings[2].rule, "bare-pod");
  EXPECT_EQ(result.findings[2].severity, Severity::kError);
  EXPECT_EQ(result.summary.Line(),
            "references: 2 \u2014 hashed 0, waived 0, pending 0, runtime 0, unresolved 2");
}

TEST(Render, HookJobIsAnnotated) {
  std::string stream = SecretDoc("stringData: {password: x}\n") +
                       "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: hook\n"
                       "  annotations: {\"helm.sh/hook\": post-install}\n"
                       "spec: {template: {spec: {containers: [{name: x, envFrom: "
                       "[{secretRef: {name: db}}]}]}}}\n";
  EXPECT_EQ(TemplateAnnotation(RenderText(stream).output, "hook", kConfigSourcesAnnotation),
            "secret/db");
}

TEST(Render, UnresolvedReferenceIsReportedNotHashed) {
  RenderResult result = RenderText(kEnvConsumer);
  EXPECT_EQ(result.output, kEnvConsumer);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(FormatFinding(result.findings[0]),
            "<stdin>:11:44: error[unresolved-reference] Deployment "
            "default/web reads secret/db[password] via env in container app, but Secret "
            "default/db is not in the input: nothing makes a change to it reach the process");
}

TEST(Render, ValuesFilePassesThroughWithWarning) {
  std::string stream = "replicaCount: 2\nimage: {tag: \"1.0\"}\n";
  RenderResult result = RenderText(stream);
  EXPECT_EQ(result.output, stream);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].rule, "not-an-object");
}

// A stream of many values-like documents says five of them and counts the rest in
// one finding: a million such documents printed a million lines.
TEST(Render, NotAnObjectPastFiveDocumentsIsOneFinding) {
  std::string stream;
  for (int i = 0; i < 8; ++i) stream += "---\nreplicaCount: " + std::to_string(i) + "\n";
  RenderResult result = RenderText(stream);
  EXPECT_EQ(result.output, stream);
  std::vector<std::string> said;
  for (const Finding& finding : result.findings) said.push_back(FormatFinding(finding));
  const std::string values =
      ": info[not-an-object] a mapping without apiVersion and kind is not a Kubernetes object "
      "(a values file?); skipped";
  EXPECT_THAT(said, ::testing::ElementsAre(
                        "<stdin>:2:1" + values, "<stdin>:4:1" + values, "<stdin>:6:1" + values,
                        "<stdin>:8:1" + values, "<stdin>:10:1" + values,
                        "<stdin>:12:1: info[not-an-object] and 3 more documents of this input, "
                        "from here to line 16, that are not Kubernetes objects; skipped"));
}

TEST(Render, ErrorsNameOriginDocumentLineAndColumn) {
  std::string stream =
      "---\n# Source: chart/templates/ok.yaml\nkind: A\napiVersion: v1\n"
      "---\n# Source: chart/templates/bad.yaml\nkind: B\nmetadata: {name: [}\n";
  try {
    RenderText(stream);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_THAT(e.Describe(), ::testing::StartsWith("<stdin> (document 2, line 8, column 1, from "
                                                    "chart/templates/bad.yaml)"));
    EXPECT_THAT(e.Describe(), HasSubstr("invalid YAML"));
  }
}

TEST(Render, TheFirstConsumerInStreamOrderThatCannotBeEditedIsTheError) {
  // Consumers are planned on all hardware threads; the error must not depend on
  // which thread reaches which consumer first.
  std::string stream = "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {k: dg==}\n";
  for (int i = 0; i < 200; ++i) {
    bool aliased = i == 50 || i == 150;
    stream +=
        "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d" + std::to_string(i) +
        "}\nspec:\n  template:\n    metadata:\n" +
        (aliased ? "      labels: &l {a: b}\n      annotations: *l\n" : "      labels: {a: b}\n") +
        "    spec:\n      containers:\n        - name: c\n          envFrom:\n"
        "            - secretRef: {name: s}\n";
  }
  for (int run = 0; run < 10; ++run) {
    try {
      RenderText(stream);
      FAIL() << "expected InputError";
    } catch (const InputError& e) {
      EXPECT_THAT(e.Describe(), ::testing::StartsWith("<stdin> (document 52, line "));
      EXPECT_THAT(e.Describe(), HasSubstr("Deployment d50: pod template metadata.annotations "
                                          "is a YAML alias"));
    }
  }
}

TEST(Render, TheFirstConsumerThatCannotBeEditedIsTheErrorPastTheFirstChunkOfPlans) {
  // Consumers are planned 4,096 at a time (render.cc): the error is still the first
  // in stream order, and no later chunk is planned before an earlier one.
  std::string stream = "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {k: dg==}\n";
  for (int i = 0; i < 9000; ++i) {
    bool bad = i == 4500 || i == 8500;
    stream += "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d" + std::to_string(i) +
              "}\nspec: {template: {metadata: " +
              (bad ? "{labels: &l {a: b}, annotations: *l}" : "{labels: {a: b}}") +
              ", spec: {containers: [{name: c, envFrom: [{secretRef: {name: s}}]}]}}}\n";
  }
  try {
    RenderText(stream);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_THAT(e.Describe(), ::testing::StartsWith("<stdin> (document 4502, line "));
    EXPECT_THAT(e.Describe(), HasSubstr("Deployment d4500: pod template metadata.annotations "
                                        "is a YAML alias"));
  }
}

TEST(RenderPlan, HandsTheEditsARunPerChunkOfConsumersUntilTold) {
  // Unpadded, the edits are more than a quarter of the input: planned again as they
  // are handed out. Padded, they are kept from the first planning. The runs are the
  // same either way.
  for (std::size_t padding : {std::size_t{0}, std::size_t{1000}}) {
    std::string stream = "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {k: dg==}\n";
    for (int i = 0; i < 5000; ++i) {
      stream += "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d" +
                std::to_string(i) + ", labels: {pad: " + std::string(padding, 'x') +
                "}}\nspec: {template: {spec: {containers: [{name: c, envFrom: [{secretRef: "
                "{name: s}}]}]}}}\n";
    }
    Stream input(stream, "<stdin>");
    RenderOptions options;
    std::vector<std::size_t> runs;
    std::size_t edited = 0;
    {
      RenderPlan plan(input, options);
      EXPECT_EQ(plan.result().rollout.size(), 5000u);
      EXPECT_TRUE(plan.result().output.empty());
      plan.ForEachEditRun([&](std::vector<Edit>& run) {
        runs.push_back(run.size());
        for (const Edit& edit : run) edited += edit.text.find("config-hash") != std::string::npos;
        return true;
      });
    }
    EXPECT_EQ(runs, (std::vector<std::size_t>{4096, 904})) << padding;  // one edit each
    EXPECT_EQ(edited, 5000u) << padding;
    runs.clear();
    RenderPlan plan(input, options);
    plan.ForEachEditRun([&](std::vector<Edit>& run) {
      runs.push_back(run.size());
      return false;
    });
    EXPECT_EQ(runs, (std::vector<std::size_t>{4096})) << padding;
  }
}

TEST(Render, ATemplateTakenAgainFromTheTextIsEditedAsItsCaptureWould) {
  // Each template twice: in a small Deployment, whose capture goes once its facts
  // are read and is taken again as the output is written (facts.cc), and in one
  // padded past that, which keeps it. Their pod templates come out the same.
  const std::vector<std::string> templates = {
      "spec:\n  template:\n    metadata:\n      labels: {app: x}\n    spec:\n"
      "      containers:\n        - name: c\n          envFrom:\n"
      "            - secretRef: {name: s}\n",
      "spec: {template: {metadata: {labels: {app: x}}, spec: {containers: [{name: c, "
      "envFrom: [{secretRef: {name: s}}]}]}}}\n",
      "spec:\n  template:\n    spec: {containers: [{name: c, envFrom: [{secretRef: {name: "
      "s}}]}]}\n",
      "spec:\r\n  template:\r\n    metadata:\r\n      annotations:\r\n        a: b\r\n"
      "    spec: {containers: [{name: c, envFrom: [{secretRef: {name: s}}]}]}\r\n"};
  const std::string pad = "  labels: {pad: " + std::string(2000, 'x') + "}\n";
  for (const std::string& pod : templates) {
    const std::string head = "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n";
    const std::string stream =
        "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {k: dg==}\n" + head +
        "  name: small\n" + pod + head + "  name: large\n" + pad + pod;
    const std::string output = RenderText(stream).output;
    const std::size_t small = output.find("name: small\n") + 12;
    const std::size_t large = output.find(pad) + pad.size();
    const std::size_t small_end = output.find("---", small);
    ASSERT_NE(small_end, std::string::npos) << pod;
    EXPECT_EQ(output.substr(small, small_end - small), output.substr(large)) << pod;
    EXPECT_THAT(output.substr(large), HasSubstr("rollcall.dev/config-hash")) << pod;
  }
}

TEST(Render, LocatesErrorsInAStreamOverAMebibyte) {
  // Over 1 MiB, the lines are indexed beside the document split (stream.cc).
  std::string stream;
  std::size_t lines = 0;
  for (int i = 0; i < 4000; ++i) {
    stream += "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c" + std::to_string(i) +
              "}\ndata:\n  k: \"" + std::string(300, 'x') + "\"\n";
    lines += 6;
  }
  ASSERT_GT(stream.size(), std::size_t{1} << 20);
  stream += "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: [}\n";
  try {
    RenderText(stream);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_THAT(e.Describe(), ::testing::StartsWith("<stdin> (document 4001, line " +
                                                    std::to_string(lines + 4) + ", column"));
  }
}

TEST(Render, NonMappingDocumentIsAnError) {
  try {
    RenderText("apiVersion: v1\nkind: A\n---\n- a\n- b\n");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.Describe(),
              "<stdin> (document 2, line 4, column 1): a document must be a mapping (a "
              "Kubernetes object), not a sequence");
  }
}

TEST(Render, Helm4FilenameNamesTheOrigin) {
  std::string stream =
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  annotations:\n"
      "    postrenderer.helm.sh/postrender-filename: chart/templates/cm.yaml\n"
      "binaryData: {x: \"!!\"}\n";
  try {
    RenderText(stream);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.Describe(),
              "<stdin> (document 1, line 7, column 17, from chart/templates/cm.yaml): ConfigMap "
              "default/c: binaryData.x is not valid base64");
  }
}

TEST(Render, IsIdempotent) {
  std::string stream = SecretDoc("stringData: {password: x}\n") + kEnvConsumer;
  std::string once = RenderText(stream).output;
  EXPECT_NE(once, stream);
  EXPECT_EQ(RenderText(once).output, once);
}

TEST(Render, StaleHashIsReplacedAndOrphanAnnotationsRemoved) {
  std::string stream = SecretDoc("stringData: {password: new}\n") + R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    metadata:
      annotations:
        rollcall.dev/config-hash: "sha256:old"
        rollcall.dev/config-sources: "secret/db[password]"
        keep: me
    spec:
      containers:
      - name: app
        env:
        - name: PW
          valueFrom: {secretKeyRef: {name: db, key: password}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: orphan}
spec:
  template:
    metadata:
      annotations:
        keep: me
        rollcall.dev/config-hash: "sha256:old"
        rollcall.dev/config-sources: "secret/db[password]"
    spec:
      containers: [{name: app}]
)";
  std::string out = RenderText(stream).output;
  EXPECT_THAT(TemplateAnnotation(out, "web"), ::testing::MatchesRegex("sha256:[0-9a-f]{64}"));
  EXPECT_EQ(TemplateAnnotation(out, "orphan"), "");
  EXPECT_EQ(TemplateAnnotation(out, "orphan", "keep"), "me");
  EXPECT_THAT(out, HasSubstr("      annotations:\n        keep: me\n    spec:\n      containers: "
                             "[{name: app}]\n"));
}

}  // namespace
}  // namespace rollcall

namespace rollcall {
namespace {

TEST(Render, DuplicateSourceWarnsAndTheLastDefinitionCounts) {
  std::string consumer =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n"
      "spec: {template: {spec: {containers: [{name: x, envFrom: "
      "[{secretRef: {name: db}}]}]}}}\n";
  std::string twice =
      "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\n"
      "stringData: {k: first}\n---\n"
      "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\n"
      "stringData: {k: last}\n---\n" +
      consumer;
  std::string once =
      "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\n"
      "stringData: {k: last}\n---\n" +
      consumer;
  RenderResult result = testing::RenderText(twice);
  EXPECT_EQ(testing::TemplateAnnotation(result.output, "web"),
            testing::TemplateAnnotation(testing::RenderText(once).output, "web"));
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(FormatFinding(result.findings[0]),
            "<stdin>:6:1: warning[duplicate-source] Secret "
            "default/db is defined again (first at line 1); the last definition is the one "
            "applied, and the one hashed");
}

TEST(Render, DuplicateKeysReadAsKubernetesReadsThem) {
  // A lookup that returns the first duplicate (yaml-cpp's) is wrong; Kubernetes applies the last.
  std::string stream =
      "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\n"
      "stringData: {k: v}\n---\n"
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n"
      "spec:\n  template:\n    metadata: {name: ignored}\n"
      "    metadata: {labels: {a: b}}\n"
      "    spec: {containers: [{name: x, envFrom: [{secretRef: {name: db}}]}]}\n";
  std::string out = testing::RenderText(stream).output;
  EXPECT_THAT(out, ::testing::MatchesRegex(
                       ".*\n    metadata: \\{\"annotations\": \\{\"rollcall.dev/config-hash\": "
                       "\"sha256:[0-9a-f]{64}\", [^\n]*\\}, labels: \\{a: b\\}\\}\n.*"));
  EXPECT_NE(out.find("    metadata: {name: ignored}\n"), std::string::npos);
}

// Render parses only the documents its analysis reads (docs/performance.md); the
// others pass through byte for byte after the text checks.
constexpr const char* kBrokenWidget =
    "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec:\n  a: b\n c: d\n";

TEST(Render, DocumentsOfKindsNotReadPassThroughUnparsed) {
  std::string input =
      SecretDoc("stringData: {password: x}\n") + kEnvConsumer + "---\n" + kBrokenWidget;
  RenderResult result = RenderText(input);
  EXPECT_NE(result.output.find(std::string("---\n") + kBrokenWidget), std::string::npos);
  EXPECT_NE(result.output.find(kConfigHashAnnotation), std::string::npos);
  // A kind render reads is parsed, and the same breakage is an error.
  std::string as_config_map =
      std::string(kBrokenWidget).replace(0, 39, "apiVersion: v1\nkind: ConfigMap");
  EXPECT_THROW(RenderText(as_config_map), InputError);
  EXPECT_THROW(RenderText(std::string("apiVersion: example.com/v1\nkind: Widget\nspec: \"x\n")),
               InputError);
}

// kubectl and Helm refuse a document with an apiVersion and no kind (an empty one
// included), or the reverse: so does render, where lint only notes it.
TEST(Render, AnObjectMissingItsKindOrApiVersionIsRefused) {
  try {
    RenderText(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n"
        "apiVersion: example.com/v1\nkind: ''\nmetadata: {name: x}\n");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.Describe(),
              "<stdin> (document 2, line 5, column 1): Object 'kind' is missing: a document with "
              "an apiVersion and no kind, which kubectl and Helm refuse to apply; add it, or take "
              "this document out of the stream");
  }
  EXPECT_THROW(RenderText("kind: Deployment\nmetadata: {name: x}\n"), InputError);
  // Neither: no object, passed through (a values file).
  RenderResult result = RenderText("replicas: 2\nimage: {tag: x}\n");
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].rule, "not-an-object");
}

TEST(Render, ObjectsCarryingRollcallAnnotationsAreReadWhateverTheirKind) {
  RenderResult result = RenderText(
      "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  annotations:\n"
      "    rollcall.dev/ignore: \"no-such-rule: because\"\n");
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].rule, "invalid-ignore");
  EXPECT_EQ(result.findings[0].object, "Widget default/w");
}

}  // namespace
}  // namespace rollcall
