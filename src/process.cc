#include "rollcall/process.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <sstream>
#include <string_view>

#include "rollcall/input_error.h"

extern char** environ;

namespace rollcall {
namespace {

// Writes `input` to the program's stdin (`in_fd`, -1 for none) and reads both output
// pipes until they close, all in one loop, so no pipe can fill and block either side.
// stdout is kept up to `max_out` bytes: false as soon as the program printed more
// (it is then still running). stderr is kept up to kMaxStderrBytes; the rest is
// read and counted. A program that exits before reading all its input just ends the
// writing (EPIPE: RunProgram ignores SIGPIPE when it feeds a program).
bool Drain(int in_fd, std::string_view input, int out_fd, int err_fd, std::size_t max_out,
           ProcessOutput& result) {
  pollfd fds[3] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}, {in_fd, POLLOUT, 0}};
  auto close_all = [&fds] {
    for (pollfd& fd : fds) {
      if (fd.fd >= 0) close(fd.fd);
      fd.fd = -1;
    }
  };
  auto close_input = [&fds] {
    if (fds[2].fd >= 0) close(fds[2].fd);
    fds[2].fd = -1;
  };
  if (in_fd >= 0 && input.empty()) close_input();
  int open_count = 2;
  char buffer[65536];
  while (open_count > 0) {
    if (poll(fds, 3, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[2].fd >= 0 && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP)) != 0) {
      ssize_t n = write(fds[2].fd, input.data(), std::min(input.size(), sizeof buffer));
      if (n > 0) input.remove_prefix(static_cast<std::size_t>(n));
      if ((n < 0 && errno != EINTR && errno != EAGAIN) || input.empty()) close_input();
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_count;
        continue;
      }
      auto size = static_cast<std::size_t>(n);
      if (i == 0) {
        if (size > max_out - result.out.size()) {
          close_all();
          return false;
        }
        // Grown by doubling up to the limit, never past it: a full buffer costs the
        // limit, not twice it.
        if (result.out.size() + size > result.out.capacity()) {
          result.out.reserve(std::min(std::max(result.out.capacity() * 2, sizeof buffer), max_out));
        }
        result.out.append(buffer, size);
      } else {
        std::size_t kept = std::min(size, kMaxStderrBytes - result.err.size());
        result.err.append(buffer, kept);
        result.err_dropped += size - kept;
      }
    }
  }
  close_all();
  return true;
}

// The program's file name, for messages ("helm", "kubectl"): the message's origin
// already says which of its commands ran.
std::string ProgramName(const std::vector<std::string>& argv) {
  return argv[0].substr(argv[0].rfind('/') + 1);
}

}  // namespace

std::string ProcessOutput::ErrorText() const {
  std::string text = err;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  if (err_dropped > 0) {
    text += " [" + std::to_string(err_dropped) + " more bytes of stderr not shown]";
  }
  return text;
}

std::string KubectlFailure(const ProcessOutput& got) {
  std::string text = got.ErrorText();
  std::string message = "kubectl failed (exit " + std::to_string(got.exit_code) + "): " + text;
  if (text.find("is forbidden: ") != std::string::npos) {
    message +=
        " (the rights rollcall needs, as Roles: docs/security.md, \"The rights rollcall needs "
        "in a cluster\")";
  }
  return message;
}

ProcessOutput RunProgram(const std::vector<std::string>& argv, std::size_t max_stdout_bytes,
                         const std::string& origin, const std::optional<std::string>& input) {
  ProcessOutput result;
  int out_pipe[2] = {-1, -1};
  int err_pipe[2] = {-1, -1};
  int in_pipe[2] = {-1, -1};
  if (argv.empty() || pipe(out_pipe) != 0) return result;
  if (pipe(err_pipe) != 0 || (input && pipe(in_pipe) != 0)) {
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) {
      if (fd >= 0) close(fd);
    }
    return result;
  }
  if (input) {
    fcntl(in_pipe[1], F_SETFL, fcntl(in_pipe[1], F_GETFL) | O_NONBLOCK);
    // A program that exits before reading all of its input must not take rollcall
    // with it: the write fails with EPIPE instead, and the feeding stops.
    std::signal(SIGPIPE, SIG_IGN);
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (input) {
    posix_spawn_file_actions_adddup2(&actions, in_pipe[0], 0);
  } else {
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  }
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1], in_pipe[0], in_pipe[1]}) {
    if (fd >= 0) posix_spawn_file_actions_addclose(&actions, fd);
  }
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (in_pipe[0] >= 0) close(in_pipe[0]);
  if (spawned != 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    if (in_pipe[1] >= 0) close(in_pipe[1]);
    result.exit_code = 127;
    result.err = "cannot run " + argv[0];
    return result;
  }
  bool within_limit = Drain(in_pipe[1], input ? std::string_view(*input) : std::string_view(),
                            out_pipe[0], err_pipe[0], max_stdout_bytes, result);
  if (!within_limit) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!within_limit) {
    throw InputError(Location{origin, 0, 0, 0},
                     ProgramName(argv) + " printed more than " + std::to_string(max_stdout_bytes) +
                         " bytes, the input limit (--max-input-bytes); it was stopped");
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

bool ProgramExists(const std::string& name) {
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0;
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path == nullptr ? "" : path);
  for (std::string dir; std::getline(dirs, dir, ':');) {
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return true;
  }
  return false;
}

}  // namespace rollcall
