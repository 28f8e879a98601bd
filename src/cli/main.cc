// rollcall: one binary, several subcommands. With no subcommand it is the Helm 3
// post-renderer, which Helm calls with only the --post-renderer-args.
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "rollcall_version.h"

int main(int argc, char** argv) {
  using rollcall::cli::Commands;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && (args[0] == "--version" || args[0] == "version")) {
    std::cout << "rollcall " << ROLLCALL_VERSION << "\n";
    return rollcall::cli::kExitOk;
  }
  if (!args.empty()) {
    for (const auto& command : Commands()) {
      if (args[0] == command.name) {
        return command.run(std::vector<std::string>(args.begin() + 1, args.end()));
      }
    }
    if (args[0] == "--help" || args[0] == "-h") return rollcall::cli::RunHelp({});
  }
  return rollcall::cli::RunRender(args);
}
