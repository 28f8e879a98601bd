// The binary against hostile names, arguments and output paths (docs/security.md):
// no option value split at commas, patterns compiled and bounded once, the report
// never written through a symbolic link, a failed stdout write said, and names
// printed with their control characters escaped.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "test_support.h"

namespace rollcall {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::ProcessResult;
using testing::RollcallBinary;
using testing::RunProcess;

constexpr const char* kSecret = R"(apiVersion: v1
kind: Secret
metadata: {name: token}
stringData: {value: one-time}
)";

std::string PlainJob(const std::string& name) {
  return "---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: " + name +
         "}\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n"
         "      - {name: boot, image: x, envFrom: [{secretRef: {name: token}}]}\n";
}

// A scratch directory, removed with everything in it.
class ScratchDir {
 public:
  ScratchDir() {
    char name[] = "/tmp/rollcall-hardening-XXXXXX";
    path_ = mkdtemp(name);
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

void Write(const std::string& path, const std::string& content) {
  std::ofstream(path, std::ios::binary) << content;
}

// --- options are never split at commas -----------------------------------------

TEST(CommaInArguments, RunOncePatternWithARepetitionIsOnePattern) {
  // cxxopts split "-boot-[0-9a-f]{8,12}$" into "-boot-[0-9a-f]{8" and "12}$": the
  // first is not valid RE2, the second matched nothing, and the bootstrap Job was
  // renamed and would have run again with its spent token.
  std::string input = std::string(kSecret) + PlainJob("edge-boot-1a2b3c4d5e");
  ProcessResult result =
      RunProcess({RollcallBinary(), "render", "--run-once-pattern=-boot-[0-9a-f]{8,12}$"}, input);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, input);  // run-once: neither renamed nor annotated
  EXPECT_THAT(result.err, HasSubstr("waived 1"));
}

TEST(CommaInArguments, FileNameWithACommaIsOnePath) {
  ScratchDir dir;
  // The file's Deployment reads a Secret nobody defines: lint must fail on it. Split
  // at the comma, lint looked for "a" and "b.yaml" instead.
  Write(dir / "a,b.yaml",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n"
        "    spec:\n      containers: [{name: app, envFrom: [{secretRef: {name: db}}]}]\n");
  Write(dir / "b.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other}\n");
  ProcessResult result = RunProcess(
      {"/bin/sh", "-c", "cd \"$1\" && exec \"$0\" lint 'a,b.yaml'", RollcallBinary(), dir.path()},
      "");
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_THAT(result.out, HasSubstr("a,b.yaml:"));
  EXPECT_THAT(result.out, HasSubstr("unresolved-reference"));
}

TEST(CommaInArguments, SetValueWithABraceListReachesHelmWhole) {
  ScratchDir dir;
  fs::create_directory(dir / "chart");
  Write(dir / "chart/Chart.yaml", "apiVersion: v2\nname: chart\nversion: 0.1.0\n");
  // A stand-in helm: records its arguments, one a line, and renders nothing.
  Write(dir / "helm", "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$(dirname \"$0\")/argv\"\n");
  chmod((dir / "helm").c_str(), 0755);
  ProcessResult result = RunProcess({RollcallBinary(), "lint", "--helm", dir / "helm", "--set",
                                     "list={a,b}", "--set", "x=1,y=2", dir / "chart"},
                                    "");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  std::string argv = testing::ReadFile(dir / "argv");
  EXPECT_THAT(argv, HasSubstr("list={a,b}\n"));
  EXPECT_THAT(argv, HasSubstr("x=1,y=2\n"));
}

// --- limits ----------------------------------------------------------------------

// The commands that read a stream from standard input: `rollcall render` and
// `rollcall lint -`.
const std::vector<std::vector<std::string>> kStdinCommands = {{"render"}, {"lint", "-"}};

// Runs `command` with --max-documents=`limit` on `input`.
ProcessResult RunWithMaxDocuments(const std::vector<std::string>& command, const std::string& limit,
                                  const std::string& input) {
  std::vector<std::string> argv = {RollcallBinary()};
  argv.insert(argv.end(), command.begin(), command.end());
  argv.push_back("--max-documents=" + limit);
  return RunProcess(argv, input);
}

// A document's span holds its index in 27 bits: a larger --max-documents could not
// be kept, so it is refused rather than wrapped.
// A duration past a double's range made std::stod throw and roll abort (exit 134):
// it is a usage error like any duration over a day.
TEST(Limits, RollDurationsPastADoublesRangeAreUsageErrors) {
  const std::string huge(400, '9');
  for (const char* option : {"--timeout", "--interval"}) {
    ProcessResult result =
        RunProcess({RollcallBinary(), "roll", option, huge + "s", "secret/db"}, "");
    EXPECT_EQ(result.exit_code, 2) << option << result.err;
    EXPECT_EQ(result.out, "") << option;
    EXPECT_THAT(result.err, HasSubstr(std::string(option) +
                                      " must be a duration such as 90s, 5m or 1h (at most a day)"))
        << option;
  }
}

TEST(Limits, MaxDocumentsIsBoundedByWhatASpanHolds) {
  for (const std::vector<std::string>& command : kStdinCommands) {
    ProcessResult over = RunWithMaxDocuments(command, "134217728", kSecret);
    EXPECT_EQ(over.exit_code, 2) << command[0];
    EXPECT_EQ(over.out, "") << command[0];
    EXPECT_THAT(over.err, HasSubstr("rollcall: error: --max-documents: at most 134217727\n"))
        << command[0];
    ProcessResult most = RunWithMaxDocuments(command, "134217727", kSecret);
    EXPECT_EQ(most.exit_code, 0) << command[0] << most.err;
  }
}

// Render read its standard input with the default limit whatever --max-documents
// said: a stream past the default was refused even when the limit was raised.
TEST(Limits, MaxDocumentsIsTheOneGivenForRenderAndLint) {
  const std::string three = std::string(kSecret) + "---\n" + kSecret + "---\n" + kSecret;
  for (const std::vector<std::string>& command : kStdinCommands) {
    ProcessResult over = RunWithMaxDocuments(command, "2", three);
    EXPECT_EQ(over.exit_code, 2) << command[0];
    if (command[0] == "render") {
      EXPECT_EQ(over.out, "");
      EXPECT_THAT(over.err, HasSubstr("rollcall: error: <stdin> (document 3, line 10, column 1): "
                                      "more than 2 documents"));
    } else {  // lint reports it as a finding, at the third document's "---" line
      EXPECT_THAT(over.out, HasSubstr("<stdin>:10:1: error[input-error] more than 2 documents"));
    }
    ProcessResult enough = RunWithMaxDocuments(command, "3", three);
    EXPECT_EQ(enough.exit_code, 0) << command[0] << enough.err;
  }
}

// --- run-once patterns -----------------------------------------------------------

TEST(RunOncePatterns, AnInvalidPatternIsRefusedEvenWithoutJobs) {
  ProcessResult result = RunProcess({RollcallBinary(), "render", "--run-once-pattern=("}, kSecret);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err,
            "rollcall: error: run-once patterns: \"(\" is not a valid RE2: missing ): (\n");
}

TEST(RunOncePatterns, SizeAndNumberAreBounded) {
  ProcessResult long_one = RunProcess(
      {RollcallBinary(), "render", "--run-once-pattern=" + std::string(1025, 'a')}, kSecret);
  EXPECT_EQ(long_one.exit_code, 2);
  EXPECT_EQ(long_one.out, "");
  EXPECT_EQ(long_one.err,
            "rollcall: error: run-once patterns: a pattern of 1025 bytes, more than the limit "
            "of 1024\n");
  std::vector<std::string> argv = {RollcallBinary(), "render"};
  for (int i = 0; i < 65; ++i) argv.push_back("--run-once-pattern=p" + std::to_string(i));
  ProcessResult many = RunProcess(argv, kSecret);
  EXPECT_EQ(many.exit_code, 2);
  EXPECT_EQ(many.err,
            "rollcall: error: run-once patterns: 65 patterns, more than the limit of 64\n");
}

TEST(RunOncePatterns, PatternsFromTheConfigCountToo) {
  ScratchDir dir;
  std::string config = "runOnce:\n";
  for (int i = 0; i < 40; ++i) config += "  - p" + std::to_string(i) + "\n";
  Write(dir / "config.yaml", config);
  std::vector<std::string> argv = {RollcallBinary(), "render", "--config", dir / "config.yaml"};
  for (int i = 0; i < 25; ++i) argv.push_back("--run-once-pattern=q" + std::to_string(i));
  ProcessResult result = RunProcess(argv, kSecret);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr("65 patterns, more than the limit of 64"));
}

// A pattern is matched against names only as long as an object's name can be: one
// longer is no Job the API server creates (64 patterns against a 100 KB name took
// 81 s), and is never run-once.
TEST(RunOncePatterns, ANameLongerThanAnObjectsIsNeverMatched) {
  std::string fits = std::string(kSecret) + PlainJob(std::string(253, 'a'));
  ProcessResult matched = RunProcess({RollcallBinary(), "render", "--run-once-pattern=^a"}, fits);
  EXPECT_EQ(matched.exit_code, 0) << matched.err;
  EXPECT_EQ(matched.out, fits);  // run-once: left as it is
  std::string too_long = std::string(kSecret) + PlainJob(std::string(254, 'a'));
  ProcessResult unmatched =
      RunProcess({RollcallBinary(), "render", "--run-once-pattern=^a"}, too_long);
  EXPECT_EQ(unmatched.exit_code, 0) << unmatched.err;
  EXPECT_THAT(unmatched.out, HasSubstr("rollcall.dev/job-name"));  // renamed, as any Job
  EXPECT_THAT(unmatched.err, HasSubstr("waived 0"));
}

// A pattern's compiled program is what RE2 may do per byte of a name.
TEST(RunOncePatterns, AProgramOverTheLimitIsRefused) {
  ProcessResult result =
      RunProcess({RollcallBinary(), "render", "--run-once-pattern=\\pL{300}"}, kSecret);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err,
            "rollcall: error: run-once patterns: \"\\pL{300}\" compiles to 357904 RE2 "
            "instructions, more than the limit of 4096 (a name has at most 253 bytes: a narrower "
            "pattern says the same)\n");
}

// 64 patterns of about 4,000 instructions cost 65 M steps per 253-byte name: the
// seventeenth Job passes the run's bound of 2^30, and the run is refused.
TEST(RunOncePatterns, TheWorkOfAllMatchesIsBounded) {
  std::vector<std::string> argv = {RollcallBinary(), "render"};
  for (int i = 0; i < 64; ++i) {
    argv.push_back("--run-once-pattern=[^x]{49" + std::to_string(i % 10) + "}");
  }
  std::string input = kSecret;
  for (int i = 0; i < 20; ++i)
    input += PlainJob("j" + std::to_string(100 + i) + std::string(249, 'a'));
  ProcessResult result = RunProcess(argv, input);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err,
            "rollcall: error: run-once patterns: matching 64 patterns against the names of this "
            "input's Jobs is more work than the limit of 1073741824 (name bytes times RE2 "
            "instructions, over all Jobs); use fewer or smaller patterns\n");
  argv.resize(10);  // 8 patterns: every Job is matched, none is run-once
  ProcessResult fewer = RunProcess(argv, input);
  EXPECT_EQ(fewer.exit_code, 0) << fewer.err;
  EXPECT_THAT(fewer.err, HasSubstr("waived 0"));
}

// --- a repository's config ----------------------------------------------------

// A config that redefined Deployment with a path to nothing switched off every
// finding about Deployments; it is refused, through lint as through render.
TEST(RepositoryConfig, ABuiltInKindCannotBeRedefined) {
  ScratchDir dir;
  Write(dir / "config.yaml",
        "consumerKinds:\n  - {kind: Deployment, apiGroup: apps, path: spec.nothing}\n");
  Write(dir / "web.yaml",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n"
        "    spec:\n      containers: [{name: app, envFrom: [{secretRef: {name: db}}]}]\n");
  ProcessResult lint =
      RunProcess({RollcallBinary(), "lint", "--config", dir / "config.yaml", dir / "web.yaml"}, "");
  EXPECT_EQ(lint.exit_code, 2);
  EXPECT_EQ(lint.out, "");
  EXPECT_EQ(lint.err, "rollcall: error: " + (dir / "config.yaml") +
                          ":2:5: this entry would replace the built-in kind Deployment (apps), "
                          "whose pod template rollcall already reads; consumerKinds only adds "
                          "kinds\n");
}

// --- lint --hook: the repository's manifests as sources -------------------------

// The hook reads every manifest under the working directory (a repository that is
// not the user's): a file named like an option is read as a file, a symbolic link is
// not followed (its Secret outside the tree stays unresolved), a FIFO named like a
// manifest is left out without a wait.
TEST(LintHook, TheRepositorysManifestsAreReadAsFilesNoLinkFollowedNoFifoWaitedOn) {
  ScratchDir dir;
  ScratchDir outside;
  ASSERT_EQ(mkdir((dir / "repo").c_str(), 0700), 0);
  const std::string repo = dir / "repo";
  Write(repo + "/deploy.yaml",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec:\n  template:\n"
        "    spec:\n      containers:\n      - name: api\n        envFrom:\n"
        "        - secretRef: {name: db}\n        - secretRef: {name: elsewhere}\n");
  Write(repo + "/--write-baseline=x.yaml",
        "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\nstringData: {password: p}\n");
  Write(outside / "elsewhere.yaml",
        "apiVersion: v1\nkind: Secret\nmetadata: {name: elsewhere}\nstringData: {k: v}\n");
  ASSERT_EQ(symlink((outside / "elsewhere.yaml").c_str(), (repo + "/link.yaml").c_str()), 0);
  ASSERT_EQ(mkfifo((repo + "/fifo.yaml").c_str(), 0600), 0);
  testing::ProcessOptions options;
  options.cwd = repo;
  options.timeout_seconds = 20;
  ProcessResult hook =
      RunProcess({RollcallBinary(), "lint", "--hook", "--", "deploy.yaml"}, "", options);
  EXPECT_EQ(hook.exit_code, 1) << hook.err;
  EXPECT_EQ(hook.out,
            "deploy.yaml:11:29: error[unresolved-reference] Deployment default/api reads "
            "secret/elsewhere via envFrom in container api, but Secret default/elsewhere is "
            "not in the input: nothing makes a change to it reach the process\n"
            "references: 2 \u2014 hashed 1, waived 0, pending 0, runtime 0, unresolved 1\n"
            "1 error\n");
  EXPECT_FALSE(testing::FileExists(repo + "/x.yaml"));
}

// --- the report file -------------------------------------------------------------

TEST(ReportFile, ASymbolicLinkIsRefusedAndItsTargetKept) {
  ScratchDir dir;
  Write(dir / "target", "keep me\n");
  ASSERT_EQ(symlink((dir / "target").c_str(), (dir / "report.json").c_str()), 0);
  ProcessResult flag =
      RunProcess({RollcallBinary(), "render", "--report", dir / "report.json"}, kSecret);
  EXPECT_EQ(flag.exit_code, 2);
  EXPECT_EQ(flag.out, "");
  EXPECT_EQ(flag.err, "rollcall: error: the report " + (dir / "report.json") +
                          " is a symbolic link; rollcall writes no file through one\n");
  ProcessResult env = RunProcess({RollcallBinary(), "render"}, kSecret,
                                 {"ROLLCALL_REPORT=" + (dir / "report.json")});
  EXPECT_EQ(env.exit_code, 2);
  EXPECT_EQ(env.out, "");
  EXPECT_EQ(testing::ReadFile(dir / "target"), "keep me\n");
  // A dangling link would have created its target.
  ASSERT_EQ(symlink((dir / "created").c_str(), (dir / "dangling.json").c_str()), 0);
  ProcessResult dangling =
      RunProcess({RollcallBinary(), "render", "--report", dir / "dangling.json"}, kSecret);
  EXPECT_EQ(dangling.exit_code, 2);
  EXPECT_FALSE(testing::FileExists(dir / "created"));
}

TEST(ReportFile, SomethingElseThanARegularFileIsRefused) {
  ScratchDir dir;
  ProcessResult directory = RunProcess({RollcallBinary(), "render", "--report", dir.path()}, "");
  EXPECT_EQ(directory.exit_code, 2);
  EXPECT_EQ(directory.err,
            "rollcall: error: the report " + dir.path() + " exists and is not a regular file\n");
  ASSERT_EQ(mkfifo((dir / "fifo").c_str(), 0600), 0);
  ProcessResult fifo = RunProcess({RollcallBinary(), "render", "--report", dir / "fifo"}, "");
  EXPECT_EQ(fifo.exit_code, 2);
  EXPECT_THAT(fifo.err, HasSubstr("exists and is not a regular file"));
}

TEST(ReportFile, ReplacesTheFileWholeAndLeavesNothingBeside) {
  ScratchDir dir;
  Write(dir / "report.json", std::string(100000, 'x'));  // longer than the new report
  ASSERT_EQ(link((dir / "report.json").c_str(), (dir / "hardlink").c_str()), 0);
  ProcessResult result =
      RunProcess({"/bin/sh", "-c", "umask 022 && exec \"$0\" render --report \"$1\"",
                  RollcallBinary(), dir / "report.json"},
                 kSecret);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  std::string report = testing::ReadFile(dir / "report.json");
  EXPECT_EQ(report.front(), '{');
  EXPECT_EQ(report.substr(report.size() - 2), "}\n");
  // Renamed over the path: another link to the old file keeps the old content.
  EXPECT_EQ(testing::ReadFile(dir / "hardlink"), std::string(100000, 'x'));
  struct stat info {};
  ASSERT_EQ(stat((dir / "report.json").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0644u);
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir.path())) ++entries;
  EXPECT_EQ(entries, 2u);  // report.json and hardlink: no temporary file left
}

// Helm 3 hides a post-renderer's stderr on success and Helm 4 always: a person names
// standard error (for a wrapper that shows it) or the terminal.
TEST(ReportFile, StandardErrorTakesTheReport) {
  for (const char* name : {"-", "/dev/stderr", "/dev/fd/2"}) {
    ProcessResult json = RunProcess({RollcallBinary(), "render", "--report", name}, kSecret);
    EXPECT_EQ(json.exit_code, 0) << name << ": " << json.err;
    EXPECT_EQ(json.out, kSecret);
    EXPECT_THAT(json.err, HasSubstr("\n{\n  \"summary\": {\n")) << name;
  }
  EXPECT_FALSE(testing::FileExists("-"));
  ProcessResult text =
      RunProcess({RollcallBinary(), "render", "--report=-", "--report-format=text"},
                 kSecret + PlainJob("boot"), {"HELM_NAMESPACE="});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.err,
              ::testing::EndsWith("rollcall: rollout: 1 new\n"
                                  "references: 1 \u2014 hashed 1, waived 0, pending 0, runtime 0, "
                                  "unresolved 0\nno findings\n"
                                  "rollout: 1 new\n"));
}

TEST(ReportFile, StandardOutputIsRefused) {
  for (const char* name : {"/dev/stdout", "/dev/fd/1"}) {
    ProcessResult result = RunProcess({RollcallBinary(), "render", "--report", name}, kSecret);
    EXPECT_EQ(result.exit_code, 2) << name;
    EXPECT_EQ(result.out, "");
    EXPECT_EQ(result.err,
              std::string("rollcall: error: the report cannot go to standard output (") + name +
                  "): the manifests go there; use - for standard error\n");
  }
}

// A terminal (here a pseudo-terminal's far end) and /dev/null take the report; no
// other device does.
TEST(ReportFile, ATerminalOrDevNullTakesTheReport) {
  int master = posix_openpt(O_RDWR | O_NOCTTY);
  ASSERT_GE(master, 0);
  ASSERT_EQ(grantpt(master), 0);
  ASSERT_EQ(unlockpt(master), 0);
  const std::string terminal = ptsname(master);
  ProcessResult result = RunProcess(
      {RollcallBinary(), "render", "--report", terminal, "--report-format", "text"}, kSecret);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, kSecret);
  char buffer[4096];
  ssize_t n = read(master, buffer, sizeof buffer);
  close(master);
  ASSERT_GT(n, 0);
  // The terminal's line discipline turns each "\n" into "\r\n".
  EXPECT_THAT(std::string(buffer, static_cast<std::size_t>(n)),
              HasSubstr("references: 0 \u2014 hashed 0, waived 0, pending 0, runtime 0, "
                        "unresolved 0\r\nno findings\r\n"));
  ProcessResult null = RunProcess({RollcallBinary(), "render", "--report=/dev/null"}, kSecret);
  EXPECT_EQ(null.exit_code, 0) << null.err;
  EXPECT_EQ(null.err.find("warning"), std::string::npos) << null.err;
  ProcessResult zero = RunProcess({RollcallBinary(), "render", "--report=/dev/zero"}, kSecret);
  EXPECT_EQ(zero.exit_code, 0);  // a report that cannot be written warns; the run stands
  EXPECT_THAT(zero.err, HasSubstr("rollcall: warning: the report /dev/zero is not a terminal nor "
                                  "/dev/null\n"));
}

TEST(ReportFile, TheFormatIsJsonOrText) {
  ScratchDir dir;
  ProcessResult bad = RunProcess(
      {RollcallBinary(), "render", "--report", dir / "r", "--report-format", "yaml"}, kSecret);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.out, "");
  EXPECT_THAT(bad.err,
              HasSubstr("rollcall: error: --report-format must be json or text, got 'yaml'"));
  // A usage error reaches a text report as a line, from the environment's format too.
  ProcessResult usage =
      RunProcess({RollcallBinary(), "render", "--no-such-flag"}, kSecret,
                 {"ROLLCALL_REPORT=" + (dir / "r"), "ROLLCALL_REPORT_FORMAT=text"});
  EXPECT_EQ(usage.exit_code, 2);
  EXPECT_EQ(testing::ReadFile(dir / "r"),
            "error: unknown option --no-such-flag (see rollcall render --help)\n");
}

// --- a failed write to stdout ----------------------------------------------------

// 500 Jobs: more output than a pipe holds, so a reader that went away is seen.
std::string ManyJobs() {
  std::string input = kSecret;
  for (int i = 0; i < 500; ++i) input += PlainJob("job-" + std::to_string(i));
  return input;
}

TEST(StandardOutput, AFullDiskIsAnErrorInStderrAndTheReport) {
  ScratchDir dir;
  ProcessResult result =
      RunProcess({"/bin/sh", "-c", "exec \"$0\" render --report \"$1\" >/dev/full",
                  RollcallBinary(), dir / "report.json"},
                 kSecret);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr("rollcall: error: cannot write to standard output: No "
                                    "space left on device\n"));
  std::string report = testing::ReadFile(dir / "report.json");
  EXPECT_THAT(report, HasSubstr("\"stopped\": true"));
  EXPECT_THAT(report,
              HasSubstr("\"error\": \"cannot write to standard output: No space left on device\""));
}

TEST(StandardOutput, AReaderThatWentAwayIsAnError) {
  ScratchDir dir;
  std::string input = dir / "input.yaml";
  Write(input, ManyJobs());
  // `true` reads nothing and exits; the first write past the pipe's buffer fails.
  ProcessResult result = RunProcess(
      {"/bin/bash", "-c", "\"$0\" render --report \"$1\" <\"$2\" | true; echo \"${PIPESTATUS[0]}\"",
       RollcallBinary(), dir / "report.json", input},
      "");
  EXPECT_EQ(result.out, "2\n");
  EXPECT_THAT(result.err,
              HasSubstr("rollcall: error: cannot write to standard output: Broken pipe\n"));
  EXPECT_THAT(testing::ReadFile(dir / "report.json"), HasSubstr("Broken pipe"));
}

TEST(StandardOutput, LintSaysWhenItsOutputFailed) {
  ProcessResult result =
      RunProcess({"/bin/sh", "-c", "exec \"$0\" lint - >/dev/full", RollcallBinary()}, kSecret);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err,
            "rollcall: error: cannot write to standard output: No space left on device\n");
}

TEST(StandardOutput, HelpVersionRulesAndCompletionSayWhenTheirOutputFailed) {
  for (const std::string command : {"--version", "help", "rules", "rules --format json",
                                    "render --help", "lint --help", "completion bash", "man"}) {
    ProcessResult result = RunProcess(
        {"/bin/sh", "-c", "exec \"$0\" " + command + " >/dev/full", RollcallBinary()}, "");
    EXPECT_EQ(result.exit_code, 2) << command;
    EXPECT_EQ(result.err,
              "rollcall: error: cannot write to standard output: No space left on device\n")
        << command;
  }
}

// --- control characters in names -------------------------------------------------

// A Deployment whose name carries an escape sequence and a carriage return, and
// reads a Secret nobody defines.
constexpr const char* kSpoofing = R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: "web\e[2J\rrollcall: all good\u009b"}
spec:
  template:
    spec:
      containers: [{name: app, envFrom: [{secretRef: {name: db}}]}]
)";

TEST(ControlCharacters, RenderStderrShowsThemEscaped) {
  ProcessResult result = RunProcess({RollcallBinary(), "render"}, kSpoofing);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.err, Not(HasSubstr("\x1b")));
  EXPECT_THAT(result.err, Not(HasSubstr("\r")));
  EXPECT_THAT(result.err, Not(HasSubstr("\xc2\x9b")));
  EXPECT_THAT(result.err,
              HasSubstr("Deployment default/web\\x1b[2J\\rrollcall: all good\\u009b reads"));
}

TEST(ControlCharacters, ConsumersTextShowsThemEscaped) {
  ProcessResult result = RunProcess({RollcallBinary(), "consumers", "db", "-"}, kSpoofing);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out,
            "deployment/default/web\\x1b[2J\\rrollcall: all good\\u009b container app reads "
            "envFrom: unresolved (Secret default/db is not in the input)\n");
}

TEST(ControlCharacters, ErrorsNamingAFileShowThemEscaped) {
  ProcessResult result = RunProcess({RollcallBinary(), "lint", "no\x1b]0;title\x07such.yaml"}, "");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err,
            "rollcall: error: no\\x1b]0;title\\x07such.yaml: no such file or directory\n");
}

// GitHub's log and dot take control characters as they are: lint --format github
// and consumers --format dot escape them as the text outputs do (a NUL made dot
// refuse the graph), and so do all outputs for text that reorders on display.
TEST(ControlCharacters, GithubAndDotShowThemEscaped) {
  ProcessResult github =
      RunProcess({RollcallBinary(), "lint", "--format", "github", "-"}, kSpoofing);
  EXPECT_EQ(github.exit_code, 1) << github.err;
  EXPECT_THAT(github.out, Not(HasSubstr("\x1b")));
  EXPECT_THAT(github.out, Not(HasSubstr("\xc2\x9b")));
  EXPECT_THAT(github.out, HasSubstr("Deployment default/web\\x1b[2J\\rrollcall: all good\\u009b "));
  ProcessResult dot =
      RunProcess({RollcallBinary(), "consumers", "db", "--format", "dot", "-"}, kSpoofing);
  EXPECT_EQ(dot.exit_code, 0) << dot.err;
  EXPECT_THAT(dot.out, Not(HasSubstr("\x1b")));
  EXPECT_THAT(dot.out, HasSubstr("web\\\\x1b[2J\\\\rrollcall: all good\\\\u009b"));
}

TEST(ControlCharacters, BidiOverridesAndLineSeparatorsAreEscaped) {
  // U+202E (right-to-left override), U+2066 (left-to-right isolate), U+2028.
  const std::string name =
      "web\xe2\x80\xae"
      "evil\xe2\x81\xa6"
      "x\xe2\x80\xa8"
      "y";
  const std::string input =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: \"" + name +
      "\"}\nspec:\n  template:\n    spec:\n      containers: [{name: app, envFrom: "
      "[{secretRef: {name: db}}]}]\n";
  ProcessResult text = RunProcess({RollcallBinary(), "consumers", "db", "-"}, input);
  EXPECT_EQ(text.out,
            "deployment/default/web\\u202eevil\\u2066x\\u2028y container app reads envFrom: "
            "unresolved (Secret default/db is not in the input)\n");
  ProcessResult github = RunProcess({RollcallBinary(), "lint", "--format", "github", "-"}, input);
  EXPECT_THAT(github.out, Not(HasSubstr("\xe2\x80\xae")));
  EXPECT_THAT(github.out, HasSubstr("web\\u202eevil\\u2066x\\u2028y"));
}

// --- restart commands are shell words -------------------------------------------

std::string Workload(const std::string& kind, const std::string& name, const std::string& ns) {
  return "---\napiVersion: apps/v1\nkind: " + kind + "\nmetadata: {name: " + name +
         ", namespace: " + ns +
         "}\nspec:\n  template:\n    spec:\n      containers: [{name: app, envFrom: "
         "[{secretRef: {name: db}}]}]\n";
}

TEST(RestartCommands, HostileNamesAreCommentsAndRunningTheOutputRunsOnlyKubectl) {
  ScratchDir dir;
  // A stand-in kubectl that appends its arguments, one a line, to a log.
  Write(dir / "kubectl",
        "#!/bin/sh\nfor a in \"$@\"; do echo \"[$a]\"; done >> \"$(dirname \"$0\")/log\"\n");
  chmod((dir / "kubectl").c_str(), 0755);
  std::string input = Workload("Deployment", "web", "prod") +
                      Workload("Deployment", "\"web;touch " + (dir / "pwned") + ";#\"", "prod") +
                      Workload("StatefulSet", "\"db\\ntouch " + (dir / "pwned") + "\"", "prod") +
                      Workload("DaemonSet", "agent", "\"$(touch " + (dir / "pwned") + ")\"") +
                      Workload("Deployment", "\"-A\"", "prod");
  ProcessResult result =
      RunProcess({RollcallBinary(), "consumers", "db", "--restart-commands", "-"}, input);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const std::string refused =
      ": not printed as a command: the API server accepts no such name or namespace, so no "
      "cluster holds this object\n";
  EXPECT_EQ(result.out,
            "kubectl rollout restart deployment/web -n prod\n"
            "# deployment/web;touch " +
                (dir / "pwned") + ";# -n prod" + refused + "# statefulset/db\\ntouch " +
                (dir / "pwned") + " -n prod" + refused + "# daemonset/agent -n $(touch " +
                (dir / "pwned") + ")" + refused + "# deployment/-A -n prod" + refused);
  Write(dir / "commands.sh", result.out);
  ProcessResult ran =
      RunProcess({"/bin/sh", dir / "commands.sh"}, "", {"PATH=" + dir.path() + ":/usr/bin:/bin"});
  EXPECT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_FALSE(testing::FileExists(dir / "pwned"));
  EXPECT_EQ(testing::ReadFile(dir / "log"),
            "[rollout]\n[restart]\n[deployment/web]\n[-n]\n[prod]\n");
}

// --- errors never quote a value ---------------------------------------------------

TEST(ValueBytesInErrors, BadEscapesInASecretAreNotQuoted) {
  for (const char* value :
       {"hunt\\qer2", "hunt\\uZZZZer2", "hunt\\xZZer2", "hunt\\uD800er2", "hunt\\/er2"}) {
    std::string input = std::string("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n") +
                        "stringData:\n  password: \"" + value + "\"\n";
    ProcessResult result = RunProcess({RollcallBinary(), "render"}, input);
    EXPECT_EQ(result.exit_code, 2) << value;
    EXPECT_EQ(result.out, "");
    // Line and column of the key; the message names nothing met in the value.
    EXPECT_THAT(result.err,
                ::testing::StartsWith("rollcall: error: <stdin> (document 1, line 5, column 3): "
                                      "invalid YAML: "))
        << value;
    EXPECT_THAT(result.err, HasSubstr("(in a quoted scalar on this line); Kubernetes' YAML "
                                      "reader (go-yaml) refuses the document\n"))
        << value;
    EXPECT_THAT(result.err, Not(HasSubstr("er2"))) << value;
  }
}

TEST(ValueBytesInErrors, InvalidBytesInASecretAreNotShown) {
  std::string input =
      "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData:\n  password: "
      "\"hunter\xa5\"\n";
  ProcessResult result = RunProcess({RollcallBinary(), "render"}, input);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err,
            "rollcall: error: <stdin> (document 1, line 5, column 3): invalid UTF-8: this line "
            "holds a byte that is not part of a UTF-8 character\n");
}

}  // namespace
}  // namespace rollcall
