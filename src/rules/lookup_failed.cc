#include "rules/checks.h"

namespace rollcall::rules {
namespace {

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const Finding& finding : analysis.lookup_findings()) out.push_back(finding);
}

}  // namespace

Rule LookupFailed() {
  return {"lookup-failed",
          Severity::kWarning,
          "kubectl failed to look up sources, and --lookup-optional let the run go on.",
          "Without the lookup, references to sources outside the input stay unresolved: "
          "nothing makes a change to them reach their processes.",
          "Fix kubectl's access (context, credentials, RBAC to get Secrets), or pass the "
          "sources with --state.",
          Check};
}

}  // namespace rollcall::rules
