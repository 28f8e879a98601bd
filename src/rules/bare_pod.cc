#include "rules/checks.h"

namespace rollcall::rules {
namespace {

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const Consumer& consumer : analysis.model().consumers) {
    if (consumer.role != ConsumerRole::kPod || consumer.references.empty()) continue;
    out.push_back(At("bare-pod", consumer.Where(), consumer.Describe(),
                     consumer.Describe() +
                         " reads Secrets or ConfigMaps, but a bare Pod cannot roll: a change "
                         "reaches it only if someone deletes and recreates it"));
  }
}

}  // namespace

Rule BarePod() {
  return {"bare-pod",
          Severity::kWarning,
          "A bare Pod reads a Secret or ConfigMap.",
          "A Pod's spec is immutable and no controller replaces it, so no annotation can roll "
          "it. rollcall leaves it unchanged.",
          "Run it from a Deployment, StatefulSet or Job, or mark its references static: <why>.",
          Check};
}

}  // namespace rollcall::rules
