#include "rules/checks.h"

namespace rollcall::rules {
namespace {

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const ReferenceCoverage& coverage : analysis.coverage()) {
    if (coverage.cause != CoverageCause::kHookGenerated) continue;
    out.push_back(AtReference("hook-generated-source", coverage,
                              coverage.consumer->Describe() + " reads " +
                                  DescribeReference(*coverage.reference) + ", " +
                                  coverage.Reason()));
  }
}

}  // namespace

Rule HookGeneratedSource() {
  return {"hook-generated-source",
          Severity::kInfo,
          "A Secret no manifest holds is created by one of the input's hooks.",
          "Charts create some Secrets at install time from a hook Job (a webhook's certificate, "
          "a generated password), so their content is never in a manifest and never hashed. "
          "rollcall recognises a hook that names the Secret after the word \"secret\" in its "
          "command, arguments or a SECRET env value, and counts the reference as waived. If the "
          "hook also runs on upgrade and replaces the Secret, the readers do not roll.",
          "Nothing, if the Secret is made once. If the hook replaces it on upgrade, mount it as a "
          "volume the process re-reads and mark the reference reloads: <why>.",
          Check};
}

}  // namespace rollcall::rules
