// `rollcall render`: the post-renderer. All or nothing on stdout (design.md,
// decision 3): the output is written only once the whole stream rendered.
#include <cxxopts.hpp>
#include <iostream>

#include "cli/analysis_flags.h"
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
  AddAnalysisOptions(spec);
  spec.add_options()("h,help", "show this help");
  return spec;
}

}  // namespace

int RunRender(const std::vector<std::string>& args) {
  cxxopts::Options spec = RenderOptionsSpec();
  AnalysisFlags flags;
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
    flags = ReadAnalysisFlags(parsed);
  } catch (const cxxopts::exceptions::exception& e) {
    std::cerr << "rollcall: error: " << e.what() << " (see rollcall render --help)\n";
    return kExitInput;
  } catch (const UsageError& e) {
    std::cerr << "rollcall: error: " << e.what() << "\n";
    return kExitInput;
  }

  try {
    PreparedAnalysis prepared = PrepareAnalysis(flags);
    RenderOptions options;
    options.default_namespace = prepared.options.default_namespace;
    options.config = prepared.options.config;
    options.jobs = prepared.options.jobs;
    options.previous = prepared.previous.get();
    options.limits = flags.limits;
    std::string bytes = ReadAll(std::cin, "<stdin>", options.limits.max_input_bytes);
    Stream stream(std::move(bytes), "<stdin>");
    RenderResult result = Render(stream, options);
    PrintFindings(result.findings, result.summary);
    if (HasBlockingFinding(result.findings, flags.strict) && flags.strict) {
      std::cerr << "rollcall: error: --strict: findings at error or warning severity; nothing "
                   "written\n";
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
