#include "cli/lint_baseline.h"

#include <iostream>
#include <utility>

#include "cli/commands.h"
#include "cli/output.h"
#include "rollcall/inputs.h"
#include "rollcall/lint.h"

namespace rollcall::cli {
namespace {

constexpr const char* kWhat = "the baseline";

// What the run read: the files named and walked, the directories of the charts
// rendered and the values files given to them (findings there are reported against
// the chart's files, chart_findings.h).
BaselineScope ScopeOf(const AnalysedInputs& analysed) {
  BaselineScope scope;
  for (const auto& stream : analysed.inputs.streams) scope.AddFile(stream->origin());
  for (const RenderedChart& chart : analysed.inputs.charts) {
    scope.AddDirectory(DisplayPath(chart.directory));
    for (const std::string& file : chart.values_files) scope.AddFile(DisplayPath(file));
  }
  return scope;
}

}  // namespace

void AddBaselineOptions(cxxopts::Options& spec) {
  cxxopts::OptionAdder add = spec.add_options("Baseline");
  add("baseline", "accept the findings listed in FILE (written by --write-baseline)",
      cxxopts::value<std::string>(), "FILE");
  add("write-baseline", "write the current findings to FILE as a baseline, and pass",
      cxxopts::value<std::string>(), "FILE");
}

LintBaseline::LintBaseline(const cxxopts::ParseResult& parsed) {
  if (parsed.count("baseline") > 0) read_path_ = parsed["baseline"].as<std::string>();
  if (parsed.count("write-baseline") > 0) {
    write_path_ = parsed["write-baseline"].as<std::string>();
    if (write_path_.empty()) throw UsageError("--write-baseline needs a file name");
    if (std::string problem = ReplaceableFileProblem(write_path_, kWhat); !problem.empty()) {
      throw UsageError(problem);
    }
  }
  if (parsed.count("baseline") > 0 && read_path_.empty()) {
    throw UsageError("--baseline needs a file name");
  }
}

void LintBaseline::Load(const Limits& limits) {
  if (!read_path_.empty()) baseline_ = LoadBaseline(read_path_, limits.max_input_bytes);
}

int LintBaseline::Apply(const AnalysedInputs& analysed, Report& report) const {
  if (read_path_.empty() && write_path_.empty()) return kExitOk;
  const BaselineScope scope = ScopeOf(analysed);
  const Baseline* use = &baseline_;
  Baseline written;
  if (!write_path_.empty()) {
    written = NewBaseline(report.findings, baseline_, scope, write_path_);
    if (std::string error = ReplaceFile(write_path_, BaselineText(written), kWhat);
        !error.empty()) {
      PrintError(error);
      return kExitInput;
    }
    std::cerr << StderrLine("baseline: wrote " + std::to_string(written.entries.size()) +
                            (written.entries.size() == 1 ? " entry to " : " entries to ") +
                            write_path_);
    use = &written;
  }
  BaselineOutcome outcome = ApplyBaseline(*use, scope, report.findings);
  if (std::optional<Severity> severity =
          ProjectSeverity(*analysed.analysis, "stale-baseline-entry")) {
    for (const BaselineEntry& entry : outcome.stale) {
      Finding stale = StaleEntryFinding(entry, use->file);
      stale.severity = *severity;
      report.findings.push_back(std::move(stale));
    }
  }
  report.baseline = std::move(outcome);
  return kExitOk;
}

}  // namespace rollcall::cli
