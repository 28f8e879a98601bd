// Every rule and every coverage state on small inputs, with the exact findings.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "rollcall/analysis.h"
#include "rollcall/lint.h"
#include "test_support.h"

namespace rollcall {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

struct Linted {
  Stream stream;
  Analysis analysis;
  std::vector<std::string> findings;

  explicit Linted(const std::string& text, Config config = {})
      : stream(text, "t.yaml"),
        analysis(ParseStream(stream, Limits{}), Options(std::move(config))) {
    for (const Finding& finding : RunRules(analysis)) findings.push_back(FormatFinding(finding));
  }

  static AnalysisOptions Options(Config config) {
    AnalysisOptions options;
    options.config = std::move(config);
    return options;
  }

  std::vector<std::string> States() const {
    std::vector<std::string> out;
    for (const ReferenceCoverage& entry : analysis.coverage()) {
      out.push_back(entry.reference->source().name + ": " + CoverageName(entry.state) + " (" +
                    entry.Reason() + ")");
    }
    return out;
  }
};

std::string Deployment(const std::string& containers, const std::string& volumes = "") {
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n"
         "    spec:\n      containers:\n" +
         containers + (volumes.empty() ? "" : "      volumes:\n" + volumes);
}

TEST(Coverage, MarkersBindToTheirReferenceOnly) {
  Linted linted(
      Deployment("      - name: app\n"
                 "        env:\n"
                 "        # SECRET-VERSION: pending\n"
                 "        - name: A\n"
                 "          valueFrom: {secretKeyRef: {name: one, key: a}}\n"
                 "        - name: B\n"
                 "          valueFrom:\n"
                 "            secretKeyRef:\n"
                 "              name: two  # SECRET-VERSION: static: set once at install\n"
                 "              key: b\n"
                 "        - name: C\n"
                 "          valueFrom: {secretKeyRef: {name: three, key: c}}\n"));
  EXPECT_THAT(linted.States(),
              ElementsAre("one: pending (SECRET-VERSION: pending)",
                          "two: waived (static: set once at install)",
                          "three: unresolved (Secret default/three is not in the input)"));
  EXPECT_EQ(linted.analysis.Summary().Line(),
            "references: 3 \u2014 hashed 0, waived 1, pending 1, runtime 0, unresolved 1");
}

// The analysis keeps two bytes a reference and whole records only for those that
// name a marker, a rotation, a controller or a hook (reference_coverage.h): read
// back, each record has its own consumer and reference, past a consumer that reads
// nothing, and its marker where it has one.
TEST(Coverage, EveryReferenceInStreamOrderWithWhatItNames) {
  std::string text =
      "apiVersion: v1\nkind: Secret\nmetadata: {name: known}\nstringData: {k: v}\n---\n" +
      Deployment(
          "      - name: app\n"
          "        env:\n"
          "        - name: A  # SECRET-VERSION: pending\n"
          "          valueFrom: {secretKeyRef: {name: one, key: a}}\n"
          "        envFrom: [{secretRef: {name: known}}]\n") +
      "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: idle}\n"
      "spec: {template: {spec: {containers: [{name: app, image: x}]}}}\n---\n"
      "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  template:\n"
      "    spec:\n      containers:\n      - name: db\n"
      "        envFrom:\n        - secretRef: {name: known}\n"
      "        - secretRef: {name: two}  # SECRET-VERSION: static: set once\n";
  Linted linted(text);
  std::vector<std::string> records;
  for (const ReferenceCoverage& entry : linted.analysis.coverage()) {
    records.push_back(entry.consumer->name() + " " + entry.reference->source().name + ": " +
                      CoverageName(entry.state) + (entry.marker != nullptr ? " marked" : ""));
  }
  EXPECT_THAT(records, ElementsAre("web one: pending marked", "web known: hashed",
                                   "db known: hashed", "db two: waived marked"));
  EXPECT_EQ(linted.analysis.coverage().size(), 4u);
  ASSERT_EQ(linted.analysis.model().consumers.size(), 3u);  // idle among them
  EXPECT_TRUE(linted.analysis.model().consumers[1].references.empty());
}

TEST(Coverage, HashedRuntimeAndReloads) {
  std::string text =
      "apiVersion: v1\nkind: Secret\nmetadata: {name: known}\nstringData: {k: v}\n---\n"
      "apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata: {name: gw}\n"
      "spec: {secretName: gw-tls}\n---\n" +
      Deployment(
          "      - name: app\n"
          "        envFrom: [{secretRef: {name: known}}]\n"
          "        volumeMounts: [{name: certs, mountPath: /certs}]\n",
          "      - name: certs  # SECRET-VERSION: reloads: watches the directory\n"
          "        secret: {secretName: gw-tls}\n");
  Linted linted(text);
  EXPECT_THAT(linted.States(), ElementsAre("known: hashed (content known)",
                                           "gw-tls: waived (reloads: watches the directory)"));
  EXPECT_THAT(linted.findings, IsEmpty());
}

TEST(Coverage, WorkloadAnnotationCoversEveryReference) {
  std::string text =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  annotations:\n"
      "    rollcall.dev/secret-version: \"static: restarted by the nightly job\"\nspec:\n"
      "  template:\n    spec:\n      containers:\n      - name: app\n"
      "        envFrom: [{secretRef: {name: a}}, {configMapRef: {name: b}}]\n";
  Linted linted(text);
  EXPECT_THAT(linted.States(), ElementsAre("a: waived (static: restarted by the nightly job)",
                                           "b: waived (static: restarted by the nightly job)"));
  EXPECT_THAT(linted.findings, IsEmpty());
}

TEST(Rules, PendingAndUnresolved) {
  Linted linted(
      Deployment("      - name: app\n"
                 "        envFrom:\n"
                 "        - secretRef: {name: a}  # SECRET-VERSION: pending\n"
                 "        - configMapRef: {name: b}\n"));
  EXPECT_THAT(
      linted.findings,
      ElementsAre("t.yaml:10:29: error[pending-marker] Deployment "
                  "default/web reads secret/a via envFrom in container app and its "
                  "SECRET-VERSION marker says pending: a change to it does not reach the "
                  "process yet",
                  "t.yaml:11:32: error[unresolved-reference] "
                  "Deployment default/web reads configmap/b via envFrom in container app, but "
                  "ConfigMap default/b is not in the input: nothing makes a change to it reach "
                  "the process"));
}

TEST(Rules, MarkersThatAreMalformedMisplacedOrUntrue) {
  Linted linted(
      "# SECRET-VERSION: static: nothing here\n"
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: v}\n---\n" +
      Deployment("      - name: app\n"
                 "        envFrom:\n"
                 "        - configMapRef: {name: c}  # SECRET-VERSION: checksum\n"
                 "        - secretRef: {name: s}  # SECRET-VERSION: checksum\n"
                 "        - secretRef: {name: t}  # SECRET-VERSION: later\n"
                 "        - secretRef: {name: u}  # SECRET-VERSION: reloads: it re-reads\n"));
  EXPECT_THAT(
      linted.findings,
      ElementsAre(
          "t.yaml:1:1: warning[orphan-marker] SECRET-VERSION: "
          "static: nothing here binds to no reference: put it on the line of a secretKeyRef, "
          "envFrom or volume entry, or on the line directly above it",
          "t.yaml:17:29: error[checksum-not-hashed] SECRET-VERSION: "
          "checksum, but secret/s via envFrom in container app is not hashed: Secret default/s "
          "is not in the input",
          "t.yaml:17:29: error[unresolved-reference] Deployment "
          "default/web reads secret/s via envFrom in container app, but Secret default/s is "
          "not in the input: nothing makes a change to it reach the process",
          "t.yaml:18:29: error[unresolved-reference] Deployment "
          "default/web reads secret/t via envFrom in container app, but Secret default/t is "
          "not in the input: nothing makes a change to it reach the process",
          "t.yaml:18:33: error[malformed-marker] SECRET-VERSION "
          "marker: unknown value \"later\"; use pending, static: <reason>, reloads: <reason> "
          "or checksum",
          "t.yaml:19:29: error[reloads-not-reloadable] "
          "SECRET-VERSION: reloads, but secret/u via envFrom in container app is read into the "
          "environment, which is fixed when the container starts",
          "t.yaml:19:29: error[unresolved-reference] Deployment "
          "default/web reads secret/u via envFrom in container app, but Secret default/u is "
          "not in the input: nothing makes a change to it reach the process"));
}

TEST(Rules, RuntimeSourcesInEnvAndSubPath) {
  std::string text =
      "apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nmetadata: {name: db}\n"
      "spec: {target: {}}\n---\n" +
      Deployment(
          "      - name: app\n"
          "        env:\n"
          "        - {name: P, valueFrom: {secretKeyRef: {name: db, key: p}}}\n"
          "        volumeMounts: [{name: d, mountPath: /p, subPath: p}]\n",
          "      - {name: d, secret: {secretName: db}}\n");
  Linted linted(text);
  EXPECT_THAT(linted.States(),
              ElementsAre("db: runtime (rotated at runtime by ExternalSecret default/db)",
                          "db: runtime (rotated at runtime by ExternalSecret default/db)"));
  EXPECT_THAT(
      linted.findings,
      ElementsAre("t.yaml:15:54: error[runtime-source-in-env] Secret "
                  "default/db is rotated at runtime by ExternalSecret default/db, but Deployment "
                  "default/web reads it into the environment: the rotation never reaches the "
                  "process",
                  "t.yaml:18:40: error[runtime-source-subpath] "
                  "Secret default/db is rotated at runtime by ExternalSecret default/db, but "
                  "container app mounts volume d with subPath, which the kubelet never "
                  "updates"));
}

TEST(Rules, MissingKeyUnlessOptional) {
  std::string text =
      "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {a: x}\n---\n" +
      Deployment(
          "      - name: app\n"
          "        env:\n"
          "        - {name: A, valueFrom: {secretKeyRef: {name: s, key: a}}}\n"
          "        - {name: B, valueFrom: {secretKeyRef: {name: s, key: b}}}\n"
          "        - {name: C, valueFrom: {secretKeyRef: {name: s, key: c, "
          "optional: true}}}\n");
  Linted linted(text);
  EXPECT_THAT(linted.findings,
              ElementsAre("t.yaml:16:62: error[missing-key] Secret "
                          "default/s has no key \"b\", which Deployment default/web reads: the "
                          "container would fail to start (CreateContainerConfigError: couldn't "
                          "find key b in Secret default/s)"));
}

TEST(Rules, DuplicateKeysAndSources) {
  Linted linted(
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  k: one\n  k: two\n---\n"
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: three}\n");
  EXPECT_THAT(
      linted.findings,
      ElementsAre("t.yaml:6:3: error[duplicate-key] key \"k\" "
                  "appears again in this mapping (first at line 5); Kubernetes applies the last "
                  "one and silently drops the first",
                  "t.yaml:8:1: warning[duplicate-source] ConfigMap "
                  "default/c is defined again (first at line 1); the last definition is the one "
                  "applied, and the one hashed"));
}

// Rendered manifests committed to a repository, then the Secret edited by hand.
struct Committed {
  static std::string Secret(const std::string& password) {
    return "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\nstringData: {password: " +
           password + "}\n---\n";
  }
  static std::string Web() {
    return Deployment(
        "      - name: app\n"
        "        env:\n"
        "        - name: DB_PASSWORD\n"
        "          valueFrom: {secretKeyRef: {name: db, key: password}}\n");
  }
  // The Deployment as render wrote it with the first password.
  static std::string RenderedWeb(const RenderOptions& options = {}) {
    std::string out = testing::RenderText(Secret("first") + Web(), options).output;
    return out.substr(out.find("apiVersion: apps/v1"));
  }
};

TEST(Rules, StaleConfigHashAfterTheSecretChangedWithoutRenderingAgain) {
  std::string rendered = Committed::RenderedWeb();
  EXPECT_THAT(Linted(Committed::Secret("first") + rendered).findings, IsEmpty());
  Linted stale(Committed::Secret("second") + rendered);
  EXPECT_THAT(stale.findings,
              ElementsAre("t.yaml:13:35: error[stale-config-hash] "
                          "Deployment default/web carries "
                          "the config hash of older content of secret/db[password]: these "
                          "manifests were not rendered again after the change, so applying them "
                          "rolls nothing"));
  // Rendering again repairs it, and render does not report what it repairs.
  RenderResult again = testing::RenderText(Committed::Secret("second") + rendered);
  for (const Finding& finding : again.findings) EXPECT_NE(finding.rule, "stale-config-hash");
  EXPECT_THAT(Linted(again.output).findings, IsEmpty());
}

TEST(Rules, StaleConfigHashOnlyWhereItCanBeRecomputed) {
  // The Secret is not in the input (a pre-commit run over the changed files only).
  EXPECT_THAT(Linted(Committed::RenderedWeb()).findings,
              ElementsAre(::testing::HasSubstr("error[unresolved-reference]")));
  // A keyed hash needs the key.
  RenderOptions keyed;
  keyed.hmac_key = "k";
  EXPECT_THAT(Linted(Committed::Secret("second") + Committed::RenderedWeb(keyed)).findings,
              IsEmpty());
}

// A bare Pod reading a Secret of the input: one finding, an error, since no change of
// it reaches the Pod (not also unresolved-reference); marked static, none.
TEST(Rules, ABarePodIsOneFindingUntilItsReferencesAreAccountedFor) {
  const std::string secret =
      "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {k: v}\n---\n";
  EXPECT_THAT(
      Linted(secret +
             "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
             "spec: {containers: [{name: x, envFrom: [{secretRef: {name: s}}]}]}\n")
          .findings,
      ElementsAre("t.yaml:6:1: error[bare-pod] Pod default/p reads Secrets or ConfigMaps, but a "
                  "bare Pod cannot roll: a change reaches it only if someone deletes and "
                  "recreates it"));
  EXPECT_THAT(Linted(secret +
                     "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
                     "    - name: x\n      envFrom:\n"
                     "        # SECRET-VERSION: static: a debug pod, deleted after use\n"
                     "        - secretRef: {name: s}\n")
                  .findings,
              IsEmpty());
}

TEST(Rules, SuppressionNeedsAKnownRuleAndAReason) {
  std::string text =
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n"
      "    rollcall.dev/ignore: \"bare-pod: debug pod, deleted by hand; unresolved-reference: "
      "the token is static; nope: x; orphan-marker\"\n"
      "spec: {containers: [{name: x, envFrom: [{secretRef: {name: s}}]}]}\n";
  Linted linted(text);
  EXPECT_THAT(linted.findings,
              ElementsAre("t.yaml:6:26: error[invalid-ignore] "
                          "rollcall.dev/ignore: unknown rule id \"nope\"",
                          "t.yaml:6:26: error[invalid-ignore] "
                          "rollcall.dev/ignore: \"orphan-marker\" needs a reason: \"orphan-marker: "
                          "<why>\""));
}

TEST(Rules, ConfigChangesSeverityTurnsRulesOffAndNamesRuntimeSources) {
  Config config;
  config.severities["unresolved-reference"] = Severity::kWarning;
  config.severities["bare-pod"] = std::nullopt;
  config.runtime_sources = {"gw-tls"};
  std::string text =
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
      "spec: {containers: [{name: x, envFrom: [{secretRef: {name: s}}, {secretRef: {name: "
      "gw-tls}}]}]}\n";
  Linted linted(text, config);
  EXPECT_THAT(linted.findings,
              ElementsAre("t.yaml:4:60: warning[unresolved-reference] "
                          "Pod default/p reads secret/s via envFrom in container x, but Secret "
                          "default/s is not in the input: nothing makes a change to it reach the "
                          "process",
                          "t.yaml:4:84: error[runtime-source-in-env] "
                          "Secret default/gw-tls is rotated at runtime by the config file's "
                          "runtimeSources (gw-tls), but Pod default/p reads it into the "
                          "environment: the rotation never reaches the process"));
  EXPECT_FALSE(HasBlockingFinding({}, FailOn::kWarning));
}

TEST(Rules, ExtraConsumerKindsFromConfig) {
  Config config;
  config.consumer_kinds.push_back(ConsumerKind{"Workflow", "argoproj.io", {"spec", "pod"}});
  Linted linted(
      "apiVersion: argoproj.io/v1alpha1\nkind: Workflow\nmetadata: {name: w}\n"
      "spec: {pod: {spec: {containers: [{name: x, envFrom: [{secretRef: {name: s}}]}]}}}\n",
      config);
  EXPECT_THAT(linted.States(), ElementsAre("s: unresolved (Secret default/s is not in the input)"));
}

}  // namespace
}  // namespace rollcall
