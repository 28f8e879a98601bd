#include "cli/input.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "cli/commands.h"
#include "cli/option_table.h"
#include "cli/output.h"
#include "rollcall/input_error.h"
#include "rollcall/inputs.h"
#include "rollcall/near_names.h"
#include "rollcall/regular_file.h"
#include "rollcall/rules.h"

namespace rollcall::cli {

namespace {

// "unknown option --nmespace; did you mean --namespace?": the first argument that
// names no option of `spec`, and the long option nearest it within two edits.
std::string UnknownOption(const cxxopts::Options& spec, const std::vector<std::string>& args,
                          const std::string& fallback) {
  std::vector<std::string> names;
  for (const std::string& group : spec.groups()) {
    for (const cxxopts::HelpOptionDetails& option : spec.group_help(group).options) {
      for (const std::string& name : option.l) names.push_back(name);
    }
  }
  for (const std::string& arg : args) {
    if (arg == "--") break;
    if (arg.rfind("--", 0) != 0) continue;
    std::string name =
        arg.substr(2, arg.find('=') == std::string::npos ? std::string::npos : arg.find('=') - 2);
    if (std::find(names.begin(), names.end(), name) != names.end()) continue;
    std::string message = "unknown option --" + name;
    std::string nearest = NearestWord(name, names, 2);  // more edits is no typo
    return nearest.empty() ? message : message + "; did you mean --" + nearest + "?";
  }
  return fallback;
}

}  // namespace

std::optional<cxxopts::ParseResult> ParseOrHelp(cxxopts::Options& spec,
                                                const std::vector<std::string>& args) {
  std::vector<const char*> argv = {"rollcall"};
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  cxxopts::ParseResult parsed;
  try {
    parsed = spec.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const cxxopts::exceptions::no_such_option& e) {
    throw cxxopts::exceptions::parsing(UnknownOption(spec, args, e.what()));
  }
  if (parsed.count("help") > 0) {
    std::vector<std::string> groups = HelpGroups(spec.groups());
    std::cout << spec.help(groups) << "\n" << ExitCodesHelp(spec.program());
    return std::nullopt;
  }
  return parsed;
}

std::string StringOption(const cxxopts::ParseResult& parsed, const std::string& name) {
  return parsed.count(name) > 0 ? parsed[name].as<std::string>() : std::string();
}

std::string FlagOrEnv(const std::string& flag, const char* env, const std::string& fallback) {
  if (!flag.empty()) return flag;
  const char* value = std::getenv(env);
  return value != nullptr && *value != '\0' ? value : fallback;
}

std::string DefaultNamespace(const std::string& flag) {
  return FlagOrEnv(flag, "HELM_NAMESPACE", "default");
}

std::string ReadHmacKey(const std::string& path) {
  RegularFileRead how;
  how.what = "the HMAC key file";
  how.max_bytes = std::size_t{1} << 20;
  how.not_standard_input = true;
  std::string key = ReadRegularFile(path, path, how);
  if (!key.empty() && key.back() == '\n') key.pop_back();
  if (!key.empty() && key.back() == '\r') key.pop_back();
  if (key.empty()) throw InputError(Location{path, 0, 0, 0}, "the HMAC key file is empty");
  return key;
}

}  // namespace rollcall::cli

namespace rollcall::cli {

namespace {

// Where the config came from, for --verbose's "rollcall: config: …" line.
std::string DescribeConfig(const ConfigSearch& search) {
  if (!search.found.empty()) return search.found;
  if (search.work_tree.empty()) {
    return "none (no .rollcall.yaml in " + search.start +
           "; outside a git work tree no other directory is searched)";
  }
  if (search.work_tree == search.start) {
    return "none (no .rollcall.yaml in " + search.start + ", the git work tree's root)";
  }
  return "none (no .rollcall.yaml from " + search.start + " up to " + search.work_tree +
         ", the git work tree's root)";
}

}  // namespace

Config LoadProjectConfig(const std::string& flag, bool verbose) {
  // Said before it is read, so that an error in it follows the line naming it.
  if (!flag.empty()) {
    if (verbose) std::cerr << StderrLine("config: " + flag + " (--config)");
    return LoadConfig(flag);
  }
  ConfigSearch search = SearchConfigFile(".");
  if (verbose) std::cerr << StderrLine("config: " + DescribeConfig(search));
  return search.found.empty() ? Config{} : LoadConfig(search.found);
}

void PrintFindings(const std::vector<Finding>& findings, const CoverageSummary& summary) {
  // One write: std::cerr flushes after every insertion, a system call each.
  std::string text;
  for (const Finding& finding : findings) text += StderrLine(FormatFinding(finding));
  text += StderrLine(summary.Line());
  std::cerr << text;
}

std::string StopReason(const std::vector<Finding>& findings, FailOn fail_on,
                       const std::string& option) {
  if (!HasBlockingFinding(findings, fail_on)) {
    // The rules that stop render whatever --fail-on says, as found, each named once.
    std::vector<std::string> rules;
    for (const Finding& finding : findings) {
      const Rule* rule = FindRule(finding.rule);
      if (finding.severity != Severity::kError || rule == nullptr || !rule->stops_render) continue;
      if (std::find(rules.begin(), rules.end(), finding.rule) == rules.end()) {
        rules.push_back(finding.rule);
      }
    }
    std::string named;
    for (const std::string& rule : rules) named += (named.empty() ? "" : ", ") + rule;
    return "findings that would fail the deploy (" + named + ")";
  }
  return option + (fail_on == FailOn::kWarning ? ": findings at error or warning severity"
                                               : ": findings at error severity");
}

}  // namespace rollcall::cli
