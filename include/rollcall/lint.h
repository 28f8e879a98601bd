// Running the rules: every check of the registry over an analysis, then the
// project's severities (.rollcall.yaml) and the objects' suppressions
// (rollcall.dev/ignore) applied, in one place for lint, render and consumers.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rollcall/analysis.h"
#include "rollcall/finding.h"

namespace rollcall {

// Who the findings are for: render leaves out what its own output repairs.
enum class RulesFor { kLint, kRender };

// The findings of every rule, plus `stage_findings` (from stages before the
// analysis, such as files that could not be parsed), with severities from the
// registry or the config, suppressed ones dropped, sorted by origin and line.
std::vector<Finding> RunRules(const Analysis& analysis, std::vector<Finding> stage_findings = {},
                              RulesFor audience = RulesFor::kLint);

// The severity of `rule`'s findings in this project: the config's, else the
// registry's (error for an id it does not know); nullopt when the config turns the
// rule off. For findings made after RunRules (lint's baseline).
std::optional<Severity> ProjectSeverity(const Analysis& analysis, const std::string& rule);

// True when any finding is at error severity (or, with `strict`, at warning).
bool HasBlockingFinding(const std::vector<Finding>& findings, bool strict);

// True when render must write nothing and exit 1: a blocking finding under
// `strict`, or, always, an error of a rule that stops render (rules.h).
bool StopsRender(const std::vector<Finding>& findings, bool strict);

}  // namespace rollcall
