// `rollcall render`: the post-renderer. All or nothing on stdout (design.md,
// decision 3): the output is written only once the whole stream rendered.
#include <cxxopts.hpp>
#include <iostream>

#include "cli/commands.h"
#include "cli/input.h"
#include "rollcall/input_error.h"
#include "rollcall/jobs.h"
#include "rollcall/lint.h"
#include "rollcall/render.h"

namespace rollcall::cli {
namespace {

cxxopts::Options RenderOptionsSpec() {
  cxxopts::Options spec("rollcall render",
                        "Reads a Kubernetes YAML stream on stdin and writes it to stdout with a "
                        "config hash on every pod template that reads a Secret or ConfigMap.");
  cxxopts::OptionAdder add = spec.add_options();
  add("n,namespace",
      "namespace of objects that name none (default: $HELM_NAMESPACE, else \"default\")",
      cxxopts::value<std::string>()->default_value(""));
  add("strict", "exit 1, writing nothing on stdout, when a finding is at error severity");
  add("config", "config file (default: the nearest .rollcall.yaml upward)",
      cxxopts::value<std::string>()->default_value(""));
  add("job-policy", "plain Jobs: rename (after their pod template) or keep (unchanged)",
      cxxopts::value<std::string>()->default_value("rename"));
  add("run-once-pattern", "RE2 pattern of Job names that run only once (repeatable)",
      cxxopts::value<std::vector<std::string>>());
  add("max-input-bytes", "refuse a larger input",
      cxxopts::value<std::size_t>()->default_value(std::to_string(Limits{}.max_input_bytes)));
  add("max-depth", "refuse documents nested deeper",
      cxxopts::value<std::size_t>()->default_value(std::to_string(Limits{}.max_depth)));
  add("h,help", "show this help");
  return spec;
}

}  // namespace

int RunRender(const std::vector<std::string>& args) {
  cxxopts::Options spec = RenderOptionsSpec();
  RenderOptions options;
  bool strict = false;
  std::string config_path;
  try {
    std::vector<const char*> argv = {"rollcall render"};
    for (const std::string& arg : args) argv.push_back(arg.c_str());
    cxxopts::ParseResult parsed = spec.parse(static_cast<int>(argv.size()), argv.data());
    if (parsed.count("help") > 0) {
      std::cout << spec.help() << "\n";
      return kExitOk;
    }
    if (!parsed.unmatched().empty()) {
      std::cerr << "rollcall: error: render takes no arguments, got '" << parsed.unmatched()[0]
                << "' (the stream comes on stdin)\n";
      return kExitInput;
    }
    options.default_namespace = DefaultNamespace(parsed["namespace"].as<std::string>());
    options.limits.max_input_bytes = parsed["max-input-bytes"].as<std::size_t>();
    options.limits.max_depth = parsed["max-depth"].as<std::size_t>();
    strict = parsed.count("strict") > 0;
    std::optional<JobPolicy> policy = ParseJobPolicy(parsed["job-policy"].as<std::string>());
    if (!policy) {
      std::cerr << "rollcall: error: --job-policy must be rename or keep\n";
      return kExitInput;
    }
    options.jobs.policy = *policy;
    if (parsed.count("run-once-pattern") > 0) {
      options.jobs.run_once_patterns = parsed["run-once-pattern"].as<std::vector<std::string>>();
    }
    config_path = parsed["config"].as<std::string>();
  } catch (const cxxopts::exceptions::exception& e) {
    std::cerr << "rollcall: error: " << e.what() << " (see rollcall render --help)\n";
    return kExitInput;
  }

  try {
    options.config = LoadProjectConfig(config_path);
    std::string bytes = ReadAll(std::cin, "<stdin>", options.limits.max_input_bytes);
    Stream stream(std::move(bytes), "<stdin>");
    RenderResult result = Render(stream, options);
    PrintFindings(result.findings, result.summary);
    if (strict && HasBlockingFinding(result.findings, false)) {
      std::cerr << "rollcall: error: --strict: findings at error severity; nothing written\n";
      return kExitFindings;
    }
    std::cout << result.output;
    std::cout.flush();
    return std::cout ? kExitOk : kExitInput;
  } catch (const InputError& e) {
    std::cerr << "rollcall: error: " << e.Describe() << "\n";
    return kExitInput;
  }
}

}  // namespace rollcall::cli
