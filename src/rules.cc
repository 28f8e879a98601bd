// The rule registry: every rule, in the order the catalogue lists them.
#include "rollcall/rules.h"

#include "rules/checks.h"

namespace rollcall {

const std::vector<Rule>& Rules() {
  // One rule per line, in catalogue order.
  // clang-format off
  static const std::vector<Rule> rules = {
      rules::PendingMarker(),
      rules::UnresolvedReference(),
      rules::UnresolvedOptionalReference(),
      rules::HookGeneratedSource(),
      rules::Helm3HookSource(),
      rules::MalformedMarker(),
      rules::ChecksumNotHashed(),
      rules::ReloadsNotReloadable(),
      rules::RuntimeSourceInEnv(),
      rules::RuntimeSourceSubPath(),
      rules::RuntimeSourceInInitContainer(),
      rules::MalformedReference(),
      rules::MissingKey(),
      rules::DuplicateKey(),
      rules::DuplicateSource(),
      rules::StaleConfigHash(),
      rules::BarePod(),
      rules::PlainJobUnchanged(),
      rules::OrphanMarker(),
      rules::ImmutableField(),
      rules::StaleOneTimeToken(),
      rules::RunOnceAlreadyRan(),
      rules::InvalidIgnore(),
      rules::LookupFailed(),
      rules::NotAnObject(),
      rules::TemplateNotAnalysed(),
      rules::ChartDependenciesMissing(),
      rules::InputError(),
      rules::StaleBaselineEntry(),
  };
  // clang-format on
  return rules;
}

const Rule* FindRule(std::string_view id) {
  for (const Rule& rule : Rules()) {
    if (id == rule.id) return &rule;
  }
  return nullptr;
}

namespace rules {

Finding AtReference(const char* rule, const ReferenceCoverage& coverage, std::string message) {
  Finding finding;
  finding.rule = rule;
  finding.where = coverage.consumer->Locate(*coverage.reference);
  finding.object = coverage.consumer->Describe();
  finding.reference = DescribeReference(*coverage.reference);
  finding.message = std::move(message);
  finding.cited = coverage.reference->source().name.str();
  return finding;
}

Finding At(const char* rule, Location where, std::string object, std::string message) {
  Finding finding;
  finding.rule = rule;
  finding.where = std::move(where);
  finding.object = std::move(object);
  finding.message = std::move(message);
  return finding;
}

}  // namespace rules
}  // namespace rollcall
