#include "rules/checks.h"

namespace rollcall::rules {
namespace {

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const Consumer& consumer : analysis.model().consumers) {
    if (consumer.job_action != JobAction::kKeep || consumer.references.empty()) continue;
    out.push_back(At("plain-job-unchanged", consumer.Where(), consumer.Describe(),
                     consumer.Describe() +
                         " is left unchanged (job policy keep): a Job's pod template is "
                         "immutable, so a Secret or ConfigMap change will not reach it"));
  }
}

}  // namespace

Rule PlainJobUnchanged() {
  return {"plain-job-unchanged",
          Severity::kWarning,
          "A plain (non-hook) Job with job policy keep reads a Secret or ConfigMap.",
          "A Job's spec.template is immutable: annotating it in place would make the next "
          "upgrade fail with 'field is immutable'. Kept as it is, a changed Secret never reaches "
          "a Job that is not recreated.",
          "Use job policy rename (the default: rollcall names the Job after its template, so a "
          "change makes a new Job), make it a hook Job, or mark its references static: <why>.",
          Check};
}

}  // namespace rollcall::rules
