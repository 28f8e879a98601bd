#include "rules/checks.h"

namespace rollcall::rules {
namespace {

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const Consumer& consumer : analysis.model().consumers) {
    if (consumer.role != ConsumerRole::kPlainJob || consumer.references.empty()) continue;
    out.push_back(At("plain-job-unchanged", consumer.where, consumer.Describe(),
                     consumer.Describe() +
                         " is left unchanged: a Job's pod template is immutable, so a Secret or "
                         "ConfigMap change will not reach it"));
  }
}

}  // namespace

Rule PlainJobUnchanged() {
  return {"plain-job-unchanged",
          Severity::kWarning,
          "A plain (non-hook) Job reads a Secret or ConfigMap and is left unchanged.",
          "A Job's spec.template is immutable: annotating it in place would make the next "
          "upgrade fail with 'field is immutable'. Left as it is, a changed Secret never reaches "
          "a Job that is not recreated.",
          "Make it a hook Job (Helm or Argo CD recreate those), or mark its references static: "
          "<why> if it is a one-off.",
          Check};
}

}  // namespace rollcall::rules
