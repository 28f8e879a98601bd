// The binary as a user and Helm call it: arguments, exit codes, stdout and stderr.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "rollcall/rules.h"
#include "test_support.h"

namespace rollcall {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::RollcallBinary;
using testing::RunProcess;
using ::testing::StartsWith;

constexpr const char* kStream = R"(apiVersion: v1
kind: ConfigMap
metadata: {name: cfg, namespace: prod}
data: {a: "1"}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      containers: [{name: app, envFrom: [{configMapRef: {name: cfg}}]}]
)";

TEST(Cli, VersionAndHelp) {
  testing::ProcessResult version = RunProcess({RollcallBinary(), "--version"}, "");
  EXPECT_EQ(version.exit_code, 0);
  // The version, and the commit built from: git describe's, else "unknown".
  EXPECT_THAT(version.out, ::testing::MatchesRegex("rollcall [0-9]+\\.[0-9]+\\.[0-9]+ \\(commit "
                                                   "([0-9a-z.-]+|unknown)\\)\n"));
  testing::ProcessResult help = RunProcess({RollcallBinary(), "help"}, "");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, HasSubstr("render"));
  // Every name stands apart from its summary (the longest, "completion", ran into it).
  EXPECT_THAT(help.out, HasSubstr("  completion  print a shell's completions"));
  EXPECT_THAT(help.out, HasSubstr("  render      "));
  testing::ProcessResult render_help = RunProcess({RollcallBinary(), "render", "--help"}, "");
  EXPECT_EQ(render_help.exit_code, 0);
  EXPECT_THAT(render_help.out, HasSubstr("--namespace"));
}

TEST(Cli, NoSubcommandMeansRenderAsHelm3CallsIt) {
  testing::ProcessResult bare = RunProcess({RollcallBinary(), "--namespace=prod"}, kStream);
  testing::ProcessResult render =
      RunProcess({RollcallBinary(), "render", "--namespace", "prod"}, kStream);
  EXPECT_EQ(bare.exit_code, 0) << bare.err;
  EXPECT_EQ(bare.out, render.out);
  EXPECT_THAT(bare.out, HasSubstr("rollcall.dev/config-sources: \"configmap/cfg\""));
}

TEST(Cli, NamespaceFallsBackToHelmNamespace) {
  testing::ProcessResult result = RunProcess({RollcallBinary()}, kStream, {"HELM_NAMESPACE=prod"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_THAT(result.out, HasSubstr("rollcall.dev/config-hash"));
  testing::ProcessResult other = RunProcess({RollcallBinary()}, kStream, {"HELM_NAMESPACE=dev"});
  EXPECT_EQ(other.out, kStream);
  EXPECT_THAT(other.err, HasSubstr("error[unresolved-reference] Deployment dev/web reads "
                                   "configmap/cfg via envFrom in container app, but ConfigMap "
                                   "dev/cfg is not in the input"));
}

// The hash is the same whether and how rollcall was told the namespace: plain Helm 3,
// Helm 3 with --post-renderer-args=--namespace, Helm 4 (which tells a plugin none) and
// the pipe must not roll a workload for nothing (docs/hashing.md).
TEST(Cli, TheHashIsTheSameWhateverNamespaceRollcallIsTold) {
  const std::string stream =
      "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\nstringData: {password: s3cret}\n"
      "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n"
      "  template:\n    spec:\n      containers:\n      - name: app\n        env:\n"
      "        - name: P\n          valueFrom: {secretKeyRef: {name: db, key: password}}\n";
  auto hash_line = [](const std::string& out) {
    std::size_t at = out.find("rollcall.dev/config-hash: ");
    return at == std::string::npos ? std::string() : out.substr(at, out.find('\n', at) - at);
  };
  testing::ProcessResult plain =
      RunProcess({RollcallBinary(), "render"}, stream, {"HELM_NAMESPACE="});
  testing::ProcessResult flag = RunProcess({RollcallBinary(), "render", "-n", "demo"}, stream);
  testing::ProcessResult env =
      RunProcess({RollcallBinary(), "render"}, stream, {"HELM_NAMESPACE=demo"});
  // Every object naming the namespace itself, as charts that write
  // `namespace: {{ .Release.Namespace }}` do.
  std::string named = stream;
  for (std::size_t at = 0; (at = named.find("metadata: {name: ", at)) != std::string::npos; ++at) {
    named.replace(named.find('}', at), 1, ", namespace: demo}");
  }
  testing::ProcessResult explicit_ns =
      RunProcess({RollcallBinary(), "render"}, named, {"HELM_NAMESPACE="});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  // docs/hashing.md's encoding of Secret db {password: s3cret}, worked out by hand.
  EXPECT_EQ(hash_line(plain.out),
            "rollcall.dev/config-hash: "
            "\"sha256:3635c7112c41ce8d06d10501e7ba97b81880d52b0caff537b9bf064b788e1718\"");
  EXPECT_EQ(hash_line(flag.out), hash_line(plain.out));
  EXPECT_EQ(hash_line(env.out), hash_line(plain.out));
  EXPECT_EQ(hash_line(explicit_ns.out), hash_line(plain.out));
  // The namespace still names the objects (the JSON report lists every one).
  testing::ProcessResult report = RunProcess(
      {RollcallBinary(), "render", "-n", "demo", "--report=-", "--report-format=json"}, stream);
  EXPECT_THAT(report.err, HasSubstr("\"object\": \"Deployment demo/web\""));
}

// A non-optional key its source lacks means pods that never start: render stops the
// deploy whatever --fail-on says, as it does for immutable fields.
TEST(Cli, AMissingKeyStopsRenderWhateverFailOnSays) {
  const std::string stream =
      "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\nstringData: {password: s3cret}\n"
      "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n"
      "  template:\n    spec:\n      containers:\n      - name: app\n        env:\n"
      "        - name: P\n          valueFrom: {secretKeyRef: {name: db, key: pasword";
  testing::ProcessResult stopped = RunProcess({RollcallBinary(), "render", "--fail-on=never"},
                                              stream + "}}\n", {"HELM_NAMESPACE="});
  EXPECT_EQ(stopped.exit_code, 1);
  EXPECT_EQ(stopped.out, "");
  EXPECT_EQ(
      stopped.err,
      "rollcall: <stdin>:16:53: error[missing-key] Secret default/db has no key "
      "\"pasword\", which Deployment default/web reads: the container would fail to start "
      "(CreateContainerConfigError: couldn't find key pasword in Secret default/db)\n"
      "rollcall: references: 1 \u2014 hashed 1, waived 0, pending 0, runtime 0, unresolved 0\n"
      "rollcall: rollout: nothing (render stopped)\n"
      "rollcall: error: findings that would fail the deploy (missing-key); nothing written\n");
  testing::ProcessResult optional = RunProcess(
      {RollcallBinary(), "render"}, stream + ", optional: true}}\n", {"HELM_NAMESPACE="});
  EXPECT_EQ(optional.exit_code, 0) << optional.err;
  testing::ProcessResult disabled =
      RunProcess({RollcallBinary(), "render", "--disable", "missing-key"}, stream + "}}\n",
                 {"HELM_NAMESPACE="});
  EXPECT_EQ(disabled.exit_code, 0) << disabled.err;
  EXPECT_NE(disabled.out, "");
}

TEST(Cli, UnknownOptionIsAUsageError) {
  testing::ProcessResult result = RunProcess({RollcallBinary(), "--no-such-flag"}, kStream);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_THAT(result.err, StartsWith("rollcall: error: "));
  EXPECT_THAT(result.err, HasSubstr("no-such-flag"));
}

TEST(Cli, PositionalArgumentIsAUsageError) {
  testing::ProcessResult result = RunProcess({RollcallBinary(), "render", "file.yaml"}, kStream);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err,
            "rollcall: error: render takes no arguments, got 'file.yaml' (the stream comes on "
            "stdin)\n");
}

TEST(Cli, BadInputExitsTwoWithNothingOnStdout) {
  std::string stream = std::string(kStream) + "---\n# Source: c/templates/x.yaml\nkind: [\n";
  testing::ProcessResult result = RunProcess({RollcallBinary()}, stream);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_THAT(result.err, StartsWith("rollcall: error: <stdin> (document 3, line 16, column 1, "
                                     "from c/templates/x.yaml): invalid YAML"));
}

// Runs `rollcall ARGS` with `input` on stdin through a pipe, or redirected from a file.
testing::ProcessResult RunOnStdin(const std::string& input, bool pipe,
                                  const std::string& args = "") {
  std::string path = testing::TempFile(input);
  std::string script = pipe ? "cat \"$1\" | \"$0\" " + args : "exec \"$0\" " + args + " < \"$1\"";
  testing::ProcessResult result = RunProcess({"/bin/sh", "-c", script, RollcallBinary(), path}, "");
  std::remove(path.c_str());
  return result;
}

TEST(Cli, InputOverTheLimitIsRefused) {
  for (bool pipe : {true, false}) {
    testing::ProcessResult result = RunOnStdin(kStream, pipe, "--max-input-bytes=100");
    EXPECT_EQ(result.exit_code, 2) << pipe;
    EXPECT_EQ(result.out, "") << pipe;
    EXPECT_EQ(result.err,
              "rollcall: error: <stdin>: input is larger than the limit of 100 bytes "
              "(--max-input-bytes)\n")
        << pipe;
  }
}

// Standard input's buffer grows by doubling up to one byte past the limit: an input
// of exactly the limit is read whole, one byte more is refused, at limits below, at
// and past its first mapping (1 MiB) and between doublings.
TEST(Cli, InputOfExactlyTheLimitIsReadAndOneByteMoreIsNot) {
  for (std::size_t limit : {std::size_t{100}, (std::size_t{1} << 20) - 1, std::size_t{1} << 20,
                            (std::size_t{1} << 20) + 1, (std::size_t{3} << 20) + 5}) {
    std::string exactly = std::string(limit - 1, '#') + "\n";  // one comment line
    std::string args = "--max-input-bytes=" + std::to_string(limit);
    for (bool pipe : {true, false}) {
      testing::ProcessResult fits = RunOnStdin(exactly, pipe, args);
      EXPECT_EQ(fits.exit_code, 0) << limit << " " << pipe << ": " << fits.err;
      EXPECT_EQ(fits.out, exactly) << limit << " " << pipe;
      testing::ProcessResult over = RunOnStdin(exactly + "#", pipe, args);
      EXPECT_EQ(over.exit_code, 2) << limit << " " << pipe;
      EXPECT_EQ(over.out, "") << limit << " " << pipe;
      EXPECT_EQ(over.err, "rollcall: error: <stdin>: input is larger than the limit of " +
                              std::to_string(limit) + " bytes (--max-input-bytes)\n")
          << limit << " " << pipe;
    }
  }
}

// `lint -` reads standard input (a pipe or a redirected file) as one more input, named
// <stdin> in its findings.
TEST(Cli, LintReadsStandardInputForDash) {
  const std::string pending =
      "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n---\n"
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\n"
      "spec:\n  template:\n    spec:\n      containers:\n      - name: api\n"
      "        envFrom:\n        # SECRET-VERSION: pending\n"
      "        - secretRef: {name: s}\n";
  for (bool pipe : {true, false}) {
    testing::ProcessResult result = RunOnStdin(pending, pipe, "lint -");
    EXPECT_EQ(result.exit_code, 1) << pipe;
    EXPECT_EQ(result.out,
              "<stdin>:15:29: error[pending-marker] Deployment default/api reads secret/s via "
              "envFrom in container api and its SECRET-VERSION marker says pending: a change "
              "to it does not reach the process yet\n"
              "references: 1 \u2014 hashed 0, waived 0, pending 1, runtime 0, unresolved 0\n"
              "1 error\n")
        << pipe;
  }
}

// lint parses only the objects it reads, as render does: a CRD's syntax error or
// duplicate key (which only a parse finds) is the API server's to report, a
// ConfigMap's is lint's. Parsing every CRD made lint 17 times render on real charts.
TEST(Cli, LintParsesOnlyTheObjectsItReads) {
  const std::string stream =
      "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
      "metadata: {name: w.example.com}\nspec:\n  group: example.com\n  group: again\n"
      "  a: b\n c: d\n---\n"
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  k: one\n  k: two\n";
  testing::ProcessResult result = RunOnStdin(stream, /*pipe=*/true, "lint -");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out,
            "<stdin>:15:3: error[duplicate-key] key \"k\" appears again in this mapping (first "
            "at line 14); Kubernetes applies the last one and silently drops the first\n"
            "references: 0 \u2014 hashed 0, waived 0, pending 0, runtime 0, unresolved 0\n"
            "1 error\n");
  EXPECT_EQ(result.err, "");
}

TEST(Cli, StdinFromAFileReadsAsFromAPipe) {
  // Both are read into one buffer that grows in place (input_bytes.h): sizes around
  // its first mapping (1 MiB) and past a doubling.
  for (const std::string& input : {std::string(kStream), std::string(), std::string(3 << 20, '#'),
                                   std::string((1 << 20) - 1, '#'), std::string(1 << 20, '#'),
                                   std::string((1 << 20) + 1, '#'), std::string(2 << 20, '#')}) {
    testing::ProcessResult piped = RunOnStdin(input, true);
    testing::ProcessResult from_file = RunOnStdin(input, false);
    EXPECT_EQ(piped.exit_code, 0) << input.size();
    EXPECT_EQ(from_file.exit_code, 0) << input.size();
    EXPECT_EQ(from_file.out, piped.out) << input.size();
    EXPECT_EQ(from_file.err, piped.err) << input.size();
    if (input.empty() || input[0] == '#') {  // a comment: written back as it came
      EXPECT_TRUE(piped.out == input) << input.size();
    }
  }
}

TEST(Cli, RenderWritesManyConsumersAsItWritesOne) {
  // Render writes its output a chunk of 4,096 consumers at a time, planning each
  // chunk's edits again as it goes (render.h's RenderPlan), and prints the rollout in
  // writes of 64 KiB: 5,000 Deployments take two chunks and over 200 KiB of rollout.
  const std::string secret = "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {k: dg==}\n";
  auto deployment = [](int i) {
    return "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d" + std::to_string(i) +
           "}\nspec: {template: {spec: {containers: [{name: a, envFrom: [{secretRef: {name: "
           "s}}]}]}}}\n";
  };
  testing::ProcessResult one = RunProcess({RollcallBinary(), "render"}, secret + deployment(0));
  ASSERT_EQ(one.exit_code, 0) << one.err;
  ASSERT_THAT(one.out, StartsWith(secret));
  const std::string rendered = one.out.substr(secret.size());  // d0 as rendered
  ASSERT_THAT(rendered, HasSubstr("rollcall.dev/config-hash"));
  const std::string name = "{name: d0}";
  const std::size_t at = rendered.find(name);
  ASSERT_NE(at, std::string::npos);
  std::string input = secret;
  std::string expected = secret;
  std::string rollout;
  constexpr int kConsumers = 5000;
  for (int i = 0; i < kConsumers; ++i) {
    input += deployment(i);
    expected += rendered.substr(0, at) + "{name: d" + std::to_string(i) + "}" +
                rendered.substr(at + name.size());
  }
  // Counted on one line, not a line each (RolloutLines).
  rollout = "rollcall: rollout: " + std::to_string(kConsumers) + " new\n";
  testing::ProcessResult many = RunProcess({RollcallBinary(), "render"}, input);
  EXPECT_EQ(many.exit_code, 0);
  EXPECT_TRUE(many.out == expected) << "the output differs from d0's edit repeated";
  EXPECT_THAT(many.err, HasSubstr(rollout));
}

TEST(Cli, InputLimitOverFourGibibytesIsRefused) {
  // Line offsets are 32-bit (stream.h's LineIndex).
  testing::ProcessResult result =
      RunProcess({RollcallBinary(), "--max-input-bytes=4294967296"}, kStream);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err, "rollcall: error: --max-input-bytes: at most 4294967295\n");
}

TEST(Cli, DeepNestingIsRefusedBeforeParsing) {
  std::string deep = "a: " + std::string(100000, '[') + "\n";
  testing::ProcessResult result = RunProcess({RollcallBinary()}, deep);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err,
            "rollcall: error: <stdin> (document 1, line 1, column 515): nesting deeper than 512 "
            "levels; rollcall refuses to parse it\n");
}

TEST(Cli, EmptyInputGivesEmptyOutput) {
  testing::ProcessResult result = RunProcess({RollcallBinary()}, "");
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err,
            "rollcall: references: 0 \u2014 hashed 0, waived 0, pending 0, runtime 0, "
            "unresolved 0\n");
}

TEST(Cli, StrictRenderIsAGate) {
  std::string pending = std::string(kStream) +
                        "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\n"
                        "spec:\n  template:\n    spec:\n      containers:\n      - name: api\n"
                        "        envFrom:\n        # SECRET-VERSION: pending\n"
                        "        - secretRef: {name: platform-secrets}\n";
  testing::ProcessResult lenient = RunProcess({RollcallBinary(), "-n", "prod"}, pending);
  EXPECT_EQ(lenient.exit_code, 0);
  EXPECT_NE(lenient.out, "");
  EXPECT_THAT(lenient.err, HasSubstr("error[pending-marker]"));
  testing::ProcessResult strict =
      RunProcess({RollcallBinary(), "render", "-n", "prod", "--strict"}, pending);
  EXPECT_EQ(strict.exit_code, 1);
  EXPECT_EQ(strict.out, "");
  EXPECT_THAT(strict.err,
              HasSubstr("<stdin>:24:29: error[pending-marker] "
                        "Deployment prod/api reads secret/platform-secrets via envFrom in "
                        "container api and its SECRET-VERSION marker says pending"));
  EXPECT_THAT(strict.err, HasSubstr("rollcall: references: 2 \u2014 hashed 1, waived 0, "
                                    "pending 1, runtime 0, unresolved 0\n"));
  EXPECT_THAT(strict.err,
              HasSubstr("--strict: findings at error or warning severity; nothing written"));
}

// --fail-on chooses what stops render (default never) and what fails lint (default
// error); --strict is --fail-on warning and cannot go with another value.
TEST(Cli, FailOnChoosesWhatFails) {
  std::string unresolved = std::string(kStream) +
                           "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\n"
                           "spec:\n  template:\n    spec:\n      containers:\n      - name: api\n"
                           "        envFrom:\n        - secretRef: {name: elsewhere}\n";
  auto render = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {RollcallBinary(), "render", "-n", "prod"});
    return RunProcess(args, unresolved);
  };
  EXPECT_EQ(render({}).exit_code, 0);
  EXPECT_EQ(render({"--fail-on", "never"}).exit_code, 0);
  testing::ProcessResult gate = render({"--fail-on=error"});
  EXPECT_EQ(gate.exit_code, 1);
  EXPECT_EQ(gate.out, "");
  EXPECT_THAT(gate.err, HasSubstr("rollcall: error: --fail-on error: findings at error severity; "
                                  "nothing written\n"));
  testing::ProcessResult bad = render({"--fail-on", "sometimes"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err, "rollcall: error: --fail-on must be error, warning or never\n");
  testing::ProcessResult both = render({"--strict", "--fail-on", "error"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_EQ(both.err,
            "rollcall: error: --strict is --fail-on warning: it cannot go with --fail-on error\n");

  auto lint = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {RollcallBinary(), "lint", "-n", "prod"});
    args.push_back("-");
    return RunProcess(args, unresolved);
  };
  EXPECT_EQ(lint({}).exit_code, 1);
  EXPECT_EQ(lint({"--fail-on", "never"}).exit_code, 0);
  EXPECT_EQ(lint({"--fail-on", "warning"}).exit_code, 1);
}

// Conventions of the command line: `help CMD`, and a typo gets the nearest name.
TEST(Cli, HelpForACommandAndNamesForTypos) {
  testing::ProcessResult help = RunProcess({RollcallBinary(), "help", "lint"}, "");
  testing::ProcessResult own = RunProcess({RollcallBinary(), "lint", "--help"}, "");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_EQ(help.out, own.out);
  EXPECT_THAT(help.out, HasSubstr("rollcall lint [OPTION...]"));
  testing::ProcessResult typo = RunProcess({RollcallBinary(), "lnt"}, "");
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_EQ(typo.out, "");
  EXPECT_EQ(typo.err,
            "rollcall: error: unknown command \"lnt\"; did you mean \"lint\"? (rollcall help "
            "lists the commands)\n");
  testing::ProcessResult far = RunProcess({RollcallBinary(), "help", "deploy"}, "");
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_EQ(far.err,
            "rollcall: error: unknown command \"deploy\" (rollcall help lists the commands)\n");
  testing::ProcessResult flag = RunProcess({RollcallBinary(), "lint", "--nmespace=x", "-"}, "");
  EXPECT_EQ(flag.exit_code, 2);
  EXPECT_EQ(flag.err,
            "rollcall: error: unknown option --nmespace; did you mean --namespace? (see rollcall "
            "lint --help)\n");
  // Helm 3 calls the bare binary with options only: those still mean render.
  testing::ProcessResult bare = RunProcess({RollcallBinary(), "--namespace=prod"}, kStream);
  EXPECT_EQ(bare.exit_code, 0);
}

// Each command's --help, exactly: its own option groups with value names and one
// default each, then its exit codes. testdata/cli/help/<command>.txt; to update after a
// change read the diff of `rollcall CMD --help > testdata/cli/help/CMD.txt`.
TEST(Cli, HelpOfEachCommandIsItsGoldenFile) {
  for (const char* command : {"render", "lint", "consumers", "roll", "krm", "rules"}) {
    testing::ProcessResult help = RunProcess({RollcallBinary(), command, "--help"}, "");
    EXPECT_EQ(help.exit_code, 0) << command;
    EXPECT_EQ(help.out,
              testing::ReadFile(testing::TestdataPath("cli/help/" + std::string(command) + ".txt")))
        << command;
    EXPECT_THAT(help.out, Not(HasSubstr(" arg "))) << command;
    EXPECT_THAT(help.out, Not(HasSubstr("(default: \"\")"))) << command;
  }
}

// The manual page and the completions are made from the tables --help prints: every
// option --help lists is in both, and each renders or loads without complaint.
TEST(Cli, ManPageAndCompletionsSayWhatHelpSays) {
  testing::ProcessResult man = RunProcess({RollcallBinary(), "man"}, "");
  ASSERT_EQ(man.exit_code, 0);
  testing::ProcessResult bash = RunProcess({RollcallBinary(), "completion", "bash"}, "");
  ASSERT_EQ(bash.exit_code, 0);
  testing::ProcessResult fish = RunProcess({RollcallBinary(), "completion", "fish"}, "");
  ASSERT_EQ(fish.exit_code, 0);
  for (const char* command : {"render", "lint", "consumers", "krm", "rules"}) {
    std::string help = RunProcess({RollcallBinary(), command, "--help"}, "").out;
    std::string bash_line;  // "    lint) opts=\"--namespace -n …\"; …"
    std::size_t at = bash.out.find("    " + std::string(command) + ") opts=\"");
    if (at != std::string::npos) bash_line = bash.out.substr(at, bash.out.find('\n', at) - at);
    for (std::size_t dash = help.find("--"); dash != std::string::npos;
         dash = help.find("--", dash + 2)) {
      std::size_t end = help.find_first_of(" \n,=)", dash);
      std::string option = help.substr(dash, end - dash);
      if (option.size() < 3 || help[dash - 1] != ' ' || help.rfind("      ", dash) + 6 < dash) {
        continue;  // not an option's own line: "--fail-on" quoted in a description
      }
      EXPECT_TRUE(bash_line.find(option + " ") != std::string::npos ||
                  bash_line.find(option + "\"") != std::string::npos)
          << command << " " << option << ": " << bash_line;
      std::string roff;  // roff writes each hyphen of an option's name as \-
      for (char c : option) roff += c == '-' ? std::string("\\-") : std::string(1, c);
      EXPECT_THAT(man.out, HasSubstr("\\fB" + roff + "\\fR")) << command << " " << option;
      EXPECT_THAT(fish.out, HasSubstr("__fish_seen_subcommand_from " + std::string(command) +
                                      "' -l " + option.substr(2)))
          << command << " " << option;
    }
  }
  // man renders it without a warning.
  testing::ProcessResult rendered = RunProcess(
      {"/bin/sh", "-c", "PATH=/usr/bin:/bin MANWIDTH=80 man --warnings -l - 2>&1 >/dev/null"},
      man.out);
  EXPECT_EQ(rendered.exit_code, 0);
  EXPECT_EQ(rendered.out, "");
  // bash loads the completion and completes a command and an option.
  testing::ProcessResult loaded = RunProcess(
      {"/bin/bash", "-c",
       "source /dev/stdin; complete -p rollcall; COMP_WORDS=(rollcall lnt); COMP_CWORD=1; "
       "COMP_WORDS=(rollcall li); _rollcall; echo \"${COMPREPLY[*]}\"; "
       "COMP_WORDS=(rollcall lint --fail); COMP_CWORD=2; _rollcall; echo \"${COMPREPLY[*]}\""},
      bash.out);
  EXPECT_EQ(loaded.out, "complete -o filenames -F _rollcall rollcall\nlint\n--fail-on\n");
  testing::ProcessResult wrong = RunProcess({RollcallBinary(), "completion", "tcsh"}, "");
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_EQ(wrong.err, "rollcall: error: completion takes one shell: bash, zsh or fish\n");
}

TEST(Cli, RulesAsJsonAreTheRegistry) {
  testing::ProcessResult json = RunProcess({RollcallBinary(), "rules", "--format", "json"}, "");
  EXPECT_EQ(json.exit_code, 0);
  nlohmann::json rules = nlohmann::json::parse(json.out);
  ASSERT_EQ(rules.size(), Rules().size());
  for (std::size_t i = 0; i < rules.size(); ++i) {
    EXPECT_EQ(rules[i]["id"], Rules()[i].id);
    EXPECT_EQ(rules[i]["severity"], SeverityName(Rules()[i].severity));
    EXPECT_EQ(rules[i]["fix"], Rules()[i].fix);
  }
}

// kube-linter's switches: rules on and off from the command line, the report to a
// file, quiet text, colour on demand and never by default off a terminal.
TEST(Cli, LintSwitches) {
  const std::string pod = testing::TestdataPath("lint/bare-pod");
  testing::ProcessResult off = RunProcess(
      {RollcallBinary(), "lint", "--disable", "bare-pod", "--disable=missing-key", pod}, "");
  EXPECT_EQ(off.exit_code, 0);
  EXPECT_THAT(off.out, HasSubstr("no findings\n"));
  testing::ProcessResult on = RunProcess(
      {RollcallBinary(), "lint", "--disable", "bare-pod", "--enable", "bare-pod", pod}, "");
  EXPECT_THAT(on.out, HasSubstr("error[bare-pod]"));
  testing::ProcessResult unknown =
      RunProcess({RollcallBinary(), "lint", "--enable", "nope", pod}, "");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(unknown.err,
            "rollcall: error: --enable: unknown rule \"nope\" (rollcall rules lists them)\n");

  testing::ProcessResult quiet = RunProcess({RollcallBinary(), "lint", "-q", pod}, "");
  EXPECT_EQ(quiet.exit_code, 1);
  EXPECT_THAT(quiet.out, Not(HasSubstr("references:")));
  EXPECT_THAT(quiet.out, HasSubstr("error[bare-pod]"));

  std::string report = testing::TempFile("");
  testing::ProcessResult to_file = RunProcess({RollcallBinary(), "lint", "-o", report, pod}, "");
  EXPECT_EQ(to_file.exit_code, 1);
  EXPECT_EQ(to_file.out, "");
  EXPECT_THAT(testing::ReadFile(report), HasSubstr("1 error\n"));

  testing::ProcessResult plain = RunProcess({RollcallBinary(), "lint", pod}, "");
  EXPECT_THAT(plain.out, Not(HasSubstr("\x1b[")));
  testing::ProcessResult always =
      RunProcess({RollcallBinary(), "lint", "--color=always", pod}, "", {"NO_COLOR=1"});
  EXPECT_THAT(always.out, HasSubstr("\x1b[31merror\x1b[0m[bare-pod]"));
  testing::ProcessResult bad = RunProcess({RollcallBinary(), "lint", "--color=sometimes", pod}, "");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err, "rollcall: error: --color must be auto, always or never\n");
}

// Under Helm 4 the report is the only place a user sees anything: a mistyped flag or
// a bad value must land there too, from --report or $ROLLCALL_REPORT.
TEST(Cli, UsageErrorsReachTheReport) {
  std::string report = testing::TempFile("");
  testing::ProcessResult flag =
      RunProcess({RollcallBinary(), "render", "--report", report, "--no-such-flag"}, kStream);
  EXPECT_EQ(flag.exit_code, 2);
  EXPECT_EQ(flag.out, "");
  EXPECT_EQ(testing::ReadFile(report),
            "{\n  \"error\": \"unknown option --no-such-flag (see rollcall render --help)\"\n}\n");
  testing::ProcessResult value = RunProcess({RollcallBinary(), "render", "--fail-on=maybe"},
                                            kStream, {"ROLLCALL_REPORT=" + report});
  EXPECT_EQ(value.exit_code, 2);
  EXPECT_EQ(testing::ReadFile(report),
            "{\n  \"error\": \"--fail-on must be error, warning or never\"\n}\n");
  testing::ProcessResult positional =
      RunProcess({RollcallBinary(), "render", "--report=" + report, "extra.yaml"}, kStream);
  EXPECT_EQ(positional.exit_code, 2);
  EXPECT_THAT(testing::ReadFile(report), HasSubstr("render takes no arguments, got 'extra.yaml'"));
}

}  // namespace
}  // namespace rollcall

namespace rollcall {
namespace {

TEST(Cli, RulesMarkdownIsDocsRulesMd) {
  testing::ProcessResult result =
      testing::RunProcess({testing::RollcallBinary(), "rules", "--format", "markdown"}, "");
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.out, testing::ReadFile(testing::TestdataPath("../docs/rules.md")))
      << "regenerate: build/rollcall rules --format markdown > docs/rules.md";
}

TEST(Cli, RulesTextListsEveryRuleWithSeverity) {
  testing::ProcessResult result = testing::RunProcess({testing::RollcallBinary(), "rules"}, "");
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_THAT(result.out,
              ::testing::StartsWith("pending-marker (error): A reference is marked SECRET-VERSION: "
                                    "pending.\nunresolved-reference (error): "));
}

}  // namespace
}  // namespace rollcall

namespace rollcall {
namespace {

std::string KeyFile(const std::string& name, const std::string& key) {
  std::string path = "/tmp/rollcall-cli-test-" + name;
  std::ofstream(path, std::ios::binary) << key;
  return path;
}

std::string ConfigHashLine(const std::string& out) {
  std::size_t at = out.find("rollcall.dev/config-hash: ");
  return at == std::string::npos ? "" : out.substr(at, out.find('\n', at) - at);
}

TEST(Cli, HmacKeyFileGivesAKeyedHash) {
  std::string one = KeyFile("one", "first key\n");
  std::string same = KeyFile("same", "first key");
  std::string two = KeyFile("two", "second key\n");
  testing::ProcessResult a =
      RunProcess({testing::RollcallBinary(), "-n", "prod", "--hmac-key-file", one}, kStream);
  testing::ProcessResult b = RunProcess({testing::RollcallBinary(), "-n", "prod"}, kStream,
                                        {"ROLLCALL_HMAC_KEY_FILE=" + same});
  testing::ProcessResult c =
      RunProcess({testing::RollcallBinary(), "-n", "prod", "--hmac-key-file", two}, kStream);
  testing::ProcessResult plain = RunProcess({testing::RollcallBinary(), "-n", "prod"}, kStream);
  EXPECT_THAT(ConfigHashLine(a.out),
              ::testing::MatchesRegex("rollcall.dev/config-hash: \"hmac-sha256:[0-9a-f]{64}\""));
  EXPECT_EQ(ConfigHashLine(a.out), ConfigHashLine(b.out)) << "one trailing newline is dropped";
  EXPECT_NE(ConfigHashLine(a.out), ConfigHashLine(c.out));
  EXPECT_THAT(ConfigHashLine(plain.out), HasSubstr("\"sha256:"));
  for (const std::string& path : {one, same, two}) std::remove(path.c_str());
}

TEST(Cli, MissingHmacKeyFileNamesThePathOnly) {
  testing::ProcessResult result =
      RunProcess({testing::RollcallBinary(), "--hmac-key-file", "/nonexistent/key"}, kStream);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err,
            "rollcall: error: /nonexistent/key: cannot read the HMAC key file: No such file or "
            "directory\n");
  std::string empty = KeyFile("empty", "\n");
  testing::ProcessResult blank =
      RunProcess({testing::RollcallBinary(), "--hmac-key-file", empty}, kStream);
  EXPECT_EQ(blank.exit_code, 2);
  EXPECT_EQ(blank.err, "rollcall: error: " + empty + ": the HMAC key file is empty\n");
  std::remove(empty.c_str());
}

}  // namespace
}  // namespace rollcall
