// --lookup kubectl, against a stand-in kubectl that records its arguments and
// answers from files: the exact calls, missing objects, failures, --kube-context.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "test_support.h"

namespace rollcall {
namespace {

using ::testing::HasSubstr;
using testing::ReadFile;
using testing::RollcallBinary;
using testing::RunProcess;

constexpr const char* kConsumers = R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: a}
spec:
  template:
    spec:
      containers:
      - name: api
        envFrom: [{secretRef: {name: s1}}, {configMapRef: {name: c1}}]
        env:
        - {name: X, valueFrom: {secretKeyRef: {name: s2, key: x}}}
        - {name: Z, valueFrom: {secretKeyRef: {name: gone, key: "y", optional: true}}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: worker, namespace: b}
spec: {template: {spec: {containers: [{name: w, envFrom: [{secretRef: {name: s3}}]}]}}}
)";

class Lookup : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("rollcall-kubectl-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::create_directories(dir_);
    std::string script = (dir_ / "kubectl").string();
    std::ofstream(script)
        << "#!/bin/sh\n"
        << "d=" << dir_.string() << "\n"
        << "echo \"$*\" >> \"$d/calls\"\n"
        << "if [ -e \"$d/fail\" ]; then\n"
        << "  echo 'error: You must be logged in to the server (Unauthorized)' >&2\n"
        << "  exit 1\n"
        << "fi\n"
        << "ns=''; kind=''; rest=''\n"
        << "for a in \"$@\"; do\n"
        << "  if [ -n \"$rest\" ]; then [ -z \"$kind\" ] && kind=$a; continue; fi\n"
        << "  case $a in --namespace=*) ns=${a#--namespace=};; --) rest=1;; esac\n"
        << "done\n"
        << "f=\"$d/answer-$kind-$ns.yaml\"\n"
        << "if [ -e \"$f\" ]; then cat \"$f\"; else printf 'apiVersion: v1\\nitems: []\\nkind: "
           "List\\n'; fi\n";
    chmod(script.c_str(), 0755);
    Answer("secret", "a",
           "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Secret\n"
           "  metadata: {name: s1, namespace: a}\n  data: {k: c2VjcmV0LW9uZQ==}\n");
    Answer("configmap", "a",
           "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n"
           "  metadata: {name: c1, namespace: a}\n  data: {mode: fast}\n");
    Answer("secret", "b",
           "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Secret\n"
           "  metadata: {name: s3, namespace: b}\n  stringData: {t: three}\n");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  void Answer(const std::string& kind, const std::string& ns, const std::string& yaml) {
    std::ofstream(dir_ / ("answer-" + kind + "-" + ns + ".yaml")) << yaml;
  }
  testing::ProcessResult Render(std::vector<std::string> extra) {
    std::vector<std::string> argv = {RollcallBinary(), "render", "--lookup", "kubectl"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return RunProcess(argv, kConsumers, {"KUBECTL=" + (dir_ / "kubectl").string()});
  }
  std::string Calls() { return ReadFile((dir_ / "calls").string()); }
  std::filesystem::path dir_;
};

TEST_F(Lookup, OneCallPerNamespaceAndKindForTheUnresolvedNamesOnly) {
  testing::ProcessResult result = Render({"--kube-context", "staging"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(Calls(),
            "get --namespace=a --output=yaml --ignore-not-found --context=staging -- secret gone "
            "s1 s2\n"
            "get --namespace=a --output=yaml --ignore-not-found --context=staging -- configmap c1\n"
            "get --namespace=b --output=yaml --ignore-not-found --context=staging -- secret s3\n");
  EXPECT_THAT(testing::TemplateAnnotation(result.out, "api", "rollcall.dev/config-sources"),
              "configmap/c1, secret/s1");
  EXPECT_EQ(testing::TemplateAnnotation(result.out, "worker", "rollcall.dev/config-sources"),
            "secret/s3");
  // s2 is nowhere: unresolved; the optional reference to a missing Secret is fine.
  EXPECT_THAT(result.err, HasSubstr("error[unresolved-reference] Deployment a/api reads "
                                    "secret/s2[x] via env in container api, but Secret a/s2 is "
                                    "neither in the input nor in the cluster"));
  EXPECT_THAT(result.err, ::testing::Not(HasSubstr("secret/gone")));
  EXPECT_THAT(result.err, HasSubstr("references: 5 \u2014 hashed 3, waived 1, pending 0, "
                                    "runtime 0, unresolved 1"));
  EXPECT_THAT(result.out, ::testing::Not(HasSubstr("c2VjcmV0LW9uZQ")));
  EXPECT_THAT(result.err, ::testing::Not(HasSubstr("secret-one")));
}

TEST_F(Lookup, ItsHashIsTheHashOfTheSameContentInTheInput) {
  testing::ProcessResult looked_up = Render({});
  std::string with_sources = std::string(kConsumers) +
                             "---\napiVersion: v1\nkind: Secret\nmetadata: {name: s3, "
                             "namespace: b}\nstringData: {t: three}\n";
  testing::ProcessResult in_input = RunProcess({RollcallBinary(), "render"}, with_sources);
  EXPECT_EQ(testing::TemplateAnnotation(looked_up.out, "worker"),
            testing::TemplateAnnotation(in_input.out, "worker"));
}

TEST_F(Lookup, AFailingKubectlIsAnErrorUnlessOptional) {
  std::ofstream(dir_ / "fail") << "";
  testing::ProcessResult failed = Render({});
  EXPECT_EQ(failed.exit_code, 2);
  EXPECT_EQ(failed.out, "");
  EXPECT_EQ(failed.err,
            "rollcall: error: kubectl get secret -n a: kubectl failed (exit 1): error: You must "
            "be logged in to the server (Unauthorized)\n");
  testing::ProcessResult tolerated = Render({"--lookup-optional"});
  EXPECT_EQ(tolerated.exit_code, 0);
  EXPECT_THAT(tolerated.err,
              HasSubstr("rollcall: kubectl get secret -n a: warning[lookup-failed] kubectl "
                        "failed (exit 1): error: You must be logged in to the server "
                        "(Unauthorized); the sources stay unresolved (--lookup-optional)"));
}

TEST_F(Lookup, NeverWithoutTheFlag) {
  testing::ProcessResult result = RunProcess({RollcallBinary(), "render"}, kConsumers,
                                             {"KUBECTL=" + (dir_ / "kubectl").string()});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_FALSE(std::filesystem::exists(dir_ / "calls"));
}

}  // namespace
}  // namespace rollcall
