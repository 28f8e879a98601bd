// Writers for what a run found: text for people, JSON for scripts, SARIF for code
// scanning, GitHub workflow commands for annotations on a pull request.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "rollcall/baseline.h"
#include "rollcall/coverage.h"
#include "rollcall/finding.h"
#include "rollcall/previous/rollout.h"

namespace rollcall {

enum class ReportFormat { kText, kJson, kSarif, kGithub };

// "text", "json", "sarif", "github"; nullopt for anything else.
std::optional<ReportFormat> ParseReportFormat(std::string_view name);

struct Report {
  std::vector<Finding> findings;  // in the order to print
  CoverageSummary summary;
  Rollout rollout;       // render: what the deploy does to each consumer (JSON and text)
  bool stopped = false;  // render: it refused, so nothing is applied (JSON and text)
  std::string error;     // render: why its output did not reach its reader, or "" (JSON and text)
  // render: the config file used, "" for none (null in JSON); unset: not reported.
  std::optional<std::string> config;
  // lint with --baseline or --write-baseline: what the baseline accepted and which of
  // its entries matched nothing (counted in every format, never listed).
  std::optional<BaselineOutcome> baseline;
};

struct ReportStyle {
  bool color = false;        // ANSI colours in text, for a terminal only
  bool quiet = false;        // text: warnings and errors only, without the summary lines
  std::string tool_version;  // for SARIF's tool.driver.version
};

void WriteReport(std::ostream& out, const Report& report, ReportFormat format,
                 const ReportStyle& style);

}  // namespace rollcall
