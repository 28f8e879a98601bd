// The programs rollcall starts (kubectl for --lookup, helm for charts and
// --previous-release), driven through the binary with stand-ins that record their
// argv, one argument a line: nothing from the input ever reaches them as an
// option, names they would refuse never reach them at all, and what they print
// is held to the input limit. One case runs the real Helm 3 and one the real
// kubectl (scripts/fetch-helm.sh puts both into .cache/).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

namespace rollcall {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::ProcessResult;
using testing::RollcallBinary;
using Argv = std::vector<std::string>;

// A Deployment in namespace `ns` reading each of `secrets` through envFrom.
std::string Consumer(const std::string& ns, const std::vector<std::string>& secrets) {
  std::string yaml = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api, namespace: \"" +
                     ns +
                     "\"}\nspec:\n  template:\n    spec:\n      containers:\n      - name: api\n" +
                     "        envFrom:\n";
  for (const std::string& secret : secrets)
    yaml += "        - secretRef: {name: \"" + secret + "\"}\n";
  return yaml;
}

// A chart that renders one ConfigMap and a Deployment reading it.
constexpr const char* kChartYaml = "apiVersion: v2\nname: probe\nversion: 0.1.0\n";
constexpr const char* kRendered =
    "---\n# Source: probe/templates/app.yaml\napiVersion: v1\nkind: ConfigMap\n"
    "metadata: {name: settings}\ndata: {mode: fast}\n"
    "---\n# Source: probe/templates/app.yaml\napiVersion: apps/v1\nkind: Deployment\n"
    "metadata: {name: app}\nspec: {template: {spec: {containers: [{name: app, "
    "envFrom: [{configMapRef: {name: settings}}]}]}}}\n";

// Prints `bytes` bytes of YAML comment lines, 50 bytes a line, then leaves a file
// named `finished`: a program stopped on the way never leaves it.
std::string Flood(const std::string& dir, std::size_t bytes) {
  return "i=0; while [ $i -lt " + std::to_string(bytes / 50) + " ]; do echo '# " +
         std::string(47, '.') + "'; i=$((i+1)); done\ntouch '" + dir + "/finished'\n";
}

class ExternalPrograms : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("rollcall-programs-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "bin");
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A stand-in for `name`: appends its arguments to <dir>/<name>.argv, one a line
  // and "----" after the last, then runs `body` (sh).
  std::string StandIn(const std::string& name, const std::string& body) {
    std::string path = (dir_ / "bin" / name).string();
    std::ofstream(path) << "#!/bin/sh\n"
                        << "{ printf '%s\\n' \"$@\"; echo ----; } >> '" << Recorded(name) << "'\n"
                        << body;
    chmod(path.c_str(), 0755);
    return path;
  }
  std::string Recorded(const std::string& name) { return (dir_ / (name + ".argv")).string(); }
  // The argv of each call the stand-in `name` got, in order.
  std::vector<Argv> Calls(const std::string& name) {
    std::vector<Argv> calls;
    std::ifstream in(Recorded(name));
    Argv argv;
    for (std::string line; std::getline(in, line);) {
      if (line == "----") {
        calls.push_back(argv);
        argv.clear();
      } else {
        argv.push_back(line);
      }
    }
    return calls;
  }

  // A chart directory `name` under `parent` (made if missing); its path.
  fs::path Chart(const fs::path& parent, const std::string& name,
                 const std::string& templates = "") {
    fs::create_directories(parent / name / "templates");
    std::ofstream(parent / name / "Chart.yaml") << kChartYaml;
    if (!templates.empty()) std::ofstream(parent / name / "templates" / "app.yaml") << templates;
    return parent / name;
  }

  // Runs rollcall with `args` in the working directory `cwd`.
  ProcessResult RunIn(const fs::path& cwd, const Argv& args, const std::string& input = "",
                      const Argv& env = {}) {
    Argv argv = {"/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", cwd.string(), RollcallBinary()};
    argv.insert(argv.end(), args.begin(), args.end());
    return testing::RunProcess(argv, input, env);
  }
  ProcessResult Run(const Argv& args, const std::string& input = "", const Argv& env = {}) {
    return RunIn(dir_, args, input, env);
  }

  fs::path dir_;
};

// --- kubectl (--lookup kubectl) ---------------------------------------------------

constexpr const char* kEmptyList = "printf 'apiVersion: v1\\nkind: List\\nitems: []\\n'\n";

TEST_F(ExternalPrograms, HostileSecretNamesNeverReachKubectl) {
  std::string kubectl = StandIn("kubectl", kEmptyList);
  std::string manifest = Consumer(
      "a", {"--server=https://attacker.example:443", "-A", "--insecure-skip-tls-verify", "s1"});
  ProcessResult render = Run({"render", "--lookup", "kubectl"}, manifest, {"KUBECTL=" + kubectl});
  EXPECT_EQ(render.exit_code, 0) << render.err;
  // Only the valid name is looked up, after "--", every flag with its value joined.
  EXPECT_THAT(Calls("kubectl"), ElementsAre(Argv{"get", "--namespace=a", "--output=yaml",
                                                 "--ignore-not-found", "--", "secret", "s1"}));
  EXPECT_THAT(render.err,
              HasSubstr("rollcall: <stdin>:11:29: "
                        "error[unresolved-reference] Deployment a/api reads secret/-A via envFrom "
                        "in container api, but \"-A\" cannot name a Secret (not a DNS-1123 "
                        "subdomain), so it was not looked up: nothing makes a change to it reach "
                        "the process\n"));
  EXPECT_THAT(render.err, HasSubstr("but \"--server=https://attacker.example:443\" cannot name a "
                                    "Secret (not a DNS-1123 subdomain), so it was not looked up"));
  EXPECT_THAT(render.err, HasSubstr("but \"--insecure-skip-tls-verify\" cannot name a Secret"));
  EXPECT_THAT(render.err, HasSubstr("but Secret a/s1 is neither in the input nor in the cluster"));

  // lint: the same call, and the findings fail it.
  fs::remove(Recorded("kubectl"));
  std::ofstream(dir_ / "app.yaml") << manifest;
  ProcessResult lint = Run({"lint", "--lookup", "kubectl", "app.yaml"}, "", {"KUBECTL=" + kubectl});
  EXPECT_EQ(lint.exit_code, 1) << lint.err;
  EXPECT_EQ(Calls("kubectl").size(), 1u);
  EXPECT_THAT(lint.out,
              HasSubstr("app.yaml:11:29: error[unresolved-reference] Deployment a/api reads "
                        "secret/-A via envFrom in container api, but \"-A\" cannot name a Secret "
                        "(not a DNS-1123 subdomain), so it was not looked up"));
}

TEST_F(ExternalPrograms, AHostileNamespaceNeverReachesKubectl) {
  std::string kubectl = StandIn("kubectl", kEmptyList);
  ProcessResult render = Run({"render", "--lookup", "kubectl"},
                             Consumer("--all-namespaces", {"s1"}), {"KUBECTL=" + kubectl});
  EXPECT_EQ(render.exit_code, 0) << render.err;
  EXPECT_THAT(Calls("kubectl"), ElementsAre());
  EXPECT_THAT(render.err,
              HasSubstr("error[unresolved-reference] Deployment --all-namespaces/api reads "
                        "secret/s1 via envFrom in container api, but its namespace "
                        "\"--all-namespaces\" cannot name a namespace (not a DNS-1123 label), so "
                        "it was not looked up: nothing makes a change to it reach the process\n"));
}

TEST_F(ExternalPrograms, TheKubeContextIsOneArgument) {
  std::string kubectl = StandIn("kubectl", kEmptyList);
  ProcessResult render =
      Run({"render", "--lookup", "kubectl", "--kube-context=--server=https://127.0.0.1:2"},
          Consumer("a", {"s1"}), {"KUBECTL=" + kubectl});
  EXPECT_EQ(render.exit_code, 0) << render.err;
  EXPECT_THAT(Calls("kubectl"),
              ElementsAre(Argv{"get", "--namespace=a", "--output=yaml", "--ignore-not-found",
                               "--context=--server=https://127.0.0.1:2", "--", "secret", "s1"}));
}

// The real kubectl, pointed by its kubeconfig at a loopback port where nothing
// listens: it only ever tries to connect to the server it is told, and says which.
// Had a hostile name reached it as an option, it would have tried 127.0.0.1:2.
TEST_F(ExternalPrograms, RealKubectlNeverGetsAHostileNameAsAnOption) {
  const char* from_env = std::getenv("ROLLCALL_KUBECTL");
  std::string kubectl =
      from_env != nullptr ? from_env : testing::TestdataPath("../.cache/kubectl/kubectl");
  if (!testing::FileExists(kubectl)) {
    GTEST_SKIP() << "no kubectl at " << kubectl << " (scripts/fetch-helm.sh)";
  }
  std::ofstream(dir_ / "kubeconfig")
      << "apiVersion: v1\nkind: Config\ncurrent-context: test\n"
         "clusters: [{name: test, cluster: {server: 'https://127.0.0.1:1'}}]\n"
         "contexts: [{name: test, context: {cluster: test, user: test}}]\n"
         "users: [{name: test, user: {token: not-a-real-token}}]\n";
  ProcessResult render =
      Run({"render", "--lookup", "kubectl"},
          Consumer("a", {"--server=https://127.0.0.1:2", "-A", "--insecure-skip-tls-verify", "s1"}),
          {"KUBECTL=" + kubectl, "KUBECONFIG=" + (dir_ / "kubeconfig").string(),
           "HOME=" + dir_.string()});
  EXPECT_EQ(render.exit_code, 2);
  EXPECT_EQ(render.out, "");
  EXPECT_THAT(render.err,
              HasSubstr("rollcall: error: kubectl get secret -n a: kubectl failed (exit "
                        "1): "));
  EXPECT_THAT(render.err, HasSubstr("The connection to the server 127.0.0.1:1 was refused"));
  EXPECT_THAT(render.err, Not(HasSubstr("127.0.0.1:2")));
}

// --- helm template (charts in lint and consumers) ----------------------------------

TEST_F(ExternalPrograms, AChartDirectoryNamedLikeAFlagReachesHelmAsAPath) {
  std::string helm = StandIn("helm", std::string("cat <<'EOF'\n") + kRendered + "EOF\n");
  fs::path repo = dir_ / "repo";
  Chart(repo, "--post-renderer=sh");
  std::ofstream(dir_ / "values.yaml") << "a: b\n";

  // No path: the whole tree, as the rollcall-lint-all hook runs it.
  ProcessResult all = RunIn(repo, {"lint", "--helm", helm, "-f", "../values.yaml", "--set", "a=b"});
  EXPECT_EQ(all.exit_code, 0) << all.err;
  EXPECT_THAT(all.out, HasSubstr("references: 1 \u2014 hashed 1"));
  // A relative chart path given on the command line.
  ProcessResult relative = RunIn(repo, {"lint", "--helm", helm, "--", "--post-renderer=sh"});
  EXPECT_EQ(relative.exit_code, 0) << relative.err;
  // An absolute one.
  ProcessResult absolute = Run({"lint", "--helm", helm, repo.string()});
  EXPECT_EQ(absolute.exit_code, 0) << absolute.err;

  EXPECT_THAT(Calls("helm"),
              ElementsAre(Argv{"template", "--namespace=default", "--values=../values.yaml",
                               "--set=a=b", "--", "post-renderer-sh", "./--post-renderer=sh"},
                          Argv{"template", "--namespace=default", "--", "post-renderer-sh",
                               "./--post-renderer=sh"},
                          Argv{"template", "--namespace=default", "--", "post-renderer-sh",
                               (repo / "--post-renderer=sh").string()}));
}

// --release reaches helm template as the one positional after "--"; a value Helm
// would refuse as a release name (an option, a shell word, a control character) is a
// usage error before helm runs.
TEST_F(ExternalPrograms, TheReleaseIsOneArgumentAfterTheOptionsAndHostileOnesAreRefused) {
  std::string helm = StandIn("helm", std::string("cat <<'EOF'\n") + kRendered + "EOF\n");
  Chart(dir_, "web");
  ProcessResult lint = Run({"lint", "--helm", helm, "--release", "shop", (dir_ / "web").string()});
  EXPECT_EQ(lint.exit_code, 0) << lint.err;
  EXPECT_THAT(Calls("helm"), ElementsAre(Argv{"template", "--namespace=default", "--", "shop",
                                              (dir_ / "web").string()}));
  for (const char* command : {"lint", "consumers"}) {
    for (std::string release : {"-x", "--post-renderer=sh", "a;b", "a\x1b[31mb"}) {
      Argv args = {command, "--helm", helm, "--release=" + release};
      if (command == std::string("consumers")) args.push_back("secret/s");
      args.push_back((dir_ / "web").string());
      ProcessResult result = Run(args);
      EXPECT_EQ(result.exit_code, 2) << command << " " << release;
      EXPECT_EQ(result.out, "") << command << " " << release;
      EXPECT_THAT(result.err, ::testing::StartsWith("rollcall: error: --release: "))
          << command << " " << release;
      EXPECT_EQ(result.err.find('\x1b'), std::string::npos) << command;
    }
  }
  EXPECT_EQ(Calls("helm").size(), 1u);
}

TEST_F(ExternalPrograms, AChartDirectoryHelmWouldRefuseAsAReleaseNameGetsOneItTakes) {
  std::string helm = StandIn("helm", std::string("cat <<'EOF'\n") + kRendered + "EOF\n");
  Chart(dir_, "My_Chart");
  Chart(dir_, "web.app");
  ProcessResult lint = Run({"lint", "--helm", helm});
  EXPECT_EQ(lint.exit_code, 0) << lint.err;
  std::vector<Argv> calls = Calls("helm");
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0][3], "my-chart");
  EXPECT_EQ(calls[1][3], "web.app");
}

TEST_F(ExternalPrograms, RealHelm3GetsAChartNamedLikeAFlagAsAPath) {
  const char* from_env = std::getenv("ROLLCALL_HELM3");
  std::string helm3 =
      from_env != nullptr ? from_env : testing::TestdataPath("../.cache/helm/v3/helm");
  if (!testing::FileExists(helm3))
    GTEST_SKIP() << "no Helm 3 at " << helm3 << " (scripts/fetch-helm.sh)";
  // Piped into sh (what --post-renderer=sh would do), this rendered ConfigMap runs
  // `touch`: the line after "run: |" continues a pipeline.
  fs::path pwned = dir_ / "pwned";
  fs::path repo = dir_ / "repo";
  Chart(
      repo, "--post-renderer=sh",
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  run: |\n    touch " +
          pwned.string() +
          "\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app\nspec:\n"
          "  template:\n    spec:\n      containers:\n      - name: app\n"
          "        envFrom: [{configMapRef: {name: settings}}]\n");
  Argv env = {"HELM_CACHE_HOME=" + (dir_ / "helm-cache").string(),
              "HELM_CONFIG_HOME=" + (dir_ / "helm-config").string(),
              "HELM_DATA_HOME=" + (dir_ / "helm-data").string()};
  ProcessResult lint = RunIn(repo, {"lint", "--helm", helm3}, "", env);
  EXPECT_EQ(lint.exit_code, 0) << lint.err;
  EXPECT_THAT(lint.out, HasSubstr("references: 1 \u2014 hashed 1"));
  EXPECT_FALSE(fs::exists(pwned)) << "helm piped the chart into sh";
}

// --- helm get manifest (--previous-release) ---------------------------------------

constexpr const char* kNotFound = "echo 'Error: release: not found' >&2\nexit 1\n";

TEST_F(ExternalPrograms, ThePreviousReleaseIsOneArgumentAfterTheOptions) {
  std::string helm = StandIn("helm", kNotFound);
  ProcessResult render =
      Run({"render", "--helm", helm, "--previous-release", "edge", "-n", "prod"}, "");
  EXPECT_EQ(render.exit_code, 0) << render.err;
  EXPECT_THAT(Calls("helm"),
              ElementsAre(Argv{"get", "manifest", "--namespace=prod", "--", "edge"}));
}

TEST_F(ExternalPrograms, APreviousReleaseHelmWouldRefuseIsAUsageError) {
  std::string helm = StandIn("helm", kNotFound);
  for (const char* command : {"render", "lint"}) {
    Argv args = {command, "--helm", helm,
                 "--previous-release=--kube-apiserver=https://127.0.0.1:2"};
    if (command == std::string("lint")) args.push_back("-");
    ProcessResult result = Run(args);
    EXPECT_EQ(result.exit_code, 2) << command;
    EXPECT_EQ(result.out, "") << command;
    EXPECT_EQ(
        result.err,
        "rollcall: error: --previous-release: \"--kube-apiserver=https://127.0.0.1:2\" is not "
        "a valid Helm release name (Helm's rule: at most 53 characters, lowercase letters, "
        "digits, '-' and '.', each part between dots starting and ending with a letter or "
        "digit)\n")
        << command;
  }
  ProcessResult too_long =
      Run({"render", "--helm", helm, "--previous-release", std::string(54, 'a')});
  EXPECT_EQ(too_long.exit_code, 2);
  EXPECT_THAT(Calls("helm"), ElementsAre());
}

TEST_F(ExternalPrograms, ANamespaceKubernetesWouldRefuseIsAUsageError) {
  std::string helm = StandIn("helm", kNotFound);
  ProcessResult flag = Run(
      {"render", "--helm", helm, "--previous-release", "edge", "--namespace=--kubeconfig=/tmp/x"});
  EXPECT_EQ(flag.exit_code, 2);
  EXPECT_EQ(flag.out, "");
  EXPECT_EQ(
      flag.err,
      "rollcall: error: --namespace: \"--kubeconfig=/tmp/x\" is not a valid namespace name (a "
      "DNS-1123 label: at most 63 characters, lowercase letters, digits and '-', starting and "
      "ending with a letter or digit)\n");
  ProcessResult env =
      Run({"lint", "--helm", helm, "--previous-release", "edge", "-"}, "", {"HELM_NAMESPACE=-A"});
  EXPECT_EQ(env.exit_code, 2);
  EXPECT_THAT(env.err,
              HasSubstr("rollcall: error: $HELM_NAMESPACE: \"-A\" is not a valid namespace "
                        "name"));
  EXPECT_THAT(Calls("helm"), ElementsAre());
}

// --- What a program prints is input, and bounded ----------------------------------

TEST_F(ExternalPrograms, HelmTemplatePrintingPastTheInputLimitIsStopped) {
  std::string helm = StandIn("helm", Flood(dir_.string(), 1 << 20));
  fs::path chart = Chart(dir_, "chart");
  ProcessResult lint = Run({"lint", "--helm", helm, "--max-input-bytes=4096", chart.string()});
  EXPECT_EQ(lint.exit_code, 2);
  EXPECT_EQ(lint.out, testing::LintInputErrorReport(
                          "chart",
                          "helm printed more than 4096 bytes, the input limit (--max-input-bytes); "
                          "it was stopped"));
  // The chart as the user named it (under the working directory: relative).
  EXPECT_EQ(lint.err,
            "rollcall: error: chart: helm printed more than 4096 bytes, the input limit "
            "(--max-input-bytes); it was stopped\n");
  EXPECT_FALSE(fs::exists(dir_ / "finished")) << "helm ran to its end";
}

TEST_F(ExternalPrograms, HelmGetManifestPrintingPastTheInputLimitIsStopped) {
  std::string helm = StandIn("helm", Flood(dir_.string(), 1 << 20));
  ProcessResult render =
      Run({"render", "--helm", helm, "--previous-release", "edge", "--max-input-bytes=4096"}, "");
  EXPECT_EQ(render.exit_code, 2);
  EXPECT_EQ(render.out, "");
  EXPECT_EQ(render.err,
            "rollcall: error: helm get manifest edge: helm printed more than 4096 bytes, the input "
            "limit (--max-input-bytes); it was stopped\n");
  EXPECT_FALSE(fs::exists(dir_ / "finished")) << "helm ran to its end";
}

TEST_F(ExternalPrograms, KubectlPrintingPastTheInputLimitIsStopped) {
  std::string kubectl = StandIn("kubectl", Flood(dir_.string(), 1 << 20));
  ProcessResult render = Run({"render", "--lookup", "kubectl", "--max-input-bytes=4096"},
                             Consumer("a", {"s1"}), {"KUBECTL=" + kubectl});
  EXPECT_EQ(render.exit_code, 2);
  EXPECT_EQ(render.out, "");
  EXPECT_EQ(render.err,
            "rollcall: error: kubectl get secret -n a: kubectl printed more than 4096 bytes, the "
            "input limit (--max-input-bytes); it was stopped\n");
  EXPECT_FALSE(fs::exists(dir_ / "finished")) << "kubectl ran to its end";
}

TEST_F(ExternalPrograms, OnlyTheStartOfAProgramsStderrIsKept) {
  // 1 MiB of stderr, then a failure: the message shows the first 64 KiB.
  std::string helm =
      StandIn("helm", "i=0; while [ $i -lt 16384 ]; do echo '" + std::string(63, '.') +
                          "' >&2; i=$((i+1)); done\nexit 1\n");
  fs::path chart = Chart(dir_, "chart");
  ProcessResult lint = Run({"lint", "--helm", helm, chart.string()});
  EXPECT_EQ(lint.exit_code, 2);
  EXPECT_THAT(lint.out, ::testing::StartsWith("chart: error[input-error] helm template failed"));
  EXPECT_LT(lint.err.size(), std::size_t{70} << 10);
  EXPECT_THAT(lint.err, HasSubstr("helm template failed (exit 1): ....."));
  EXPECT_THAT(lint.err, ::testing::EndsWith("[983040 more bytes of stderr not shown]\n"));
}

}  // namespace
}  // namespace rollcall
