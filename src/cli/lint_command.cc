// `rollcall lint [PATH…]`: every pod template that reads a Secret or ConfigMap,
// how a change reaches each reference, and the findings of every rule.
// Exit 0: no finding --fail-on fails on (errors, by default); 1: some; 2: a usage
// error, or an input that could not be read (reported with the other findings).
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cxxopts.hpp>
#include <iostream>
#include <sstream>

#include "cli/analysis_flags.h"
#include "cli/commands.h"
#include "cli/input.h"
#include "cli/lint_baseline.h"
#include "cli/output.h"
#include "rollcall/analysis.h"
#include "rollcall/chart_findings.h"
#include "rollcall/chart_of_file.h"
#include "rollcall/input_error.h"
#include "rollcall/inputs.h"
#include "rollcall/lint.h"
#include "rollcall/report.h"
#include "rollcall_version.h"

namespace rollcall::cli {
namespace {}  // namespace

cxxopts::Options LintOptionsSpec() {
  cxxopts::Options spec("rollcall lint",
                        "Lists every reference from a pod template to a Secret or ConfigMap, "
                        "says how a change reaches the process, and fails on pending markers "
                        "and on references nobody accounted for.");
  spec.positional_help("[PATH…] (files, directories, Helm chart directories, - for stdin)");
  AddAnalysisOptions(spec);
  AddFindingOptions(spec, /*fail_on=*/true);
  AddInputOptions(spec);
  AddBaselineOptions(spec);
  spec.add_options("Charts")(
      "chart-of-file",
      "lint the Helm chart a file belongs to (its Chart.yaml, values*.yaml or templates/) "
      "instead of the file, each chart once (the pre-commit hook)")(
      "hook",
      "run as the pre-commit hook: the file names pre-commit appends must follow a '--' "
      "(the hook's default args), so that none is read as an option; refused without it. "
      "Sources come from every manifest under the working directory too, and a chart "
      "without its dependencies is a warning");
  cxxopts::OptionAdder add = spec.add_options("Output");
  add("format", "text, json, sarif or github", cxxopts::value<std::string>()->default_value("text"),
      "FORMAT");
  add("o,output", "write the report to FILE instead of stdout", cxxopts::value<std::string>(),
      "FILE");
  add("q,quiet", "text: only warnings and errors, without the summary lines");
  add("color",
      "colour the text report: auto (on a terminal, unless NO_COLOR is set), always "
      "or never",
      cxxopts::value<std::string>()->default_value("auto"), "WHEN");
  add("h,help", "show this help");
  spec.add_options(kHiddenGroup)("paths", "", cxxopts::value<std::vector<std::string>>());
  spec.parse_positional({"paths"});
  return spec;
}

int RunLint(const std::vector<std::string>& args) {
  cxxopts::Options spec = LintOptionsSpec();
  AnalysisFlags flags;
  InputOptions inputs_options;
  std::vector<std::string> paths;
  ReportFormat format = ReportFormat::kText;
  std::optional<LintBaseline> baseline;
  std::string output;
  ReportStyle style;
  std::string color = "auto";
  try {
    std::optional<cxxopts::ParseResult> maybe = ParseOrHelp(spec, args);
    if (!maybe) return kExitOk;
    const cxxopts::ParseResult& parsed = *maybe;
    // pre-commit runs entry + args + file names, with no "--" of its own: a committed
    // file named "--write-baseline=x.yaml" would be an option. The hook's args end
    // with "--"; a user's args that replace them must too.
    if (parsed.count("hook") > 0 && std::find(args.begin(), args.end(), "--") == args.end()) {
      throw UsageError(
          "--hook: no '--' before the file names pre-commit appends, so a file named like "
          "an option would be read as one; end the hook's args with --, as in "
          "args: [--baseline, .rollcall-baseline.json, --] (docs/lint.md)");
    }
    flags = ReadAnalysisFlags(parsed);
    // pre-commit passes the changed files only: the Secret a changed Deployment reads
    // may sit in a file that did not change. It runs hooks from the repository's top.
    if (parsed.count("hook") > 0) flags.sources_from = ".";
    std::optional<ReportFormat> chosen = ParseReportFormat(parsed["format"].as<std::string>());
    if (!chosen) throw UsageError("--format must be text, json, sarif or github");
    format = *chosen;
    if (parsed.count("output") > 0) {
      output = parsed["output"].as<std::string>();
      if (std::string problem = ReplaceableFileProblem(output); !problem.empty()) {
        throw UsageError("--output: " + problem);
      }
    }
    style.quiet = parsed.count("quiet") > 0;
    color = parsed["color"].as<std::string>();
    if (color != "auto" && color != "always" && color != "never") {
      throw UsageError("--color must be auto, always or never");
    }
    inputs_options = ReadInputOptions(parsed, flags);
    inputs_options.keep_going = true;
    inputs_options.missing_dependencies_warn = parsed.count("hook") > 0;
    if (parsed.count("paths") > 0) paths = parsed["paths"].as<std::vector<std::string>>();
    if (parsed.count("chart-of-file") > 0) paths = ChartsOfFiles(paths);
    baseline.emplace(parsed);
  } catch (const cxxopts::exceptions::exception& e) {
    PrintError(std::string(e.what()) + " (see rollcall lint --help)");
    return kExitInput;
  } catch (const UsageError& e) {
    PrintError(e.what());
    return kExitInput;
  }
  if (paths.empty()) paths = {"."};

  try {
    baseline->Load(flags.limits);
    AnalysedInputs analysed = AnalysePaths(flags, inputs_options, paths);
    Report report;
    report.findings = RunRules(*analysed.analysis, std::move(analysed.inputs.findings));
    MapToTemplates(analysed.inputs, report.findings);
    if (int failed = baseline->Apply(analysed, report); failed != kExitOk) return failed;
    report.summary = analysed.analysis->Summary();
    // NO_COLOR (no-color.org): set and not empty, no colour unless asked for.
    const char* no_color = std::getenv("NO_COLOR");
    bool terminal = output.empty() && isatty(STDOUT_FILENO) != 0;
    style.color = format == ReportFormat::kText &&
                  (color == "always" ||
                   (color == "auto" && terminal && (no_color == nullptr || *no_color == '\0')));
    style.tool_version = ROLLCALL_VERSION;
    std::ostringstream text;
    WriteReport(text, report, format, style);
    if (!output.empty()) {
      if (std::string error = ReplaceFile(output, text.str()); !error.empty()) {
        PrintError(error);
        return kExitInput;
      }
    } else if (int written = WriteOutput(text.str()); written != kExitOk) {
      return written;
    }
    // Said on stderr too, as any input error is: the report may go to a file.
    for (const InputError& error : analysed.inputs.errors) {
      PrintError(error.where().Compact() + ": " + error.what());
    }
    if (!analysed.inputs.errors.empty()) return kExitInput;
    return HasBlockingFinding(report.findings, flags.fail_on.value_or(FailOn::kError))
               ? kExitFindings
               : kExitOk;
  } catch (const InputError& e) {
    PrintError(e.where().Compact() + ": " + e.what());
    return kExitInput;
  }
}

}  // namespace rollcall::cli
