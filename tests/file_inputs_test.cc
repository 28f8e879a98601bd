// The files rollcall reads, through the binary (docs/security.md, "Files rollcall
// reads"): a directory walk that follows no symbolic link and never aborts, special
// files refused instead of waited on, and .rollcall.yaml found only inside the git
// work tree. Every run has a timeout: a hang fails its test, never the suite.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "test_support.h"

namespace rollcall {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::ProcessResult;
using testing::RollcallBinary;

constexpr int kTimeoutSeconds = 10;

constexpr const char* kConfigMap =
    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg}\ndata: {a: \"1\"}\n";

// A Deployment that reads a Secret no input defines: an unresolved-reference error.
constexpr const char* kUnresolved =
    "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n"
    "spec:\n  template:\n    spec:\n      containers:\n      - name: app\n"
    "        envFrom: [{secretRef: {name: missing}}]\n";

constexpr const char* kNothingFound =
    "references: 0 \u2014 hashed 0, waived 0, pending 0, runtime 0, unresolved 0\nno findings\n";

constexpr const char* kUnresolvedFound =
    ":9:38: error[unresolved-reference] Deployment default/web reads secret/missing via envFrom "
    "in container app, but Secret default/missing is not in the input: nothing makes a change to "
    "it reach the process\n"
    "references: 1 \u2014 hashed 0, waived 0, pending 0, runtime 0, unresolved 1\n1 error\n";

std::string Note(const std::string& path, bool directory) {
  return "rollcall: note: skipped " + path + ": a symbolic link" +
         (directory ? " to a directory" : "") + ", which a directory walk does not follow\n";
}

class FileInputs : public ::testing::Test {
 protected:
  void SetUp() override {
    char name[] = "/tmp/rollcall-files-XXXXXX";
    ASSERT_NE(mkdtemp(name), nullptr);
    // Canonical, as the binary sees its working directory; readable by nobody.
    dir_ = fs::canonical(name).string();
    chmod(dir_.c_str(), 0755);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }

  std::string Path(const std::string& relative) const { return dir_ + "/" + relative; }
  void Write(const std::string& relative, const std::string& text) {
    fs::create_directories(fs::path(Path(relative)).parent_path());
    std::ofstream(Path(relative), std::ios::binary) << text;
  }
  void Mkdir(const std::string& relative) { fs::create_directories(Path(relative)); }
  void Link(const std::string& relative, const std::string& target) {
    fs::create_directories(fs::path(Path(relative)).parent_path());
    fs::create_symlink(target, Path(relative));
  }
  void Fifo(const std::string& relative) {
    fs::create_directories(fs::path(Path(relative)).parent_path());
    ASSERT_EQ(mkfifo(Path(relative).c_str(), 0644), 0);
  }

  // `rollcall ARGS` in `cwd` (relative to the test's directory) with `input` on stdin.
  ProcessResult Run(std::vector<std::string> args, const std::string& cwd = "",
                    const std::string& input = "") const {
    args.insert(args.begin(), RollcallBinary());
    testing::ProcessOptions options;
    options.cwd = cwd.empty() ? dir_ : Path(cwd);
    options.timeout_seconds = kTimeoutSeconds;
    return testing::RunProcess(args, input, options);
  }

  std::string dir_;
};

// --- the walk ------------------------------------------------------------------

// A committed link to a file or directory outside the tree reads nothing there: the
// pending marker in outside/ would make lint exit 1. Each link is named on stderr.
TEST_F(FileInputs, WalkFollowsNoSymbolicLink) {
  Write("tree/app.yaml", kConfigMap);
  Write("outside/web.yaml", kUnresolved);
  Link("tree/ext", "../outside");
  Link("tree/kube.yaml", "../outside/web.yaml");
  Link("tree/gone.yaml", "no-such-file.yaml");    // dangling
  Link("tree/notes.txt", "../outside/web.yaml");  // no manifest name: silent
  Link("tree/root", "/");
  for (const char* command : {"lint", "consumers"}) {
    std::vector<std::string> args = {command, "tree"};
    if (std::string(command) == "consumers") args.insert(args.begin() + 1, "--all");
    ProcessResult result = Run(args);
    EXPECT_FALSE(result.timed_out) << command;
    EXPECT_EQ(result.exit_code, 0) << command << ": " << result.err;
    std::string notes = Note("tree/ext", true) + Note("tree/gone.yaml", false) +
                        Note("tree/kube.yaml", false) + Note("tree/root", true);
    if (std::string(command) == "lint") {
      EXPECT_EQ(result.out, kNothingFound);
      EXPECT_EQ(result.err, notes);
    } else {
      EXPECT_EQ(result.out, "");
      EXPECT_EQ(result.err, notes + "rollcall: no consumer reads any Secret or ConfigMap\n");
    }
  }
}

// A path named on the command line is the user's: followed, link or not.
TEST_F(FileInputs, PathNamedOnTheCommandLineIsFollowed) {
  Write("outside/web.yaml", kUnresolved);
  Link("tree/kube.yaml", "../outside/web.yaml");
  Link("tree/ext", "../outside");
  ProcessResult file = Run({"lint", "tree/kube.yaml"});
  EXPECT_EQ(file.exit_code, 1) << file.err;
  EXPECT_EQ(file.out, "tree/kube.yaml" + std::string(kUnresolvedFound));
  ProcessResult directory = Run({"lint", "tree/ext"});
  EXPECT_EQ(directory.exit_code, 1) << directory.err;
  EXPECT_EQ(directory.out, "tree/ext/web.yaml" + std::string(kUnresolvedFound));
  EXPECT_EQ(directory.err, "");
}

// Loops used to end lint with an uncaught filesystem_error (exit 134).
TEST_F(FileInputs, WalkSurvivesSymbolicLinkLoops) {
  Write("tree/app.yaml", kConfigMap);
  Link("tree/self.yaml", "self.yaml");
  Link("tree/cycle", ".");
  Link("tree/ping", "pong");
  Link("tree/pong", "ping");
  ProcessResult result = Run({"lint", "tree"});
  EXPECT_FALSE(result.timed_out);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, kNothingFound);
  EXPECT_EQ(result.err, Note("tree/cycle", true) + Note("tree/self.yaml", false));
}

// A directory deeper than PATH_MAX cannot be opened by its path, whoever runs
// rollcall (root included): an input error naming it, not an abort.
TEST_F(FileInputs, UnreadableDirectoryEntryIsAnInputError) {
  const std::string name(250, 'd');
  std::string relative = "deep";
  Mkdir(relative);
  int fd = open(Path(relative).c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(fd, 0);
  std::vector<int> fds = {fd};
  for (int level = 0; level < 17; ++level) {
    ASSERT_EQ(mkdirat(fds.back(), name.c_str(), 0755), 0);
    fds.push_back(openat(fds.back(), name.c_str(), O_RDONLY | O_DIRECTORY));
    ASSERT_GE(fds.back(), 0);
    relative += "/" + name;
  }
  ProcessResult result = Run({"lint", "deep"});
  EXPECT_FALSE(result.timed_out);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, testing::LintInputErrorReport(
                            relative, "cannot read the directory entry: File name too long"));
  EXPECT_EQ(result.err, "rollcall: error: " + relative +
                            ": cannot read the directory entry: File name too long\n");
  // remove_all cannot reach it by path either: bottom up, through the descriptors.
  for (std::size_t i = fds.size() - 1; i > 0; --i) {
    close(fds[i]);
    unlinkat(fds[i - 1], name.c_str(), AT_REMOVEDIR);
  }
  close(fds[0]);
}

// As root, permission bits stop no read: the run drops to nobody.
TEST_F(FileInputs, DirectoryWithoutPermissionIsAnInputError) {
  Write("tree/app.yaml", kConfigMap);
  Mkdir("tree/locked");
  chmod(Path("tree").c_str(), 0755);
  chmod(Path("tree/app.yaml").c_str(), 0644);
  chmod(Path("tree/locked").c_str(), 0);
  testing::ProcessOptions options;
  options.cwd = dir_;
  options.timeout_seconds = kTimeoutSeconds;
  options.as_nobody_if_root = true;
  ProcessResult result = testing::RunProcess({RollcallBinary(), "lint", "tree"}, "", options);
  if (result.exit_code == 126 && result.err.empty()) GTEST_SKIP() << "cannot run as nobody";
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, testing::LintInputErrorReport(
                            "tree/locked", "cannot read the directory: Permission denied"));
  EXPECT_EQ(result.err,
            "rollcall: error: tree/locked: cannot read the directory: Permission denied\n");
}

// --- special files ----------------------------------------------------------------

// A named pipe with no writer blocked open(2) forever.
TEST_F(FileInputs, NamedPipeInATreeIsRefusedNotWaitedOn) {
  Write("tree/app.yaml", kConfigMap);
  Fifo("tree/pipe.yaml");
  ProcessResult result = Run({"lint", "tree"});
  EXPECT_FALSE(result.timed_out);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out,
            testing::LintInputErrorReport("tree/pipe.yaml", "is a named pipe, not a regular file"));
  EXPECT_EQ(result.err, "rollcall: error: tree/pipe.yaml: is a named pipe, not a regular file\n");
  // Not named like a manifest: not read, as any other such file.
  Write("other/app.yaml", kConfigMap);
  Fifo("other/pipe");
  ProcessResult other = Run({"lint", "other"});
  EXPECT_FALSE(other.timed_out);
  EXPECT_EQ(other.exit_code, 0) << other.err;
  EXPECT_EQ(other.out, kNothingFound);
}

TEST_F(FileInputs, SpecialFileNamedOnTheCommandLineIsRefused) {
  Fifo("pipe.yaml");
  const std::string hint = " (\"-\" reads a stream from standard input)\n";
  ProcessResult pipe = Run({"lint", "pipe.yaml"});
  EXPECT_FALSE(pipe.timed_out);
  EXPECT_EQ(pipe.exit_code, 2);
  EXPECT_EQ(pipe.out,
            testing::LintInputErrorReport("pipe.yaml", "is a named pipe, not a regular file" +
                                                           hint.substr(0, hint.size() - 1)));
  EXPECT_EQ(pipe.err, "rollcall: error: pipe.yaml: is a named pipe, not a regular file" + hint);
  ProcessResult device = Run({"consumers", "--all", "/dev/null"});
  EXPECT_EQ(device.exit_code, 2);
  EXPECT_EQ(device.out, "");
  EXPECT_EQ(device.err,
            "rollcall: error: /dev/null: is a character device, not a regular file" + hint);
}

struct FileOption {
  const char* flag;
  const char* what;
};
constexpr FileOption kFileOptions[] = {
    {"--hmac-key-file", "the HMAC key file"},
    {"--state", "the state file"},
    {"--previous", "the previous release"},
    {"--config", "the config file"},
};

// A named pipe hung render; a directory read as empty (--previous DIR: a first
// install, the immutability checks skipped).
TEST_F(FileInputs, OptionNamingASpecialFileIsRefused) {
  Fifo("pipe");
  Mkdir("directory");
  for (const FileOption& option : kFileOptions) {
    for (const char* name : {"pipe", "directory"}) {
      std::string kind = std::string(name) == "pipe" ? "a named pipe" : "a directory";
      ProcessResult result = Run({"render", option.flag, Path(name)}, "", kConfigMap);
      EXPECT_FALSE(result.timed_out) << option.flag << " " << name;
      EXPECT_EQ(result.exit_code, 2) << option.flag << " " << name;
      EXPECT_EQ(result.out, "") << option.flag << " " << name;
      EXPECT_EQ(result.err, "rollcall: error: " + Path(name) + ": " + option.what + " is " + kind +
                                ", not a regular file\n");
    }
  }
  ProcessResult lint = Run({"lint", "--state", "directory", "-"}, "", kConfigMap);
  EXPECT_EQ(lint.exit_code, 2);
  EXPECT_EQ(lint.out, "");
  EXPECT_EQ(lint.err,
            "rollcall: error: directory: the state file is a directory, not a regular file\n");
  ProcessResult krm = Run({"krm", "pipe"});
  EXPECT_FALSE(krm.timed_out);
  EXPECT_EQ(krm.exit_code, 2);
  EXPECT_EQ(krm.out, "");
  EXPECT_EQ(krm.err,
            "rollcall: error: pipe: rollcall's function config is a named pipe, not a regular "
            "file\n");
}

// With the manifest coming through a pipe, /dev/stdin is that pipe: the key took the
// manifest, and render wrote nothing with exit 0. Redirected from a file, it is that
// file: the manifest would be the key, which whoever wrote the manifest knows.
TEST_F(FileInputs, HmacKeyFileCannotBeStandardInput) {
  Write("in.yaml", kConfigMap);
  testing::ProcessOptions options;
  options.cwd = dir_;
  options.timeout_seconds = kTimeoutSeconds;
  ProcessResult piped = testing::RunProcess(
      {"/bin/sh", "-c", "cat in.yaml | \"$0\" render --hmac-key-file /dev/stdin", RollcallBinary()},
      "", options);
  EXPECT_FALSE(piped.timed_out);
  EXPECT_EQ(piped.exit_code, 2);
  EXPECT_EQ(piped.out, "");
  EXPECT_EQ(piped.err,
            "rollcall: error: /dev/stdin: the HMAC key file is a named pipe, not a regular file\n");
  ProcessResult redirected = Run({"render", "--hmac-key-file", "/dev/stdin"}, "", kConfigMap);
  EXPECT_EQ(redirected.exit_code, 2);
  EXPECT_EQ(redirected.out, "");
  EXPECT_EQ(redirected.err,
            "rollcall: error: /dev/stdin: the HMAC key file is standard input, which carries the "
            "manifest\n");
}

TEST_F(FileInputs, PreviousReleaseIsBoundedWhileRead) {
  Write("previous.yaml", std::string(kConfigMap) + std::string(200, '#') + "\n");
  ProcessResult result =
      Run({"render", "--previous", "previous.yaml", "--max-input-bytes", "100"}, "", kConfigMap);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err,
            "rollcall: error: previous.yaml: the previous release is larger than the limit of 100 "
            "bytes (--max-input-bytes)\n");
}

// --- charts ------------------------------------------------------------------------

// The chart's name is read from Chart.yaml, which waited forever on a pipe.
TEST_F(FileInputs, ChartYamlThatIsANamedPipeIsRefused) {
  Fifo("tree/shop/Chart.yaml");
  ProcessResult result = Run({"lint", "--helm", "/bin/true", "tree"});
  EXPECT_FALSE(result.timed_out);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, testing::LintInputErrorReport(
                            "tree/shop/Chart.yaml",
                            "the chart's Chart.yaml is a named pipe, not a regular file"));
  EXPECT_EQ(result.err,
            "rollcall: error: tree/shop/Chart.yaml: the chart's Chart.yaml is a named pipe, not a "
            "regular file\n");
}

// Findings in a rendered chart are mapped to its template files by their
// "# Source:" path, which the chart writes: one leading out of the chart is not
// opened (it was: a named pipe there hung lint) and cites the chart directory with
// the path Helm wrote; one that cannot be read gives the file without a line.
TEST_F(FileInputs, FindingsAreMappedOnlyToReadableFilesInTheChart) {
  Write("tree/shop/Chart.yaml", "apiVersion: v2\nname: shop\nversion: 0.1.0\n");
  Fifo("outside.yaml");
  Fifo("tree/shop/templates/pipe.yaml");
  Write("helm", "#!/bin/sh\ncat <<'EOF'\n---\n# Source: shop/../../outside.yaml\n" +
                    std::string(kUnresolved) + "---\n# Source: shop/templates/pipe.yaml\n" +
                    std::string(kUnresolved) + "EOF\n");
  chmod(Path("helm").c_str(), 0755);
  ProcessResult result = Run({"lint", "--helm", Path("helm"), "tree"});
  EXPECT_FALSE(result.timed_out);
  EXPECT_EQ(result.exit_code, 1) << result.err;
  const std::string message =
      ": error[unresolved-reference] Deployment default/web reads secret/missing via envFrom in "
      "container app, but Secret default/missing is not in the input: nothing makes a change to "
      "it reach the process\n";
  EXPECT_EQ(result.out, "tree/shop" + message.substr(0, message.size() - 1) +
                            " (template shop/../../outside.yaml)\n" +
                            "tree/shop/templates/pipe.yaml" + message +
                            "references: 2 \u2014 hashed 0, waived 0, pending 0, runtime 0, "
                            "unresolved 2\n2 errors\n");
  EXPECT_EQ(result.err, "");
}

// --- .rollcall.yaml --------------------------------------------------------------

constexpr const char* kRuleOff = "rules: {unresolved-reference: \"off\"}\n";

// A .rollcall.yaml above the repository (in /tmp, say) switched rules off.
TEST_F(FileInputs, ConfigAboveTheGitWorkTreeIsIgnored) {
  Write(".rollcall.yaml", kRuleOff);
  Write("repo/app.yaml", kUnresolved);
  Mkdir("repo/.git");
  Write("linked/app.yaml", kUnresolved);
  Write("linked/.git", "gitdir: /elsewhere/.git/worktrees/linked\n");  // a linked work tree
  for (const char* repo : {"repo", "linked"}) {
    ProcessResult result = Run({"lint", "app.yaml"}, repo);
    EXPECT_EQ(result.exit_code, 1) << repo << ": " << result.err;
    EXPECT_EQ(result.out, "app.yaml" + std::string(kUnresolvedFound)) << repo;
  }
  // Inside the work tree it is found upward, up to the root.
  Write("repo/.rollcall.yaml", kRuleOff);
  Write("repo/sub/app.yaml", kUnresolved);
  ProcessResult inside = Run({"lint", "app.yaml"}, "repo/sub");
  EXPECT_EQ(inside.exit_code, 0) << inside.err;
  EXPECT_EQ(inside.out,
            "references: 1 \u2014 hashed 0, waived 0, pending 0, runtime 0, "
            "unresolved 1\nno findings\n");
}

// Outside any git work tree only the working directory is searched.
TEST_F(FileInputs, OutsideAWorkTreeOnlyTheWorkingDirectoryIsSearched) {
  Write(".rollcall.yaml", kRuleOff);
  Write("sub/app.yaml", kUnresolved);
  ProcessResult below = Run({"lint", "app.yaml"}, "sub");
  EXPECT_EQ(below.exit_code, 1) << below.err;
  Write("app.yaml", kUnresolved);
  ProcessResult here = Run({"lint", "app.yaml"});
  EXPECT_EQ(here.exit_code, 0) << here.err;
}

// A .rollcall.yaml that is no regular file is an error, not a reason to look further
// up (nor a hang).
TEST_F(FileInputs, FoundConfigThatIsANamedPipeIsRefused) {
  Mkdir("repo/.git");
  Write("repo/app.yaml", kConfigMap);
  Fifo("repo/.rollcall.yaml");
  ProcessResult result = Run({"lint", "app.yaml"}, "repo");
  EXPECT_FALSE(result.timed_out);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err, "rollcall: error: " + Path("repo/.rollcall.yaml") +
                            ": the config file is a named pipe, not a regular file\n");
}

TEST_F(FileInputs, VerboseNamesTheConfigFile) {
  Mkdir("repo/.git");
  Write("repo/sub/app.yaml", kConfigMap);
  ProcessResult none = Run({"lint", "-v", "app.yaml"}, "repo/sub");
  EXPECT_EQ(none.exit_code, 0) << none.err;
  EXPECT_EQ(none.err, "rollcall: config: none (no .rollcall.yaml from " + Path("repo/sub") +
                          " up to " + Path("repo") + ", the git work tree's root)\n");
  ProcessResult at_root = Run({"consumers", "--verbose", "--all", "sub"}, "repo");
  EXPECT_EQ(at_root.err, "rollcall: config: none (no .rollcall.yaml in " + Path("repo") +
                             ", the git work tree's root)\n"
                             "rollcall: no consumer reads any Secret or ConfigMap\n");
  Write("outside/app.yaml", kConfigMap);
  ProcessResult outside = Run({"lint", "-v", "app.yaml"}, "outside");
  EXPECT_EQ(outside.err, "rollcall: config: none (no .rollcall.yaml in " + Path("outside") +
                             "; outside a git work tree no other directory is searched)\n");
  Write("repo/.rollcall.yaml", "");
  ProcessResult found = Run({"lint", "-v", "app.yaml"}, "repo/sub");
  EXPECT_EQ(found.err, "rollcall: config: " + Path("repo/.rollcall.yaml") + "\n");
  ProcessResult named = Run({"render", "-v", "--config", "../.rollcall.yaml"}, "repo/sub");
  EXPECT_EQ(named.exit_code, 0) << named.err;
  EXPECT_THAT(named.err, ::testing::StartsWith("rollcall: config: ../.rollcall.yaml (--config)\n"));
  // Without --verbose nothing is said.
  ProcessResult quiet = Run({"lint", "app.yaml"}, "repo/sub");
  EXPECT_EQ(quiet.err, "");
}

// Helm 4 drops a post-renderer's stderr: the report says which config was used.
TEST_F(FileInputs, RenderReportNamesTheConfigFile) {
  Mkdir("repo/.git");
  Mkdir("repo/sub");
  ProcessResult none = Run({"render", "--report", Path("none.json")}, "repo/sub", kConfigMap);
  EXPECT_EQ(none.exit_code, 0) << none.err;
  EXPECT_TRUE(nlohmann::json::parse(testing::ReadFile(Path("none.json")))["config"].is_null());
  Write("repo/.rollcall.yaml", "");
  ProcessResult found = Run({"render", "--report", Path("found.json")}, "repo/sub", kConfigMap);
  EXPECT_EQ(found.exit_code, 0) << found.err;
  EXPECT_EQ(nlohmann::json::parse(testing::ReadFile(Path("found.json")))["config"],
            Path("repo/.rollcall.yaml"));
}

// --- what a file that does not parse defines ------------------------------------

// A file that is a template past its first thousands of documents defines nothing,
// not even the sources of the documents read before its error: those are taken as
// the stream is read, a chunk of documents at a time (facts.h's SourceTaker).
TEST_F(FileInputs, ATemplateDefinesNoSourceEvenInTheDocumentsBeforeItsError) {
  Write("web.yaml", kUnresolved);
  std::string secrets =
      "apiVersion: v1\nkind: Secret\nmetadata: {name: missing}\nstringData: {k: v}\n";
  for (int i = 0; i < 20000; ++i) secrets += "---\n";
  secrets +=
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata:\n"
      "  {{- toYaml .Values.settings | nindent 2 }}\n";
  Write("secrets.yaml", secrets);
  ProcessResult result = Run({"lint", "web.yaml", "secrets.yaml"});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_EQ(result.out,
            "secrets.yaml: info[template-not-analysed] a template, not YAML (a mapping key that is "
            "a mapping or a sequence; Kubernetes refuses the document (invalid map key)); only its "
            "SECRET-VERSION markers were read\n"
            "web.yaml" +
                std::string(kUnresolvedFound)
                    .replace(std::string(kUnresolvedFound).find("1 error"), 7, "1 error, 1 info"));
}

}  // namespace
}  // namespace rollcall
