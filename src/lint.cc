#include "rollcall/lint.h"

#include <algorithm>
#include <tuple>

#include "rollcall/rules.h"

namespace rollcall {
namespace {

bool Suppressed(const Analysis& analysis, const Finding& finding) {
  auto found = analysis.suppressions().find(finding.object);
  if (found == analysis.suppressions().end()) return false;
  return std::any_of(found->second.begin(), found->second.end(), [&](const Suppression& s) {
    return s.problem.empty() && s.rule == finding.rule;
  });
}

}  // namespace

std::vector<Finding> RunRules(const Analysis& analysis, std::vector<Finding> stage_findings,
                              RulesFor audience) {
  std::vector<Finding> raw = std::move(stage_findings);
  for (const Rule& rule : Rules()) {
    if (rule.check == nullptr) continue;
    if (audience == RulesFor::kRender && (rule.render_repairs || rule.lint_only)) continue;
    rule.check(analysis, raw);
  }
  std::vector<Finding> out;
  for (Finding& finding : raw) {
    std::optional<Severity> severity = ProjectSeverity(analysis, finding.rule);
    if (!severity) continue;  // "off"
    finding.severity = *severity;
    if (Suppressed(analysis, finding)) continue;
    out.push_back(std::move(finding));
  }
  DropRepeatedFindings(out);
  std::stable_sort(out.begin(), out.end(), [](const Finding& a, const Finding& b) {
    return std::tie(a.where.origin, a.where.line, a.where.column, a.rule) <
           std::tie(b.where.origin, b.where.line, b.where.column, b.rule);
  });
  return out;
}

std::optional<Severity> ProjectSeverity(const Analysis& analysis, const std::string& rule) {
  const auto& severities = analysis.options().config.severities;
  if (auto configured = severities.find(rule); configured != severities.end()) {
    return configured->second;
  }
  const Rule* known = FindRule(rule);
  return known != nullptr ? known->severity : Severity::kError;
}

std::optional<FailOn> ParseFailOn(std::string_view name) {
  for (FailOn fail_on : {FailOn::kNever, FailOn::kError, FailOn::kWarning}) {
    if (name == FailOnName(fail_on)) return fail_on;
  }
  return std::nullopt;
}

const char* FailOnName(FailOn fail_on) {
  switch (fail_on) {
    case FailOn::kNever:
      return "never";
    case FailOn::kError:
      return "error";
    case FailOn::kWarning:
      return "warning";
  }
  return "?";
}

bool HasBlockingFinding(const std::vector<Finding>& findings, FailOn fail_on) {
  return std::any_of(findings.begin(), findings.end(), [fail_on](const Finding& finding) {
    return (fail_on != FailOn::kNever && finding.severity == Severity::kError) ||
           (fail_on == FailOn::kWarning && finding.severity == Severity::kWarning);
  });
}

bool StopsRender(const std::vector<Finding>& findings, FailOn fail_on) {
  if (HasBlockingFinding(findings, fail_on)) return true;
  return std::any_of(findings.begin(), findings.end(), [](const Finding& finding) {
    const Rule* rule = FindRule(finding.rule);
    return finding.severity == Severity::kError && rule != nullptr && rule->stops_render;
  });
}

}  // namespace rollcall
