#include "rollcall/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "rollcall/input_error.h"

namespace rollcall {
namespace {

// Closes the descriptor however the read ends.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// `what` as the subject of a sentence, or `fallback` for a manifest.
std::string Subject(const RegularFileRead& how, const char* fallback) {
  return how.what.empty() ? fallback : how.what + " ";
}

[[noreturn]] void Fail(const std::string& origin, const std::string& message) {
  throw InputError(Location{origin, 0, 0, 0}, message);
}

[[noreturn]] void FailErrno(const std::string& origin, const RegularFileRead& how, int error) {
  Fail(origin, "cannot read " + (how.what.empty() ? std::string("the file") : how.what) + ": " +
                   std::strerror(error));
}

// What a file of mode `mode` (stat's st_mode) is, for messages.
const char* FileTypeName(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a named pipe";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "an unknown kind of file";
}

}  // namespace

InputBytes ReadRegularFileBytes(const std::string& path, const std::string& origin,
                                const RegularFileRead& how) {
  // O_NONBLOCK: opening a named pipe for reading otherwise waits for a writer.
  // O_NOCTTY: a terminal named here must not become the controlling one.
  int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
  if (!how.follow_symlink) flags |= O_NOFOLLOW;
  FileDescriptor fd(open(path.c_str(), flags));
  if (fd.get() < 0) {
    int error = errno;
    struct stat link {};
    if (!how.follow_symlink && error == ELOOP && lstat(path.c_str(), &link) == 0 &&
        S_ISLNK(link.st_mode)) {
      Fail(origin, Subject(how, "") + "is a symbolic link, which is not followed here");
    }
    FailErrno(origin, how, error);
  }
  struct stat info {};
  if (fstat(fd.get(), &info) != 0) FailErrno(origin, how, errno);
  if (!S_ISREG(info.st_mode)) {
    Fail(origin, Subject(how, "") + "is " + FileTypeName(info.st_mode) + ", not a regular file" +
                     how.not_regular_hint);
  }
  if (how.not_standard_input) {
    struct stat input {};
    if (fstat(STDIN_FILENO, &input) == 0 && input.st_dev == info.st_dev &&
        input.st_ino == info.st_ino) {
      Fail(origin, Subject(how, "") + "is standard input, which carries the manifest");
    }
  }
  // The size fstat gave is not the size read: a file may grow while it is read, and
  // /proc's files say 0. The buffer stops one byte past the limit, enough to see
  // that the file is over it.
  const std::size_t limit = how.max_bytes;
  InputBytes bytes = InputBytes::Growable(limit + 1);
  if (int error = bytes.ReadFrom(fd.get())) FailErrno(origin, how, error);
  if (bytes.size() > limit) {
    Fail(origin, Subject(how, "input ") + "is larger than the limit of " + std::to_string(limit) +
                     " bytes" + (how.limit_option.empty() ? "" : " (" + how.limit_option + ")"));
  }
  return bytes;
}

std::string ReadRegularFile(const std::string& path, const std::string& origin,
                            const RegularFileRead& how) {
  return std::string(ReadRegularFileBytes(path, origin, how).view());
}

}  // namespace rollcall
