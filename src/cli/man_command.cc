// `rollcall man`: the rollcall(1) manual page in roff, made from the option tables
// (option_table.h) and the exit codes --help shows, so that the page says what --help
// says. The build writes it to build/rollcall.1 and `meson install` puts it in man1.
#include <iostream>
#include <string>

#include "cli/commands.h"
#include "cli/option_table.h"
#include "cli/output.h"
#include "rollcall_version.h"

namespace rollcall::cli {
namespace {

// Text as roff prints it: backslashes escaped, hyphens as \- where they are
// options, and a line that would start with a control character guarded.
std::string Roff(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
    line_start = c == '\n';
  }
  return out;
}

std::string Page() {
  std::string out = ".TH ROLLCALL 1 \"\" \"rollcall " ROLLCALL_VERSION "\" \"User Commands\"\n";
  out +=
      ".SH NAME\nrollcall \\- make every Secret and ConfigMap change reach the pods that "
      "read it\n";
  out += ".SH SYNOPSIS\n.B rollcall\n[\\fICOMMAND\\fR] [\\fIOPTIONS\\fR]\n";
  out +=
      ".SH DESCRIPTION\nrollcall adds a hash of what each pod template reads from Secrets and "
      "ConfigMaps to the template, so a change rolls the workload (\\fBrender\\fR, a Helm "
      "post\\-renderer); says for every reference how a change reaches the process "
      "(\\fBlint\\fR); and lists who reads a Secret (\\fBconsumers\\fR). With no command, "
      "rollcall runs \\fBrender\\fR, as Helm 3's \\-\\-post\\-renderer calls it.\n";
  out += ".SH COMMANDS\n";
  for (const Command& command : Commands()) {
    out += ".TP\n.B " + Roff(command.name) + "\n" + Roff(command.summary) + "\n";
  }
  for (const CommandTable& table : CommandTables()) {
    out += ".SH " + Roff("ROLLCALL " + table.name) + "\n" + Roff(table.description) + "\n";
    out += ".PP\n.B " + Roff(table.usage) + "\n";
    std::string group = "\n";  // none yet
    for (const OptionEntry& option : table.options) {
      if (option.group != group) {
        group = option.group;
        if (!group.empty()) out += ".SS " + Roff(group + " options") + "\n";
      }
      out += ".TP\n";
      if (!option.short_name.empty()) out += "\\fB\\-" + Roff(option.short_name) + "\\fR, ";
      out += "\\fB\\-\\-" + Roff(option.long_name) + "\\fR";
      if (!option.value_name.empty()) out += " \\fI" + Roff(option.value_name) + "\\fR";
      out += "\n" + Roff(option.description);
      if (!option.default_value.empty()) out += " (default: " + Roff(option.default_value) + ")";
      out += "\n";
    }
    out += ".SS Exit status\n.nf\n" + Roff(ExitCodesHelp("rollcall " + table.name)) + ".fi\n";
  }
  out += ".SH ENVIRONMENT\n";
  for (const auto& [name, meaning] : {
           std::pair{"HELM_NAMESPACE", "the namespace of objects that name none, without -n"},
           std::pair{"HELM_BIN", "the helm binary, without --helm"},
           std::pair{"KUBECTL", "the kubectl binary for --lookup"},
           std::pair{"ROLLCALL_REPORT", "render's JSON report file, without --report"},
           std::pair{"ROLLCALL_HMAC_KEY_FILE", "render's HMAC key file, without --hmac-key-file"},
           std::pair{"NO_COLOR", "set and not empty: no colour in lint's text on a terminal"},
       }) {
    out += ".TP\n.B " + Roff(name) + "\n" + Roff(meaning) + "\n";
  }
  out += ".SH SEE ALSO\n.BR helm (1),\n.BR kubectl (1)\n";
  return out;
}

}  // namespace

int RunMan(const std::vector<std::string>& args) {
  if (!args.empty()) {
    PrintError("man takes no arguments (rollcall man | man -l -)");
    return kExitInput;
  }
  return WriteOutput(Page());
}

}  // namespace rollcall::cli
