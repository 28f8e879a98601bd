// The options render and lint share: namespace, config file, strictness, the Job
// policy, the previous release. One definition, so the two commands cannot drift.
#pragma once

#include <cxxopts.hpp>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "rollcall/analysis.h"
#include "rollcall/inputs.h"
#include "rollcall/limits.h"
#include "rollcall/lint.h"
#include "rollcall/previous/release.h"

namespace rollcall::cli {

// A flag with a value rollcall does not accept; the message says which.
class UsageError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

struct AnalysisFlags {
  std::string name_space;  // --namespace, else $HELM_NAMESPACE, else "default"; a valid name
  std::string config_path;
  // --fail-on, or --strict (warning); unset: the command's default.
  std::optional<FailOn> fail_on;
  std::string fail_on_option;  // as the user wrote it, for messages
  bool verbose = false;        // -v, --verbose: which config file is used
  bool allow_immutable = false;
  // --disable RULE (nullopt: off), then --enable RULE (its registry severity), laid
  // over the config's severities in this order.
  std::vector<std::pair<std::string, std::optional<Severity>>> rule_switches;
  JobOptions jobs;
  std::string previous_file;             // --previous
  std::string previous_release;          // --previous-release: a Helm release name, or ""
  std::string helm;                      // --helm, else $HELM_BIN, else "helm"
  std::vector<std::string> state_files;  // --state
  // lint --hook: the directory (the repository) whose manifests give sources as
  // --state files do, so that a reference in a changed file resolves to a Secret in
  // one that did not change; a file that does not read so is left out.
  std::string sources_from;
  bool lookup = false;           // --lookup kubectl
  bool lookup_optional = false;  // --lookup-optional
  std::string kube_context;      // --kube-context
  std::string kubectl;           // $KUBECTL, else "kubectl"
  Limits limits;
};

void AddAnalysisOptions(cxxopts::Options& spec);
// The rule switches (--enable, --disable, --allow-immutable), and with `fail_on` the
// choice of what fails the run (--fail-on, --strict): lint and render, not consumers.
void AddFindingOptions(cxxopts::Options& spec, bool fail_on);

// Throws UsageError for a value out of range.
AnalysisFlags ReadAnalysisFlags(const cxxopts::ParseResult& parsed);

// What an analysis needs from the flags: the config file read, the previous
// release loaded (kept alive in `previous`). Throws InputError.
struct PreparedAnalysis {
  AnalysisOptions options;
  std::unique_ptr<PreviousRelease> previous;
};
PreparedAnalysis PrepareAnalysis(const AnalysisFlags& flags);

// The options of commands that read files and charts (lint, consumers): -f/--values
// and --set for helm template.
void AddInputOptions(cxxopts::Options& spec);
InputOptions ReadInputOptions(const cxxopts::ParseResult& parsed, const AnalysisFlags& flags);

// Everything a command that reads paths analyses, kept alive together: the inputs
// (their streams back the documents), the previous release, the analysis.
struct AnalysedInputs {
  PreparedAnalysis prepared;
  Inputs inputs;
  std::unique_ptr<Analysis> analysis;
};
// Throws InputError.
AnalysedInputs AnalysePaths(const AnalysisFlags& flags, const InputOptions& inputs_options,
                            const std::vector<std::string>& paths);

}  // namespace rollcall::cli
