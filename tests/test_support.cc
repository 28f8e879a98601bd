#include "test_support.h"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "rollcall/consumer_kinds.h"
#include "rollcall/document.h"
#include "rollcall/stream.h"
#include "rollcall/yaml_refusals.h"

namespace rollcall::testing {

ParsedYaml ParseYaml(const std::string& text) {
  ParsedTree read = ParseTree(text);
  if (const std::optional<YamlRefusal>& refusal = read.refusal) {
    throw std::runtime_error("refused at " + std::to_string(refusal->offset) + ": " +
                             refusal->message);
  }
  ParsedYaml parsed;
  parsed.tree = std::move(read.tree);
  static_cast<YamlNode&>(parsed) = parsed.tree->root();
  return parsed;
}

std::vector<ParsedYaml> ParseYamlAll(const std::string& text) {
  Stream stream(text, "<test>");
  std::vector<ParsedYaml> out;
  for (const DocumentSpan& span : stream.documents()) {
    if (span.empty) continue;
    std::string piece(span.ReadText(stream.bytes()));
    if (!piece.empty() && piece.back() != '\n') piece.push_back('\n');
    out.push_back(ParseYaml(piece));
  }
  return out;
}

RenderResult RenderText(const std::string& input, const RenderOptions& options) {
  Stream stream(input, "<stdin>");
  return Render(stream, options);
}

std::string TemplateAnnotation(const std::string& yaml, const std::string& name,
                               const std::string& annotation) {
  for (const YamlNode& doc : ParseYamlAll(yaml)) {
    if (!doc.IsMap() || ScalarOr(Child(Child(doc, "metadata"), "name")) != name) continue;
    const ConsumerKind* kind =
        FindConsumerKind(ScalarOr(Child(doc, "apiVersion")), ScalarOr(Child(doc, "kind")));
    if (kind == nullptr) continue;
    YamlNode node = doc;
    for (const std::string& key : kind->path) node = Child(node, key.c_str());
    return ScalarOr(Child(Child(Child(node, "metadata"), "annotations"), annotation.c_str()));
  }
  return "";
}

namespace {

std::string Slurp(int fd) {
  std::string out;
  char buffer[4096];
  ssize_t n = 0;
  while ((n = read(fd, buffer, sizeof buffer)) > 0) out.append(buffer, static_cast<size_t>(n));
  return out;
}

}  // namespace

std::string TempFile(const std::string& content) {
  char name[] = "/tmp/rollcall-test-XXXXXX";
  int fd = mkstemp(name);
  if (fd < 0) throw std::runtime_error("mkstemp failed");
  std::size_t done = 0;
  while (done < content.size()) {
    ssize_t n = write(fd, content.data() + done, content.size() - done);
    if (n <= 0) throw std::runtime_error("write failed");
    done += static_cast<std::size_t>(n);
  }
  close(fd);
  return name;
}

ProcessResult RunProcess(const std::vector<std::string>& argv, const std::string& input,
                         const std::vector<std::string>& env) {
  ProcessOptions options;
  options.env = env;
  return RunProcess(argv, input, options);
}

ProcessResult RunProcess(const std::vector<std::string>& argv, const std::string& input,
                         const ProcessOptions& options) {
  // Files rather than pipes: no deadlock whatever the sizes.
  std::string in_path = TempFile(input);
  std::string out_path = TempFile("");
  std::string err_path = TempFile("");
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);  // its own group: a timeout kills what it started too
    int in = open(in_path.c_str(), O_RDONLY);
    int out = open(out_path.c_str(), O_WRONLY | O_TRUNC);
    int err = open(err_path.c_str(), O_WRONLY | O_TRUNC);
    dup2(in, 0);
    dup2(out, 1);
    dup2(err, 2);
    if (!options.cwd.empty() && chdir(options.cwd.c_str()) != 0) _exit(127);
    if (options.as_nobody_if_root && geteuid() == 0 &&
        (setgroups(0, nullptr) != 0 || setgid(65534) != 0 || setuid(65534) != 0)) {
      _exit(126);
    }
    for (const std::string& var : options.env) putenv(const_cast<char*>(var.c_str()));
    std::vector<char*> args;
    for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  setpgid(pid, pid);  // whichever of the two runs first
  ProcessResult result;
  int status = 0;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(options.timeout_seconds);
  auto pause = std::chrono::microseconds(100);  // doubling to 5 ms: a quick run waits little
  for (;;) {
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid || (done < 0 && errno != EINTR)) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      result.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(5000));
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  int out = open(out_path.c_str(), O_RDONLY);
  int err = open(err_path.c_str(), O_RDONLY);
  result.out = Slurp(out);
  result.err = Slurp(err);
  close(out);
  close(err);
  unlink(in_path.c_str());
  unlink(out_path.c_str());
  unlink(err_path.c_str());
  return result;
}

std::string RollcallBinary() {
  const char* path = std::getenv("ROLLCALL_BIN");
  if (path == nullptr) throw std::runtime_error("ROLLCALL_BIN is not set");
  return path;
}

std::string TestdataPath(const std::string& relative) {
  const char* root = std::getenv("ROLLCALL_TESTDATA");
  if (root == nullptr) throw std::runtime_error("ROLLCALL_TESTDATA is not set");
  return std::string(root) + "/" + relative;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

bool FileExists(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0;
}

std::vector<std::string> GoldenCases(const std::string& folder, const std::string& marker_file) {
  std::vector<std::string> cases;
  std::string root = TestdataPath(folder);
  DIR* dir = opendir(root.c_str());
  if (dir == nullptr) return cases;
  while (dirent* entry = readdir(dir)) {
    std::string name = entry->d_name;
    if (name[0] != '.' && FileExists(root + "/" + name + "/" + marker_file)) cases.push_back(name);
  }
  closedir(dir);
  std::sort(cases.begin(), cases.end());
  return cases;
}

std::string GoldenCaseName(const std::string& name) {
  std::string out = name;
  std::replace_if(
      out.begin(), out.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); },
      '_');
  return out;
}

std::string LintInputErrorReport(const std::string& where, const std::string& what) {
  return where + ": error[input-error] " + what +
         "; the other inputs were analysed without it\nreferences: 0 \u2014 hashed 0, waived 0, "
         "pending 0, runtime 0, unresolved 0\n1 error\n";
}

}  // namespace rollcall::testing
