// `rollcall consumers NAME [PATH…|-]`: every consumer of one Secret or ConfigMap,
// how each reads it and how a change reaches it; with --restart-commands, what to
// run after changing it outside any release. `--all` takes every source instead of
// NAME; `--format dot` draws the same as a Graphviz graph, marked with lint's findings.
#include <cxxopts.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/analysis_flags.h"
#include "cli/commands.h"
#include "cli/input.h"
#include "cli/output.h"
#include "rollcall/consumer_graph.h"
#include "rollcall/consumers.h"
#include "rollcall/input_error.h"
#include "rollcall/inputs.h"
#include "rollcall/lint.h"
#include "rollcall/printable.h"

namespace rollcall::cli {
namespace {

std::string ConsumersJson(const std::vector<ConsumerUse>& uses, const SourceQuery& query) {
  nlohmann::ordered_json consumers = nlohmann::ordered_json::array();
  for (const ConsumerUse& use : uses) {
    const ReferenceCoverage& coverage = use.coverage;
    const SourceId& source = coverage.reference->source();
    Location where = coverage.consumer->Locate(*coverage.reference);
    consumers.push_back({{"source",
                          {{"kind", SourceKindSlug(source.kind)},
                           {"namespace", source.name_space},
                           {"name", source.name}}},
                         {"object", use.object},
                         {"container", use.container},
                         {"reads", use.reads},
                         {"coverage", CoverageName(coverage.state)},
                         {"reason", coverage.Reason()},
                         {"marker", coverage.marker != nullptr ? coverage.marker->text : ""},
                         {"file", where.origin},
                         {"line", where.line}});
  }
  nlohmann::ordered_json document = nlohmann::ordered_json::object();
  if (query.name)
    document["source"] = {{"kind", SourceKindSlug(*query.kind)}, {"name", *query.name}};
  document["consumers"] = consumers;
  return document.dump(2) + "\n";
}

}  // namespace

cxxopts::Options ConsumersOptionsSpec() {
  cxxopts::Options spec("rollcall consumers",
                        "Lists every workload that reads a Secret (or ConfigMap), how it reads "
                        "it and how a change reaches it.");
  spec.positional_help(
      "NAME [PATH…] (files, directories, chart directories, - for stdin); with --all, PATH…");
  AddAnalysisOptions(spec);
  AddFindingOptions(spec, /*fail_on=*/false);
  AddInputOptions(spec);
  cxxopts::OptionAdder add = spec.add_options("Output");
  add("kind", "secret or configmap", cxxopts::value<std::string>()->default_value("secret"),
      "KIND");
  add("all", "every Secret and ConfigMap (with --kind given, every one of that kind); no NAME");
  add("format", "text, json or dot (Graphviz)",
      cxxopts::value<std::string>()->default_value("text"), "FORMAT");
  add("restart-commands", "print what to run after changing the source outside a release");
  add("h,help", "show this help");
  spec.add_options(kHiddenGroup)("args", "", cxxopts::value<std::vector<std::string>>());
  spec.parse_positional({"args"});
  return spec;
}

int RunConsumers(const std::vector<std::string>& args) {
  cxxopts::Options spec = ConsumersOptionsSpec();
  AnalysisFlags flags;
  InputOptions inputs_options;
  std::vector<std::string> positional;
  SourceQuery query;
  std::string format;
  bool restart = false;
  try {
    std::optional<cxxopts::ParseResult> maybe = ParseOrHelp(spec, args);
    if (!maybe) return kExitOk;
    const cxxopts::ParseResult& parsed = *maybe;
    flags = ReadAnalysisFlags(parsed);
    if (parsed.count("namespace") > 0) query.name_space = flags.name_space;
    std::string kind_name = parsed["kind"].as<std::string>();
    if (kind_name != "secret" && kind_name != "configmap") {
      throw UsageError("--kind must be secret or configmap");
    }
    bool all = parsed.count("all") > 0;
    // --all lists both kinds unless --kind narrows it; a NAME always has a kind.
    if (!all || parsed.count("kind") > 0) {
      query.kind = kind_name == "secret" ? SourceKind::kSecret : SourceKind::kConfigMap;
    }
    format = parsed["format"].as<std::string>();
    if (format != "text" && format != "json" && format != "dot") {
      throw UsageError("--format must be text, json or dot");
    }
    restart = parsed.count("restart-commands") > 0;
    inputs_options = ReadInputOptions(parsed, flags);
    if (parsed.count("args") > 0) positional = parsed["args"].as<std::vector<std::string>>();
    if (!all) {
      if (positional.empty()) {
        throw UsageError("consumers needs the NAME of a Secret or ConfigMap (or --all)");
      }
      query.name = positional.front();
      positional.erase(positional.begin());
    }
  } catch (const cxxopts::exceptions::exception& e) {
    PrintError(std::string(e.what()) + " (see rollcall consumers --help)");
    return kExitInput;
  } catch (const UsageError& e) {
    PrintError(e.what());
    return kExitInput;
  }
  std::vector<std::string> paths = positional;
  if (paths.empty()) paths = {"."};

  try {
    AnalysedInputs analysed = AnalysePaths(flags, inputs_options, paths);
    std::vector<ConsumerUse> uses = FindConsumers(*analysed.analysis, query);
    std::string what = query.name   ? std::string(SourceKindSlug(*query.kind)) + "/" + *query.name
                       : query.kind ? std::string("any ") + SourceKindName(*query.kind)
                                    : std::string("any Secret or ConfigMap");
    if (query.name_space) what += " in namespace " + *query.name_space;
    if (uses.empty()) std::cerr << StderrLine("no consumer reads " + what);
    std::string output;
    if (restart) {
      std::set<const Consumer*> seen;
      for (const ConsumerUse& use : uses) {
        if (seen.insert(use.coverage.consumer).second) {
          output += RestartCommand(*use.coverage.consumer) + "\n";
        }
      }
      if (uses.empty()) output += "# nothing to roll: no consumer reads " + Printable(what) + "\n";
    } else if (format == "json") {
      output = ConsumersJson(uses, query);
    } else if (format == "dot") {
      // The findings lint would print mark the picture: the same rules, severities
      // and suppressions, computed once, here.
      std::vector<Finding> findings =
          RunRules(*analysed.analysis, std::move(analysed.inputs.findings));
      output = ConsumerGraphDot(uses, analysed.analysis->model(), findings);
    } else {
      for (const ConsumerUse& use : uses) {
        // Without a NAME each line says which source it is about.
        std::string prefix = query.name ? "" : use.coverage.reference->source().Path() + ": ";
        output += Printable(prefix + FormatConsumerUse(use)) + "\n";
      }
    }
    return WriteOutput(output);
  } catch (const InputError& e) {
    PrintError(e.where().Compact() + ": " + e.what());
    return kExitInput;
  }
}

}  // namespace rollcall::cli
