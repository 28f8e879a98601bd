#include <set>

#include "rules/checks.h"

namespace rollcall::rules {
namespace {

// One finding a bare Pod, for the references no marker accounts for: whatever else is
// said of a reference (its source missing), no change of it reaches the Pod, and a
// reference whose source is in the input gets no unresolved-reference beside this.
void Check(const Analysis& analysis, std::vector<Finding>& out) {
  std::set<const Consumer*> reported;
  for (const ReferenceCoverage& coverage : analysis.coverage()) {
    const Consumer& consumer = *coverage.consumer;
    if (consumer.role != ConsumerRole::kPod || coverage.state != Coverage::kUnresolved ||
        !reported.insert(&consumer).second) {
      continue;
    }
    out.push_back(At("bare-pod", consumer.Where(), consumer.Describe(),
                     consumer.Describe() +
                         " reads Secrets or ConfigMaps, but a bare Pod cannot roll: a change "
                         "reaches it only if someone deletes and recreates it"));
  }
}

}  // namespace

Rule BarePod() {
  return {"bare-pod",
          Severity::kError,
          "A bare Pod reads a Secret or ConfigMap that no marker accounts for.",
          "A Pod's spec is immutable and no controller replaces it, so no annotation can roll "
          "it: a change to what it reads never reaches its process. rollcall leaves it "
          "unchanged. A reference whose source is in the input is reported here only, not "
          "also as unresolved-reference.",
          "Run it from a Deployment, StatefulSet or Job, or mark its references static: <why>.",
          Check};
}

}  // namespace rollcall::rules
