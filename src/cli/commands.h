// The subcommands of the rollcall binary. Each lives in its own file under
// src/cli/ and only wires the pipeline modules to arguments, stdin and stdout.
#pragma once

#include <cxxopts.hpp>
#include <string>
#include <vector>

namespace rollcall::cli {

// Exit codes shared by every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFindings = 1;  // findings at error severity (lint, --strict)
inline constexpr int kExitInput = 2;     // usage or input error

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const std::vector<std::string>& args);  // args exclude the command name
  // Its option table: what it parses, and what --help, the man page and the shell
  // completions are made from (one table, so they cannot drift). Null: no options.
  cxxopts::Options (*options)();
};

const std::vector<Command>& Commands();
// The command called `name`, or null.
const Command* FindCommand(const std::string& name);
// `unknown command "lnt"; did you mean "lint"?`, naming the nearest command within
// two edits, and where the list is.
std::string UnknownCommand(const std::string& name);

// The option tables.
cxxopts::Options RenderOptionsSpec();
cxxopts::Options KrmOptionsSpec();
cxxopts::Options LintOptionsSpec();
cxxopts::Options ConsumersOptionsSpec();
cxxopts::Options RulesOptionsSpec();
cxxopts::Options RollOptionsSpec();

int RunRender(const std::vector<std::string>& args);
int RunKrm(const std::vector<std::string>& args);
int RunLint(const std::vector<std::string>& args);
int RunConsumers(const std::vector<std::string>& args);
int RunRulesCommand(const std::vector<std::string>& args);
int RunRoll(const std::vector<std::string>& args);
// The "Exit codes:" section that ends `program`'s --help ("rollcall lint", …).
std::string ExitCodesHelp(const std::string& program);

// `rollcall help [COMMAND]`: the command list, or COMMAND's --help.
int RunHelp(const std::vector<std::string>& args);
int RunCompletion(const std::vector<std::string>& args);
// `rollcall man`: the rollcall(1) manual page, in roff (built into build/rollcall.1).
int RunMan(const std::vector<std::string>& args);

}  // namespace rollcall::cli
