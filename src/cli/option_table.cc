#include "cli/option_table.h"

#include <algorithm>

#include "cli/commands.h"
#include "cli/input.h"

namespace rollcall::cli {

std::vector<std::string> HelpGroups(const std::vector<std::string>& groups) {
  // The order a reader needs them in; any other after.
  std::vector<std::string> out;
  for (const char* group : {"Change", "Cluster", "Waiting", "Reading", "Charts", "Findings",
                            "Output", "Baseline", "Jobs and the previous release", "Limits", ""}) {
    if (std::find(groups.begin(), groups.end(), group) != groups.end()) out.emplace_back(group);
  }
  for (const std::string& group : groups) {
    if (group != kHiddenGroup && std::find(out.begin(), out.end(), group) == out.end()) {
      out.push_back(group);
    }
  }
  return out;
}

std::vector<CommandTable> CommandTables() {
  std::vector<CommandTable> tables;
  for (const Command& command : Commands()) {
    if (command.options == nullptr) continue;
    cxxopts::Options spec = command.options();
    CommandTable table;
    table.name = command.name;
    table.summary = command.summary;
    // --help's first lines: the description, "Usage:", the usage line.
    std::string help = spec.help({}, true);
    std::size_t usage = help.find("\nUsage:\n");
    table.description = help.substr(0, usage);
    if (usage != std::string::npos) {
      std::size_t start = help.find_first_not_of(' ', usage + 8);
      table.usage = help.substr(start, help.find('\n', start) - start);
    }
    for (const std::string& group : HelpGroups(spec.groups())) {
      for (const cxxopts::HelpOptionDetails& option : spec.group_help(group).options) {
        OptionEntry entry;
        entry.group = group;
        entry.short_name = option.s;
        entry.long_name = option.l.empty() ? "" : option.l.front();
        entry.value_name = option.is_boolean ? "" : option.arg_help;
        entry.description = option.desc;
        if (option.has_default && !option.is_boolean) entry.default_value = option.default_value;
        table.options.push_back(std::move(entry));
      }
    }
    tables.push_back(std::move(table));
  }
  return tables;
}

}  // namespace rollcall::cli
