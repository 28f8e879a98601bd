// Reading the input of a subcommand, bounded before anything parses it.
#pragma once

#include <cstddef>
#include <cxxopts.hpp>
#include <optional>
#include <string>
#include <vector>

#include "rollcall/config.h"
#include "rollcall/coverage.h"
#include "rollcall/finding.h"
#include "rollcall/lint.h"

namespace rollcall::cli {

// The project's config: the file named by `flag`, else the nearest .rollcall.yaml
// upward from the working directory to the git work tree's root (config.h), else the
// defaults. `verbose`: says on stderr which file that is, or where none was found.
Config LoadProjectConfig(const std::string& flag, bool verbose = false);

// Writes findings and the summary line to stderr, as render and lint print them
// there: "rollcall: <finding>" lines, then "rollcall: references: …".
void PrintFindings(const std::vector<Finding>& findings, const CoverageSummary& summary);

// Why render wrote nothing, for the "rollcall: error: …" line: a finding at a
// severity `fail_on` fails on (`option` as the user wrote it: "--fail-on error",
// "--strict", "strict"), or fields the API server would refuse to change.
std::string StopReason(const std::vector<Finding>& findings, FailOn fail_on,
                       const std::string& option);

// The option group --help leaves out: the positional arguments, which the usage line
// describes.
inline constexpr const char* kHiddenGroup = "positional";

// Parses a subcommand's `args` with `spec`; prints the help (its option groups, then
// the command's exit codes) and returns nullopt for -h/--help. Throws cxxopts'
// exceptions on bad arguments; an unknown option names the nearest one.
std::optional<cxxopts::ParseResult> ParseOrHelp(cxxopts::Options& spec,
                                                const std::vector<std::string>& args);

// `flag` when given, else the environment variable `env` when set and not empty,
// else `fallback`: how every option that has an environment variable is read.
// A string option's value, or "" when it was not given (options without a default,
// so that --help shows none).
std::string StringOption(const cxxopts::ParseResult& parsed, const std::string& name);

std::string FlagOrEnv(const std::string& flag, const char* env, const std::string& fallback = "");

// The namespace for objects that name none: `flag`, else $HELM_NAMESPACE (Helm's
// plugins get it; Helm 3 does not pass it to a post-renderer), else "default".
std::string DefaultNamespace(const std::string& flag);

// The HMAC key of --hmac-key-file / $ROLLCALL_HMAC_KEY_FILE: the file's bytes, one
// trailing newline dropped. Throws InputError naming the path, never the key.
std::string ReadHmacKey(const std::string& path);

}  // namespace rollcall::cli
