#include "cli/commands.h"

#include <algorithm>
#include <iostream>
#include <string_view>

#include "cli/output.h"
#include "rollcall/near_names.h"
#include "rollcall_version.h"

namespace rollcall::cli {

const std::vector<Command>& Commands() {
  static const std::vector<Command> commands = {
      {"render", "stdin → stdout: add the config hash of what each pod template reads", RunRender,
       RenderOptionsSpec},
      {"krm", "render as a KRM function (kpt fn eval) or a kustomize exec plugin", RunKrm,
       KrmOptionsSpec},
      {"lint", "list every Secret/ConfigMap reference and how a change reaches it", RunLint,
       LintOptionsSpec},
      {"consumers", "list who reads a Secret or ConfigMap, and what to restart", RunConsumers,
       ConsumersOptionsSpec},
      {"roll", "after a Secret or ConfigMap changed, roll exactly its readers and observe it",
       RunRoll, RollOptionsSpec},
      {"rules", "print the catalogue of lint rules", RunRulesCommand, RulesOptionsSpec},
      {"completion", "print a shell's completions: bash, zsh or fish", RunCompletion, nullptr},
      {"man", "print the rollcall(1) manual page (roff: rollcall man | man -l -)", RunMan, nullptr},
      {"help", "show this help", RunHelp, nullptr},
  };
  return commands;
}

std::string ExitCodesHelp(const std::string& program) {
  std::string findings;
  if (program == "rollcall lint") {
    findings =
        "  1  a finding at a severity --fail-on names (default: error)\n"
        "  2  a usage error; or an input that could not be read, reported with the other "
        "findings\n";
  } else if (program == "rollcall render") {
    findings =
        "  1  a finding at a severity --fail-on names (default: none), or one certain to fail "
        "the deploy (immutable-field, malformed-reference, missing-key): nothing written\n"
        "  2  a usage or input error, or stdout could not be written: nothing written\n";
  } else if (program == "rollcall krm") {
    findings =
        "  1  strict and a finding at error or warning severity, or one certain to fail the deploy "
        "(immutable-field, malformed-reference, missing-key)\n"
        "  2  a usage or input error\n";
  } else if (program == "rollcall roll") {
    findings =
        "  1  a workload that reads a changed key was not observed rolled: not-rolled or "
        "timed-out in the report\n"
        "  2  a usage or input error, or kubectl failed before anything was patched\n";
  } else {
    findings = "  2  a usage or input error\n";
  }
  return "Exit codes:\n  0  success\n" + findings;
}

const Command* FindCommand(const std::string& name) {
  for (const Command& command : Commands()) {
    if (name == command.name) return &command;
  }
  return nullptr;
}

std::string UnknownCommand(const std::string& name) {
  std::string message = "unknown command \"" + name + "\"";
  std::vector<std::string> names;
  for (const Command& command : Commands()) names.emplace_back(command.name);
  // More than two edits is no typo.
  if (std::string nearest = NearestWord(name, names, 2); !nearest.empty()) {
    message += "; did you mean \"" + nearest + "\"?";
  }
  return message + " (rollcall help lists the commands)";
}

int RunHelp(const std::vector<std::string>& args) {
  if (!args.empty()) {
    const Command* command = FindCommand(args[0]);
    if (command == nullptr) {
      PrintError(UnknownCommand(args[0]));
      return kExitInput;
    }
    if (command->run != RunHelp) return command->run({"--help"});
  }
  std::cout << "rollcall " << ROLLCALL_VERSION
            << ": make every Secret and ConfigMap change reach the pods that read it.\n\n"
               "usage: rollcall [COMMAND] [OPTIONS]\n\n"
               "commands:\n";
  // The names in a column two spaces wider than the longest ("completion" had none).
  std::size_t width = 0;
  for (const Command& command : Commands()) {
    width = std::max(width, std::string_view(command.name).size());
  }
  for (const Command& command : Commands()) {
    std::cout << "  " << command.name
              << std::string(width + 2 - std::string_view(command.name).size(), ' ')
              << command.summary << "\n";
  }
  std::cout << "\nWith no command, rollcall runs `render` (as Helm 3's --post-renderer calls it).\n"
               "`rollcall help COMMAND` (or `rollcall COMMAND --help`) describes a command's "
               "options. `rollcall --version`.\n";
  return kExitOk;
}

}  // namespace rollcall::cli
