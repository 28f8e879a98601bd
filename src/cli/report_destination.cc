#include "cli/report_destination.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "cli/output.h"

namespace rollcall::cli {
namespace {

bool IsStandardOutputName(const std::string& path) {
  return path == "/dev/stdout" || path == "/dev/fd/1";
}

// /dev/null (character device 1,3) or a terminal: the devices a report may go to.
// Any other device is refused: a report path is a command-line value, but a wrong one
// must not write into a disk or a serial line.
bool IsWritableDevice(const struct stat& info, int fd) {
  if (!S_ISCHR(info.st_mode)) return false;
  if (major(info.st_rdev) == 1 && minor(info.st_rdev) == 3) return true;
  return fd >= 0 && isatty(fd) != 0;
}

std::string WriteToDevice(const std::string& path, std::string_view content) {
  const std::string where = "the report " + path;
  // O_NOCTTY: naming a terminal must not make it the controlling one. O_NOFOLLOW and
  // the fstat below: what is written is what was checked, even if the path changed.
  int fd = open(path.c_str(), O_WRONLY | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return "cannot write " + where + ": " + std::strerror(errno);
  struct stat info {};
  int error = 0;
  if (fstat(fd, &info) != 0) {
    error = errno;
  } else if (!IsWritableDevice(info, fd)) {
    close(fd);
    return where + " is not a terminal nor /dev/null";
  } else {
    error = WriteAll(fd, content);
  }
  if (close(fd) != 0 && error == 0) error = errno;
  return error == 0 ? "" : "cannot write " + where + ": " + std::strerror(error);
}

}  // namespace

bool IsStandardErrorName(const std::string& path) {
  return path == "-" || path == "/dev/stderr" || path == "/dev/fd/2";
}

std::string ReportDestinationProblem(const std::string& path) {
  if (IsStandardErrorName(path)) return "";
  if (IsStandardOutputName(path)) {
    return "the report cannot go to standard output (" + path +
           "): the manifests go there; use - for standard error";
  }
  struct stat info {};
  // A device is checked when written (a terminal is known only once open); here only
  // that it is a character device at all.
  if (lstat(path.c_str(), &info) == 0 && S_ISCHR(info.st_mode)) return "";
  return ReplaceableFileProblem(path);
}

std::string WriteReportDestination(const std::string& path, std::string_view content) {
  if (IsStandardErrorName(path)) {
    int error = WriteAll(STDERR_FILENO, content);
    return error == 0
               ? ""
               : std::string("cannot write the report to standard error: ") + std::strerror(error);
  }
  struct stat info {};
  if (lstat(path.c_str(), &info) == 0 && S_ISCHR(info.st_mode)) {
    return WriteToDevice(path, content);
  }
  return ReplaceFile(path, content);
}

}  // namespace rollcall::cli
