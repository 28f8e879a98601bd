// Running the rules: every check of the registry over an analysis, then the
// project's severities (.rollcall.yaml) and the objects' suppressions
// (rollcall.dev/ignore) applied, in one place for lint, render and consumers.
#pragma once

#include <optional>
#include <string>
#include <string_view>
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

// Which findings fail a run (--fail-on): lint's default is kError; render's is kNever,
// since a post-renderer that stops stops the deploy (--strict is kWarning).
enum class FailOn { kNever, kError, kWarning };
std::optional<FailOn> ParseFailOn(std::string_view name);  // "never", "error", "warning"
const char* FailOnName(FailOn fail_on);

// The severity of `rule`'s findings in this project: the config's, else the
// registry's (error for an id it does not know); nullopt when the config turns the
// rule off. For findings made after RunRules (lint's baseline).
std::optional<Severity> ProjectSeverity(const Analysis& analysis, const std::string& rule);

// True when a finding is at a severity `fail_on` fails on.
bool HasBlockingFinding(const std::vector<Finding>& findings, FailOn fail_on);

// True when render must write nothing and exit 1: a blocking finding, or, whatever
// `fail_on` says, an error of a rule that stops render (rules.h).
bool StopsRender(const std::vector<Finding>& findings, FailOn fail_on);

}  // namespace rollcall
