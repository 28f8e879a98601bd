// `rollcall completion bash|zsh|fish`: shell completions made from the option tables
// (option_table.h), so they offer what --help lists. Load with
// `source <(rollcall completion bash)`; docs/install.md has where to put them.
#include <iostream>
#include <string>

#include "cli/commands.h"
#include "cli/option_table.h"
#include "cli/output.h"

namespace rollcall::cli {
namespace {

// Values that name a file or a program complete as paths; the others as nothing.
bool TakesPath(const OptionEntry& option) {
  return option.value_name == "FILE" || option.value_name == "BIN";
}

std::string Bash() {
  std::string commands;
  for (const Command& command : Commands()) commands += std::string(command.name) + " ";
  std::string cases;
  for (const CommandTable& table : CommandTables()) {
    std::string words;
    std::string paths;
    for (const OptionEntry& option : table.options) {
      words += " --" + option.long_name;
      if (!option.short_name.empty()) words += " -" + option.short_name;
      if (TakesPath(option)) {
        paths += " --" + option.long_name;
        if (!option.short_name.empty()) paths += " -" + option.short_name;
      }
    }
    cases += "    " + table.name + ") opts=\"" + words.substr(1) + "\"; paths=\"" +
             (paths.empty() ? "" : paths.substr(1)) + "\" ;;\n";
  }
  return "# bash completion for rollcall, made by `rollcall completion bash` from its option\n"
         "# tables. Load it with: source <(rollcall completion bash)\n"
         "_rollcall() {\n"
         "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
         "  local cmd=\"\" opts=\"\" paths=\"\" i\n"
         "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
         "    case \"${COMP_WORDS[i]}\" in -*) ;; *) cmd=\"${COMP_WORDS[i]}\"; break ;; esac\n"
         "  done\n"
         "  if [[ -z \"$cmd\" ]]; then\n"
         "    COMPREPLY=($(compgen -W \"" +
         commands +
         "--help --version\" -- \"$cur\"))\n"
         "    return\n"
         "  fi\n"
         "  case \"$cmd\" in\n" +
         cases + "    help) COMPREPLY=($(compgen -W \"" + commands +
         "\" -- \"$cur\")); return ;;\n"
         "    completion) COMPREPLY=($(compgen -W \"bash zsh fish\" -- \"$cur\")); return ;;\n"
         "  esac\n"
         "  if [[ \" $paths \" == *\" $prev \"* ]]; then\n"
         "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
         "  elif [[ \"$cur\" == -* ]]; then\n"
         "    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
         "  else\n"
         "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
         "  fi\n"
         "}\n"
         "complete -o filenames -F _rollcall rollcall\n";
}

// zsh runs the bash function through bashcompinit.
std::string Zsh() {
  return "#compdef rollcall\n"
         "# zsh completion for rollcall, made by `rollcall completion zsh`: the bash one, run\n"
         "# through bashcompinit.\n"
         "autoload -U +X bashcompinit && bashcompinit\n" +
         Bash();
}

// A description as fish quotes it: single quotes, with \' and \\.
std::string FishQuoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out + "'";
}

std::string Fish() {
  std::string out =
      "# fish completion for rollcall, made by `rollcall completion fish` from its option\n"
      "# tables.\n"
      "complete -c rollcall -f\n";
  for (const Command& command : Commands()) {
    out += "complete -c rollcall -n __fish_use_subcommand -a " + std::string(command.name) +
           " -d " + FishQuoted(command.summary) + "\n";
  }
  for (const CommandTable& table : CommandTables()) {
    for (const OptionEntry& option : table.options) {
      out += "complete -c rollcall -n '__fish_seen_subcommand_from " + table.name + "' -l " +
             option.long_name;
      if (!option.short_name.empty()) out += " -s " + option.short_name;
      if (!option.value_name.empty()) out += TakesPath(option) ? " -r -F" : " -r";
      out += " -d " + FishQuoted(option.description) + "\n";
    }
  }
  return out;
}

}  // namespace

int RunCompletion(const std::vector<std::string>& args) {
  if (args.size() == 1 && (args[0] == "-h" || args[0] == "--help")) {
    std::cout << "Prints the completions of a shell for rollcall.\nUsage:\n"
                 "  rollcall completion bash|zsh|fish\n\n"
                 "  source <(rollcall completion bash)\n\n"
              << ExitCodesHelp("rollcall completion");
    return kExitOk;
  }
  if (args.size() != 1 || (args[0] != "bash" && args[0] != "zsh" && args[0] != "fish")) {
    PrintError("completion takes one shell: bash, zsh or fish");
    return kExitInput;
  }
  std::string script = args[0] == "bash" ? Bash() : args[0] == "zsh" ? Zsh() : Fish();
  return WriteOutput(script);
}

}  // namespace rollcall::cli
