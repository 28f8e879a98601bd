// `rollcall consumers NAME [PATH…|-]`: every consumer of one Secret or ConfigMap,
// how each reads it and how a change reaches it; with --restart-commands, what to
// run after changing it outside any release.
#include <cxxopts.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/analysis_flags.h"
#include "cli/commands.h"
#include "cli/input.h"
#include "rollcall/consumers.h"
#include "rollcall/input_error.h"
#include "rollcall/inputs.h"

namespace rollcall::cli {
namespace {

cxxopts::Options ConsumersOptionsSpec() {
  cxxopts::Options spec("rollcall consumers",
                        "Lists every workload that reads a Secret (or ConfigMap), how it reads "
                        "it and how a change reaches it.");
  spec.positional_help("NAME [PATH…] (files, directories, chart directories, - for stdin)");
  AddAnalysisOptions(spec);
  AddInputOptions(spec);
  cxxopts::OptionAdder add = spec.add_options();
  add("kind", "secret or configmap", cxxopts::value<std::string>()->default_value("secret"));
  add("format", "text or json", cxxopts::value<std::string>()->default_value("text"));
  add("restart-commands", "print what to run after changing the source outside a release");
  add("h,help", "show this help");
  add("args", "", cxxopts::value<std::vector<std::string>>());
  spec.parse_positional({"args"});
  return spec;
}

void WriteJson(const std::vector<ConsumerUse>& uses, SourceKind kind, const std::string& name) {
  nlohmann::ordered_json consumers = nlohmann::ordered_json::array();
  for (const ConsumerUse& use : uses) {
    const ReferenceCoverage& coverage = *use.coverage;
    consumers.push_back({{"object", use.object},
                         {"container", use.container},
                         {"reads", use.reads},
                         {"coverage", CoverageName(coverage.state)},
                         {"reason", coverage.reason},
                         {"marker", coverage.marker != nullptr ? coverage.marker->text : ""},
                         {"file", coverage.reference->where.origin},
                         {"line", coverage.reference->where.line}});
  }
  nlohmann::ordered_json document = {{"source", {{"kind", SourceKindSlug(kind)}, {"name", name}}},
                                     {"consumers", consumers}};
  std::cout << document.dump(2) << "\n";
}

}  // namespace

int RunConsumers(const std::vector<std::string>& args) {
  cxxopts::Options spec = ConsumersOptionsSpec();
  AnalysisFlags flags;
  InputOptions inputs_options;
  std::vector<std::string> positional;
  std::optional<std::string> name_space;
  SourceKind kind = SourceKind::kSecret;
  bool json = false;
  bool restart = false;
  try {
    std::optional<cxxopts::ParseResult> maybe = ParseOrHelp(spec, args);
    if (!maybe) return kExitOk;
    const cxxopts::ParseResult& parsed = *maybe;
    flags = ReadAnalysisFlags(parsed);
    if (parsed.count("namespace") > 0) name_space = flags.name_space;
    std::string kind_name = parsed["kind"].as<std::string>();
    if (kind_name != "secret" && kind_name != "configmap") {
      throw UsageError("--kind must be secret or configmap");
    }
    kind = kind_name == "secret" ? SourceKind::kSecret : SourceKind::kConfigMap;
    std::string format = parsed["format"].as<std::string>();
    if (format != "text" && format != "json") throw UsageError("--format must be text or json");
    json = format == "json";
    restart = parsed.count("restart-commands") > 0;
    inputs_options = ReadInputOptions(parsed, flags);
    if (parsed.count("args") > 0) positional = parsed["args"].as<std::vector<std::string>>();
    if (positional.empty()) throw UsageError("consumers needs the NAME of a Secret or ConfigMap");
  } catch (const cxxopts::exceptions::exception& e) {
    std::cerr << "rollcall: error: " << e.what() << " (see rollcall consumers --help)\n";
    return kExitInput;
  } catch (const UsageError& e) {
    std::cerr << "rollcall: error: " << e.what() << "\n";
    return kExitInput;
  }
  std::string name = positional.front();
  std::vector<std::string> paths(positional.begin() + 1, positional.end());
  if (paths.empty()) paths = {"."};

  try {
    AnalysedInputs analysed = AnalysePaths(flags, inputs_options, paths);
    std::vector<ConsumerUse> uses = FindConsumers(*analysed.analysis, kind, name, name_space);
    std::string what = std::string(SourceKindSlug(kind)) + "/" + name +
                       (name_space ? " in namespace " + *name_space : "");
    if (uses.empty()) std::cerr << "rollcall: no consumer reads " << what << "\n";
    if (restart) {
      std::set<const Consumer*> seen;
      for (const ConsumerUse& use : uses) {
        if (seen.insert(use.coverage->consumer).second) {
          std::cout << RestartCommand(*use.coverage->consumer) << "\n";
        }
      }
      if (uses.empty()) std::cout << "# nothing to roll: no consumer reads " << what << "\n";
    } else if (json) {
      WriteJson(uses, kind, name);
    } else {
      for (const ConsumerUse& use : uses) std::cout << FormatConsumerUse(use) << "\n";
    }
    return kExitOk;
  } catch (const InputError& e) {
    std::cerr << "rollcall: error: " << e.where().Compact() << ": " << e.what() << "\n";
    return kExitInput;
  }
}

}  // namespace rollcall::cli
