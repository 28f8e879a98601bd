#include "rules/checks.h"

namespace rollcall::rules {
namespace {

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const Finding& finding : analysis.model().findings) {
    if (finding.rule == "duplicate-source") out.push_back(finding);
  }
}

}  // namespace

Rule DuplicateSource() {
  return {"duplicate-source",
          Severity::kWarning,
          "The same Secret or ConfigMap is defined twice in the input.",
          "Applying the stream leaves the last definition, so that is the content rollcall "
          "hashes; the first one is dead text that a reader may take for the real one.",
          "Keep one definition.",
          Check};
}

}  // namespace rollcall::rules
