// Every command's options as data, read from the cxxopts tables the commands parse
// with (commands.h): what the man page and the shell completions are made from, so
// that they say what --help says.
#pragma once

#include <string>
#include <vector>

namespace rollcall::cli {

struct OptionEntry {
  std::string group;          // "Reading", "Output", …
  std::string short_name;     // "n", or ""
  std::string long_name;      // "namespace"
  std::string value_name;     // "NS"; "" for a switch
  std::string description;    // as --help words it
  std::string default_value;  // "" when none is shown
};

struct CommandTable {
  std::string name;                  // "lint"
  std::string summary;               // the line `rollcall help` shows
  std::string description;           // the paragraph --help starts with
  std::string usage;                 // "rollcall lint [OPTION...] [PATH…] (…)"
  std::vector<OptionEntry> options;  // in --help's order
};

// The commands that have options, in `rollcall help`'s order.
std::vector<CommandTable> CommandTables();

// The option groups in the order --help shows them (the positional one left out).
std::vector<std::string> HelpGroups(const std::vector<std::string>& groups);

}  // namespace rollcall::cli
