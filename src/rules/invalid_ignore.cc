#include "rules/checks.h"

namespace rollcall::rules {
namespace {

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const auto& [object, suppressions] : analysis.suppressions()) {
    for (const Suppression& suppression : suppressions) {
      if (suppression.problem.empty()) continue;
      out.push_back(At("invalid-ignore", suppression.where, object,
                       std::string(kIgnoreAnnotation) + ": " + suppression.problem));
    }
  }
}

}  // namespace

Rule InvalidIgnore() {
  return {"invalid-ignore",
          Severity::kError,
          "A rollcall.dev/ignore annotation names an unknown rule or gives no reason.",
          "A suppression without a reason cannot be reviewed, and one with a misspelt rule id "
          "suppresses nothing while looking as if it did.",
          "Write \"<rule-id>: <reason>\", several separated by \";\" (see rollcall rules).",
          Check};
}

}  // namespace rollcall::rules
