#include "cli/analysis_flags.h"

#include <iostream>

#include "cli/input.h"
#include "cli/output.h"
#include "rollcall/directory_walk.h"
#include "rollcall/input_error.h"
#include "rollcall/object_names.h"
#include "rollcall/rules.h"
#include "rollcall/state.h"
#include "rollcall/stream.h"

namespace rollcall::cli {

void AddAnalysisOptions(cxxopts::Options& spec) {
  spec.add_options("Reading")(
      "n,namespace",
      "namespace of objects that name none (default: $HELM_NAMESPACE, else \"default\")",
      cxxopts::value<std::string>(),
      "NS")("config",
            "config file (default: the nearest .rollcall.yaml upward, up to the git work tree's "
            "root)",
            cxxopts::value<std::string>(),
            "FILE")("v,verbose", "say on stderr which config file is used")(
      "state",
      "Secrets and ConfigMaps from outside the input: kubectl get … -o yaml output "
      "(repeatable)",
      cxxopts::value<std::vector<std::string>>(),
      "FILE")("lookup", "look up sources still unresolved in the cluster with kubectl (opt-in)",
              cxxopts::value<std::string>(),
              "kubectl")("lookup-optional", "a failing lookup is a warning, not an error")(
      "kube-context", "kubectl context for --lookup", cxxopts::value<std::string>(), "CONTEXT");
  spec.add_options("Jobs and the previous release")(
      "job-policy", "plain Jobs: rename (after their pod template) or keep (unchanged)",
      cxxopts::value<std::string>()->default_value("rename"),
      "POLICY")("run-once-pattern", "RE2 pattern of Job names that run only once (repeatable)",
                cxxopts::value<std::vector<std::string>>(),
                "RE2")("previous", "the previous release's manifest (helm get manifest RELEASE)",
                       cxxopts::value<std::string>(), "FILE")(
      "previous-release", "run helm get manifest NAME for the previous release",
      cxxopts::value<std::string>(), "NAME")("helm", "helm binary (default: $HELM_BIN, else helm)",
                                             cxxopts::value<std::string>(), "BIN");
  spec.add_options("Limits")(
      "max-input-bytes", "refuse a larger input",
      cxxopts::value<std::size_t>()->default_value(std::to_string(Limits{}.max_input_bytes)), "N")(
      "max-document-bytes", "refuse a larger document",
      cxxopts::value<std::size_t>()->default_value(std::to_string(Limits{}.max_document_bytes)),
      "N")("max-depth", "refuse documents nested deeper",
           cxxopts::value<std::size_t>()->default_value(std::to_string(Limits{}.max_depth)), "N")(
      "max-documents", "refuse a stream of more documents",
      cxxopts::value<std::size_t>()->default_value(std::to_string(Limits{}.max_documents)), "N");
}

AnalysisFlags ReadAnalysisFlags(const cxxopts::ParseResult& parsed) {
  AnalysisFlags flags;
  flags.name_space = DefaultNamespace(StringOption(parsed, "namespace"));
  if (std::optional<std::string> problem = NamespaceNameProblem(flags.name_space)) {
    // It reaches helm and kubectl as --namespace=NS, and names no namespace anyway.
    std::string from =
        StringOption(parsed, "namespace").empty() ? "$HELM_NAMESPACE" : "--namespace";
    throw UsageError(from + ": " + *problem);
  }
  flags.config_path = StringOption(parsed, "config");
  if (std::string name = StringOption(parsed, "fail-on"); !name.empty()) {
    flags.fail_on = ParseFailOn(name);
    if (!flags.fail_on) throw UsageError("--fail-on must be error, warning or never");
    flags.fail_on_option = "--fail-on " + name;
  }
  if (parsed.count("strict") > 0) {
    if (flags.fail_on && *flags.fail_on != FailOn::kWarning) {
      throw UsageError("--strict is --fail-on warning: it cannot go with " + flags.fail_on_option);
    }
    flags.fail_on = FailOn::kWarning;
    flags.fail_on_option = "--strict";
  }
  flags.verbose = parsed.count("verbose") > 0;
  flags.allow_immutable = parsed.count("allow-immutable") > 0;
  // --disable first, then --enable: a rule named by both is on.
  for (const char* option : {"disable", "enable"}) {
    if (parsed.count(option) == 0) continue;
    for (const std::string& id : parsed[option].as<std::vector<std::string>>()) {
      const Rule* rule = FindRule(id);
      if (rule == nullptr) {
        throw UsageError("--" + std::string(option) + ": unknown rule \"" + id +
                         "\" (rollcall rules lists them)");
      }
      flags.rule_switches.emplace_back(id, std::string(option) == "enable"
                                               ? std::optional<Severity>(rule->severity)
                                               : std::nullopt);
    }
  }
  std::optional<JobPolicy> policy = ParseJobPolicy(parsed["job-policy"].as<std::string>());
  if (!policy) throw UsageError("--job-policy must be rename or keep");
  flags.jobs.policy = *policy;
  if (parsed.count("run-once-pattern") > 0) {
    flags.jobs.run_once_patterns = parsed["run-once-pattern"].as<std::vector<std::string>>();
  }
  if (parsed.count("state") > 0) flags.state_files = parsed["state"].as<std::vector<std::string>>();
  std::string lookup = StringOption(parsed, "lookup");
  if (!lookup.empty() && lookup != "kubectl") throw UsageError("--lookup takes only kubectl");
  flags.lookup = !lookup.empty();
  flags.lookup_optional = parsed.count("lookup-optional") > 0;
  flags.kube_context = StringOption(parsed, "kube-context");
  flags.kubectl = FlagOrEnv("", "KUBECTL", "kubectl");
  flags.previous_file = StringOption(parsed, "previous");
  flags.previous_release = StringOption(parsed, "previous-release");
  if (!flags.previous_release.empty()) {
    if (std::optional<std::string> problem = HelmReleaseNameProblem(flags.previous_release)) {
      throw UsageError("--previous-release: " + *problem);
    }
  }
  if (!flags.previous_file.empty() && !flags.previous_release.empty()) {
    throw UsageError("--previous and --previous-release exclude each other");
  }
  flags.helm = FlagOrEnv(StringOption(parsed, "helm"), "HELM_BIN", "helm");
  flags.limits.max_input_bytes = parsed["max-input-bytes"].as<std::size_t>();
  if (flags.limits.max_input_bytes > kMaxStreamBytes) {
    throw UsageError("--max-input-bytes: at most " + std::to_string(kMaxStreamBytes));
  }
  flags.limits.max_depth = parsed["max-depth"].as<std::size_t>();
  flags.limits.max_document_bytes = parsed["max-document-bytes"].as<std::size_t>();
  flags.limits.max_documents = parsed["max-documents"].as<std::size_t>();
  if (flags.limits.max_documents == 0) throw UsageError("--max-documents: at least 1");
  if (flags.limits.max_documents > kMaxDocuments) {
    throw UsageError("--max-documents: at most " + std::to_string(kMaxDocuments));
  }
  return flags;
}

void AddFindingOptions(cxxopts::Options& spec, bool fail_on) {
  if (fail_on) {
    spec.add_options("Findings")(
        "fail-on",
        "which findings fail the run: error, warning or never (default: error for lint; "
        "never for render, which stops the deploy when it fails)",
        cxxopts::value<std::string>(), "LEVEL")("strict", "the same as --fail-on warning");
  }
  spec.add_options("Findings")(
      "disable", "turn RULE off, as rules: {RULE: off} in the config does (repeatable)",
      cxxopts::value<std::vector<std::string>>(), "RULE")(
      "enable", "turn RULE on at its own severity, over the config and --disable (repeatable)",
      cxxopts::value<std::vector<std::string>>(),
      "RULE")("allow-immutable", "report immutable-field changes as warnings, not errors");
}

void AddInputOptions(cxxopts::Options& spec) {
  spec.add_options("Charts")("f,values", "values file for helm template (repeatable)",
                             cxxopts::value<std::vector<std::string>>(),
                             "FILE")("set", "value for helm template (repeatable)",
                                     cxxopts::value<std::vector<std::string>>(), "KEY=VALUE")(
      "release",
      "release name for helm template (default: made from the chart directory's name); names "
      "in a chart depend on it",
      cxxopts::value<std::string>(), "NAME");
}

InputOptions ReadInputOptions(const cxxopts::ParseResult& parsed, const AnalysisFlags& flags) {
  InputOptions options;
  options.name_space = flags.name_space;
  options.helm = flags.helm;
  options.limits = flags.limits;
  if (parsed.count("values") > 0) {
    options.values_files = parsed["values"].as<std::vector<std::string>>();
  }
  if (parsed.count("set") > 0) options.set_values = parsed["set"].as<std::vector<std::string>>();
  options.release = StringOption(parsed, "release");
  if (!options.release.empty()) {
    if (std::optional<std::string> problem = HelmReleaseNameProblem(options.release)) {
      throw UsageError("--release: " + *problem);
    }
  }
  return options;
}

AnalysedInputs AnalysePaths(const AnalysisFlags& flags, const InputOptions& inputs_options,
                            const std::vector<std::string>& paths) {
  AnalysedInputs out;
  out.prepared = PrepareAnalysis(flags);
  InputOptions options = inputs_options;
  options.facts = FactOptionsFor(out.prepared.options);
  // Documents the analysis does not read (CRDs, Services, RBAC) are not parsed, as in
  // render: docs/lint.md says what that leaves out.
  const AnalysisOptions* analysis_options = &out.prepared.options;
  options.parses = [analysis_options](const TypeHeader& type, std::string_view text) {
    return AnalysisReads(*analysis_options, type, text);
  };
  out.inputs = LoadInputs(paths, options);
  // Said on every run, not only with --verbose: what was not read may hold the one
  // reference that matters.
  std::string notes;  // one write: std::cerr flushes after every insertion
  for (const SkippedEntry& skipped : out.inputs.skipped) {
    notes += StderrLine("note: skipped " + skipped.path + ": " + skipped.why);
  }
  std::cerr << notes;
  out.prepared.options.loose_markers = std::move(out.inputs.loose_markers);
  out.analysis = std::make_unique<Analysis>(
      std::move(out.inputs.documents), std::move(out.prepared.options),
      std::move(out.inputs.counted_not_objects), std::move(out.inputs.defined_sources));
  return out;
}

namespace {

// The Secrets and ConfigMaps of the manifests under flags.sources_from, as state
// sources: a source the input defines wins (AddStateSources). Charts are not rendered
// (the changed ones are the input), and a file that is no stream of objects (a values
// file, a template, malformed YAML) or cannot be read is left out: it is not what the
// commit changed, and its own lint happens when it does.
void AddRepositorySources(const AnalysisFlags& flags, AnalysisOptions& options) {
  DirectoryWalk walk;
  try {
    walk = WalkDirectory(flags.sources_from);
  } catch (const InputError&) {
    return;
  }
  std::size_t left_out = 0;
  for (const WalkEntry& entry : walk.entries) {
    if (entry.kind != WalkEntry::Kind::kManifest) continue;
    try {
      for (Source& source : LoadStateFile(entry.path, flags.name_space, flags.limits)) {
        options.state.push_back(std::move(source));
      }
    } catch (const InputError&) {
      ++left_out;
    }
  }
  if (flags.verbose && left_out > 0) {
    std::cerr << StderrLine("note: " + std::to_string(left_out) + " file" +
                            (left_out == 1 ? "" : "s") + " under " + flags.sources_from +
                            " gave no sources (not a stream of objects)");
  }
}

}  // namespace

PreparedAnalysis PrepareAnalysis(const AnalysisFlags& flags) {
  PreparedAnalysis prepared;
  AnalysisOptions& options = prepared.options;
  options.default_namespace = flags.name_space;
  options.config = LoadProjectConfig(flags.config_path, flags.verbose);
  options.jobs = flags.jobs;
  if (flags.allow_immutable) options.config.severities["immutable-field"] = Severity::kWarning;
  for (const auto& [id, severity] : flags.rule_switches) options.config.severities[id] = severity;
  if (!flags.previous_file.empty()) {
    prepared.previous = LoadPreviousFile(flags.previous_file, flags.name_space, flags.limits);
  } else if (!flags.previous_release.empty()) {
    prepared.previous =
        LoadPreviousRelease(flags.helm, flags.previous_release, flags.name_space, flags.limits);
  }
  options.previous = prepared.previous.get();
  if (flags.lookup) {
    KubectlOptions kubectl;
    kubectl.kubectl = flags.kubectl;
    kubectl.context = flags.kube_context;
    kubectl.optional = flags.lookup_optional;
    kubectl.limits = flags.limits;
    options.lookup = KubectlLookup(std::move(kubectl));
  }
  for (const std::string& file : flags.state_files) {
    StateFile state = ReadStateFile(file, flags.name_space, flags.limits);
    for (Source& source : state.sources) options.state.push_back(std::move(source));
    for (StateHookWord& word : state.hook_words)
      options.state_hook_words.push_back(std::move(word));
  }
  if (!flags.sources_from.empty()) AddRepositorySources(flags, options);
  return prepared;
}

}  // namespace rollcall::cli
