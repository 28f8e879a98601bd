#include "cli/commands.h"

#include <iostream>

#include "rollcall_version.h"

namespace rollcall::cli {

const std::vector<Command>& Commands() {
  static const std::vector<Command> commands = {
      {"render", "stdin → stdout: add the config hash of what each pod template reads", RunRender},
      {"krm", "render as a KRM function (kpt fn eval) or a kustomize exec plugin", RunKrm},
      {"lint", "list every Secret/ConfigMap reference and how a change reaches it", RunLint},
      {"consumers", "list who reads a Secret or ConfigMap, and what to restart", RunConsumers},
      {"rules", "print the catalogue of lint rules", RunRulesCommand},
      {"help", "show this help", RunHelp},
  };
  return commands;
}

int RunHelp(const std::vector<std::string>& /*args*/) {
  std::cout << "rollcall " << ROLLCALL_VERSION
            << ": make every Secret and ConfigMap change reach the pods that read it.\n\n"
               "usage: rollcall [COMMAND] [OPTIONS]\n\n"
               "commands:\n";
  for (const Command& command : Commands()) {
    std::cout << "  " << command.name << std::string(10 - std::string(command.name).size(), ' ')
              << command.summary << "\n";
  }
  std::cout << "\nWith no command, rollcall runs `render` (as Helm 3's --post-renderer calls it).\n"
               "`rollcall COMMAND --help` describes a command's options. `rollcall --version`.\n";
  return kExitOk;
}

}  // namespace rollcall::cli
