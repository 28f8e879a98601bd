// Reading the input of a subcommand, bounded before anything parses it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "rollcall/config.h"
#include "rollcall/coverage.h"
#include "rollcall/finding.h"

namespace rollcall::cli {

// The project's config: the file named by `flag`, else the nearest .rollcall.yaml
// upward from the working directory, else the defaults.
Config LoadProjectConfig(const std::string& flag);

// Writes findings and the summary line to stderr, as render and lint print them
// there: "rollcall: <finding>" lines, then "rollcall: references: …".
void PrintFindings(const std::vector<Finding>& findings, const CoverageSummary& summary);

// The namespace for objects that name none: `flag`, else $HELM_NAMESPACE, else
// "default" (Helm sets HELM_NAMESPACE for its post-renderer).
std::string DefaultNamespace(const std::string& flag);

}  // namespace rollcall::cli
