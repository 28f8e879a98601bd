// Running another program (helm, kubectl) and collecting what it says.
#pragma once

#include <string>
#include <vector>

namespace rollcall {

struct ProcessOutput {
  int exit_code = -1;  // 127 when the program could not be started
  std::string out;
  std::string err;

  // What the program said on stderr, without its final line breaks, for messages.
  std::string ErrorText() const;
};

// Runs `argv` (argv[0] looked up on PATH unless it contains a '/') with stdin
// from /dev/null, and waits for it. Never throws for the program's failures.
ProcessOutput RunProgram(const std::vector<std::string>& argv);

// True when `name` names an executable: a path, or a file found on PATH.
bool ProgramExists(const std::string& name);

}  // namespace rollcall
