// Running another program (helm, kubectl) and collecting what it says, bounded:
// what a program prints comes from charts and clusters rollcall does not trust,
// and is held to the same limit as any other input.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace rollcall {

// What is kept of a program's stderr: it is only shown in messages. The rest is
// read (so the program never blocks on a full pipe) and dropped.
inline constexpr std::size_t kMaxStderrBytes = std::size_t{64} << 10;

struct ProcessOutput {
  int exit_code = -1;  // 127 when the program could not be started
  std::string out;
  std::string err;              // at most kMaxStderrBytes
  std::size_t err_dropped = 0;  // stderr bytes past kMaxStderrBytes

  // What the program said on stderr, without its final line breaks, for messages.
  std::string ErrorText() const;
};

// "kubectl failed (exit N): what it said", for the error of a kubectl run. Where the
// API server refused a call for want of a right (kubectl's "… is forbidden: User …
// cannot …"), it adds where the Roles rollcall needs are listed.
std::string KubectlFailure(const ProcessOutput& got);

// Runs `argv` (argv[0] looked up on PATH unless it contains a '/') with stdin
// from /dev/null, or fed `input` when given, and no shell, and waits for it. Never
// throws for the program's failures, but when it prints more than
// `max_stdout_bytes` on stdout, the program is killed (SIGKILL) and reaped, and
// InputError is thrown at `origin`, naming the program and the limit
// (--max-input-bytes). Feeding `input` sets SIGPIPE to be ignored, so that a program
// that stops reading early ends the feeding, not rollcall.
ProcessOutput RunProgram(const std::vector<std::string>& argv, std::size_t max_stdout_bytes,
                         const std::string& origin,
                         const std::optional<std::string>& input = std::nullopt);

// True when `name` names an executable: a path, or a file found on PATH.
bool ProgramExists(const std::string& name);

}  // namespace rollcall
