// rollcall: one binary, several subcommands. With no subcommand it is the Helm 3
// post-renderer, which Helm calls with only the --post-renderer-args: so a first
// argument that is not an option must name a command.
#include <cerrno>
#include <cstdio>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/output.h"
#include "rollcall_commit.h"
#include "rollcall_version.h"

namespace {

int Run(const std::vector<std::string>& args) {
  if (!args.empty() && (args[0] == "--version" || args[0] == "version")) {
    std::cout << "rollcall " << ROLLCALL_VERSION << " (commit " << ROLLCALL_COMMIT << ")\n";
    return rollcall::cli::kExitOk;
  }
  if (args.empty() || args[0].rfind('-', 0) == 0) {
    if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
      return rollcall::cli::RunHelp({});
    }
    return rollcall::cli::RunRender(args);
  }
  if (const rollcall::cli::Command* command = rollcall::cli::FindCommand(args[0])) {
    return command->run(std::vector<std::string>(args.begin() + 1, args.end()));
  }
  rollcall::cli::PrintError(rollcall::cli::UnknownCommand(args[0]));
  return rollcall::cli::kExitInput;
}

// help, --version, rules, completion and man write through std::cout, which goes
// through C's stdout. Its buffer holds the whole of what they print (kStdoutBuffer),
// so that it reaches the file in the final flush, whose error (a full disk,
// /dev/full) is said with its reason, as it is for render's and lint's output.
constexpr std::size_t kStdoutBuffer = std::size_t{1} << 20;

int FlushStandardOutput(int status) {
  errno = 0;
  if (std::cout.flush()) return status;
  const int error = errno;
  rollcall::cli::PrintError(rollcall::cli::StdoutError(error));
  return status == rollcall::cli::kExitOk ? rollcall::cli::kExitInput : status;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  static char stdout_buffer[kStdoutBuffer];  // glibc sizes a buffer of its own by the file
  std::setvbuf(stdout, stdout_buffer, _IOFBF, sizeof stdout_buffer);
  try {
    return FlushStandardOutput(Run(args));
  } catch (const std::bad_alloc&) {
    // render, lint and consumers have written nothing to stdout: their output goes
    // out once all of it is known.
    // What the allocation was for has been unwound and freed, so this line can be.
    rollcall::cli::PrintError(
        "out of memory: the input needs more memory than the process may use (its "
        "memory or address-space limit); docs/performance.md gives what streams need");
    return rollcall::cli::kExitInput;
  }
}
