#include "cli/output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <iostream>

#include "cli/commands.h"
#include "rollcall/printable.h"

namespace rollcall::cli {

std::string StdoutError(int error) {
  return std::string("cannot write to standard output") +
         (error != 0 ? std::string(": ") + std::strerror(error) : std::string());
}

int WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) return EIO;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

std::string StderrLine(std::string_view message) {
  return "rollcall: " + Printable(message) + "\n";
}

void PrintError(std::string_view message) {
  std::cerr << StderrLine("error: " + std::string(message));
}

std::string WriteStandardOutput(const std::vector<std::string_view>& pieces) {
  // std::cout would do the gathering too, but loses the errno of a failed write.
  constexpr std::size_t kBuffer = std::size_t{1} << 16;
  std::string buffer;
  buffer.reserve(kBuffer);
  for (std::string_view piece : pieces) {
    if (buffer.size() + piece.size() > kBuffer) {
      if (int error = WriteAll(STDOUT_FILENO, buffer)) return StdoutError(error);
      buffer.clear();
    }
    if (piece.size() >= kBuffer) {
      if (int error = WriteAll(STDOUT_FILENO, piece)) return StdoutError(error);
    } else {
      buffer.append(piece);
    }
  }
  if (int error = WriteAll(STDOUT_FILENO, buffer)) return StdoutError(error);
  return "";
}

void IgnoreBrokenPipe() { std::signal(SIGPIPE, SIG_IGN); }

int WriteOutput(std::string_view output) {
  std::string error = WriteStandardOutput({output});
  if (error.empty()) return kExitOk;
  PrintError(error);
  return kExitInput;
}

int WriteOutput(std::string_view input, RenderPlan& plan, std::string& error) {
  SpliceCutter cutter(input);
  plan.ForEachEditRun([&](std::vector<Edit>& run) {
    error = WriteStandardOutput(cutter.Cut(run));
    return error.empty();
  });
  if (error.empty()) error = WriteStandardOutput({cutter.Rest()});
  if (error.empty()) return kExitOk;
  PrintError(error);
  return kExitInput;
}

std::string ReplaceableFileProblem(const std::string& path, const std::string& what) {
  const std::string where = what + " " + path;
  struct stat info {};
  if (lstat(path.c_str(), &info) == 0) {
    if (S_ISLNK(info.st_mode)) {
      return where + " is a symbolic link; rollcall writes no file through one";
    }
    if (!S_ISREG(info.st_mode)) return where + " exists and is not a regular file";
  } else if (errno != ENOENT) {
    return "cannot write " + where + ": " + std::strerror(errno);
  }
  return "";
}

std::string ReplaceFile(const std::string& path, std::string_view content,
                        const std::string& what) {
  const std::string where = what + " " + path;
  if (std::string problem = ReplaceableFileProblem(path, what); !problem.empty()) return problem;
  std::string::size_type slash = path.rfind('/');
  std::string directory = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  std::string temporary = directory + ".rollcall-report-XXXXXX";
  // mkstemp creates the file with O_EXCL: it never opens what is already there.
  int fd = mkstemp(temporary.data());
  if (fd < 0) return "cannot write " + where + ": " + std::strerror(errno);
  // mkstemp's mode is 0600; a report is as readable as any file the user creates.
  mode_t mask = umask(0);
  umask(mask);
  int error = fchmod(fd, 0666 & ~mask) == 0 ? WriteAll(fd, content) : errno;
  if (close(fd) != 0 && error == 0) error = errno;
  if (error == 0 && rename(temporary.c_str(), path.c_str()) != 0) error = errno;
  if (error != 0) {
    unlink(temporary.c_str());
    return "cannot write " + where + ": " + std::strerror(error);
  }
  return "";
}

}  // namespace rollcall::cli
