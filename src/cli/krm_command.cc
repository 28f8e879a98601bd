// `rollcall krm [CONFIG]`: render as a KRM function.
//
// Without an argument it speaks the KRM Functions Specification: a ResourceList on
// stdin (kpt fn eval --exec, kustomize's exec functions), the ResourceList with
// rendered items and `results` on stdout, options from its functionConfig.
//
// With an argument it is a kustomize exec plugin (the only kind kubectl kustomize
// runs, with --enable-alpha-plugins): kustomize passes the path of the transformer
// config and a plain YAML stream on stdin, and takes the plain stream back; the
// findings go to stderr, which kustomize shows.
#include <cxxopts.hpp>
#include <iostream>

#include "cli/commands.h"
#include "cli/input.h"
#include "cli/output.h"
#include "rollcall/input_error.h"
#include "rollcall/inputs.h"
#include "rollcall/krm/function.h"
#include "rollcall/krm/function_config.h"
#include "rollcall/lint.h"
#include "rollcall/location.h"
#include "rollcall/regular_file.h"

namespace rollcall::cli {
namespace {

RenderOptions OptionsFrom(const FunctionConfig& config) {
  RenderOptions options;
  options.default_namespace = DefaultNamespace(config.name_space);
  options.config = LoadProjectConfig(config.config_path);
  if (config.job_policy) options.jobs.policy = *config.job_policy;
  options.jobs.run_once_patterns = config.run_once_patterns;
  // The key is the user's (their environment), never the package's (docs/krm.md).
  const std::string key_file = FlagOrEnv("", "ROLLCALL_HMAC_KEY_FILE");
  if (!key_file.empty()) options.hmac_key = ReadHmacKey(key_file);
  return options;
}

// The transformer config kustomize wrote to a temporary file.
FunctionConfig ReadConfigFile(const std::string& path, const Limits& limits) {
  RegularFileRead how;
  how.what = "rollcall's function config";
  how.max_bytes = limits.max_input_bytes;
  Stream stream(ReadRegularFileBytes(path, path, how), path, limits.max_documents);
  std::vector<Document> documents = ParseStream(stream, limits);
  const Document* config = nullptr;
  for (const Document& doc : documents) {
    if (doc.shape() == Document::Shape::kEmpty) continue;
    if (config != nullptr) {
      throw InputError(doc.Locate(), "rollcall's function config is one document, not several");
    }
    config = &doc;
  }
  if (config == nullptr) return FunctionConfig{};
  return ReadFunctionConfig(*config, config->root());
}

// kustomize's exec plugin protocol: render with the options of the config file.

int RunPlugin(const std::string& config_path) {
  Limits limits;
  FunctionConfig config = ReadConfigFile(config_path, limits);
  RenderOptions options = OptionsFrom(config);
  Stream stream(ReadStandardInput(limits.max_input_bytes), kStandardInput);
  RenderResult result = Render(stream, options);
  PrintFindings(result.findings, result.summary);
  FailOn fail_on = config.strict ? FailOn::kWarning : FailOn::kNever;
  if (StopsRender(result.findings, fail_on)) {
    PrintError(StopReason(result.findings, fail_on, "strict") + "; nothing written");
    return kExitFindings;
  }
  return WriteOutput(result.output);
}

// The KRM function protocol. An input error in an item, or in the function config,
// still writes the ResourceList (unchanged) with the error as a result, so that kpt
// shows it with the others; only an input that is no ResourceList writes nothing.
int RunFunction() {
  Limits limits;
  Stream stream(ReadStandardInput(limits.max_input_bytes), kStandardInput);
  ResourceList list = ParseResourceList(stream, limits);
  try {
    FunctionConfig config = ReadFunctionConfig(list.envelope, list.function_config);
    RenderOptions options = OptionsFrom(config);
    options.limits = limits;
    KrmOutput out = RenderResourceList(stream, list, options, config.strict);
    std::cerr << StderrLine(out.summary.Line());
    if (out.stopped) {
      PrintError(
          StopReason(out.findings, config.strict ? FailOn::kWarning : FailOn::kNever, "strict"));
    }
    int written = WriteOutput(out.resource_list);
    return written != kExitOk || !out.stopped ? written : kExitFindings;
  } catch (const InputError& e) {
    PrintError(e.Describe());
    WriteOutput(ResourceListWithError(stream, list, e));
    return kExitInput;
  }
}

}  // namespace

cxxopts::Options KrmOptionsSpec() {
  cxxopts::Options spec("rollcall krm",
                        "A KRM function: reads a ResourceList on stdin and writes it back with "
                        "render's edits to its items and results for the findings. Given "
                        "CONFIG (a rollcall.dev/v1 Rollcall), a kustomize exec plugin: reads "
                        "and writes a plain YAML stream. Options come from the function config "
                        "only (see docs/krm.md).");
  spec.positional_help("[CONFIG]");
  cxxopts::OptionAdder add = spec.add_options();
  add("h,help", "show this help");
  spec.add_options(kHiddenGroup)("args", "", cxxopts::value<std::vector<std::string>>());
  spec.parse_positional({"args"});
  return spec;
}

int RunKrm(const std::vector<std::string>& args) {
  IgnoreBrokenPipe();  // as render: a reader that went away is reported
  std::vector<std::string> positional;
  try {
    cxxopts::Options spec = KrmOptionsSpec();
    std::optional<cxxopts::ParseResult> parsed = ParseOrHelp(spec, args);
    if (!parsed) return kExitOk;
    if (parsed->count("args") > 0) positional = (*parsed)["args"].as<std::vector<std::string>>();
  } catch (const cxxopts::exceptions::exception& e) {
    PrintError(std::string(e.what()) + " (see rollcall krm --help)");
    return kExitInput;
  }
  if (positional.size() > 1) {
    PrintError("krm takes at most one argument, the config file kustomize passes; got '" +
               positional[1] + "' as well (options go in the function config)");
    return kExitInput;
  }
  try {
    return positional.empty() ? RunFunction() : RunPlugin(positional[0]);
  } catch (const InputError& e) {
    PrintError(e.Describe());
    return kExitInput;
  }
}

}  // namespace rollcall::cli
