// Helpers shared by the unit tests: render a string, pull an annotation out of the
// output, run the rollcall binary as a user would.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rollcall/render.h"
#include "rollcall/yaml_tree.h"

namespace rollcall::testing {

// A YAML document parsed as rollcall parses each document of a stream (the tree of
// yaml_tree.h, which the result keeps alive); throws std::runtime_error where
// Kubernetes' YAML reader refuses the document.
struct ParsedYaml : YamlNode {
  std::shared_ptr<const YamlTree> tree;
};
ParsedYaml ParseYaml(const std::string& text);
// Every document of a stream, split as rollcall splits it; empty ones left out.
std::vector<ParsedYaml> ParseYamlAll(const std::string& text);

// Renders `input` as if it came on stdin.
RenderResult RenderText(const std::string& input, const RenderOptions& options = {});

// The value of `annotation` on the pod template of the object named `name` in
// rendered YAML text, or "" when it has none.
std::string TemplateAnnotation(const std::string& yaml, const std::string& name,
                               const std::string& annotation = kConfigHashAnnotation);

struct ProcessResult {
  int exit_code = -1;  // 128 + the signal when a signal ended it
  std::string out;
  std::string err;
  bool timed_out = false;  // killed after ProcessOptions::timeout_seconds
};

struct ProcessOptions {
  std::vector<std::string> env;  // NAME=value, added to the environment
  // A run still going after this long is killed with its process group, so that a
  // test of a hang fails instead of hanging the suite.
  int timeout_seconds = 60;
  std::string cwd;  // the working directory; "" keeps the test's
  // When the test runs as root: run as nobody (uid and gid 65534), for whom
  // permission bits count. Exit code 126 with nothing on stderr: that failed.
  bool as_nobody_if_root = false;
};

// Runs `argv` with `input` on stdin (a file); captures stdout and stderr.
ProcessResult RunProcess(const std::vector<std::string>& argv, const std::string& input,
                         const ProcessOptions& options);
ProcessResult RunProcess(const std::vector<std::string>& argv, const std::string& input,
                         const std::vector<std::string>& env = {});

// A new file under /tmp holding `content`; its path. The caller removes it.
std::string TempFile(const std::string& content);

// Path of the rollcall binary under test ($ROLLCALL_BIN, set by meson).
std::string RollcallBinary();

// Path of a file under testdata/ ($ROLLCALL_TESTDATA, set by meson).
std::string TestdataPath(const std::string& relative);

std::string ReadFile(const std::string& path);

bool FileExists(const std::string& path);

// The golden cases under testdata/<folder>/: the subfolders holding `marker_file`,
// sorted.
std::vector<std::string> GoldenCases(const std::string& folder, const std::string& marker_file);

// A case's folder name as a test name (anything but letters and digits becomes '_').
std::string GoldenCaseName(const std::string& name);

// What lint prints on stdout when one input could not be read and nothing else was
// found: the input-error finding at `where` (file:line:column) saying `what`, as
// the "rollcall: error: <where>: <what>" line on stderr says it.
std::string LintInputErrorReport(const std::string& where, const std::string& what);

}  // namespace rollcall::testing
