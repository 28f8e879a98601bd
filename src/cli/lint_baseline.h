// lint's --baseline and --write-baseline (rollcall/baseline.h): read the baseline
// before anything is analysed, apply it to the report once the findings' files are
// final, write the new one when asked.
#pragma once

#include <cxxopts.hpp>
#include <string>

#include "cli/analysis_flags.h"
#include "rollcall/baseline.h"
#include "rollcall/report.h"

namespace rollcall::cli {

void AddBaselineOptions(cxxopts::Options& spec);

class LintBaseline {
 public:
  // Reads the flags. Throws UsageError when --write-baseline names a file rollcall
  // would not replace (a symbolic link, a directory): refused before the run.
  explicit LintBaseline(const cxxopts::ParseResult& parsed);

  // Reads --baseline, so that a malformed one stops the run before helm renders
  // anything. Throws InputError naming the file and line.
  void Load(const Limits& limits);

  // Drops from `report.findings` what the baseline accepts and adds a
  // `stale-baseline-entry` finding per entry that matched nothing, at the severity
  // the project gives that rule. With --write-baseline, first writes the findings
  // (and the reasons of the entries they pair with) as the new baseline, says so on
  // stderr, and applies that one: the run then passes. Nothing without either flag.
  // Returns kExitOk, or kExitInput with the message on stderr when the new baseline
  // cannot be written.
  int Apply(const AnalysedInputs& analysed, Report& report) const;

 private:
  std::string read_path_;   // --baseline
  std::string write_path_;  // --write-baseline
  Baseline baseline_;       // read from read_path_, or empty
};

}  // namespace rollcall::cli
