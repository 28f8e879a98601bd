#include "rules/checks.h"

namespace rollcall::rules {
namespace {

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const ReferenceCoverage& coverage : analysis.coverage()) {
    if (coverage.marker == nullptr || coverage.marker->value.kind != MarkerKind::kReloads ||
        coverage.state == Coverage::kWaived) {
      continue;
    }
    const Reference& reference = *coverage.reference;
    bool volume = reference.via == ReadVia::kVolume || reference.via == ReadVia::kProjected;
    out.push_back(AtReference(
        "reloads-not-reloadable", coverage,
        "SECRET-VERSION: reloads, but " + DescribeReference(reference) +
            (volume ? " is mounted with subPath, which the kubelet never updates"
                    : " is read into the environment, which is fixed when the container starts")));
  }
}

}  // namespace

Rule ReloadsNotReloadable() {
  return {"reloads-not-reloadable",
          Severity::kError,
          "A reloads marker is on an env var, envFrom or a subPath mount.",
          "Only a Secret or ConfigMap volume mounted without subPath is updated in place by the "
          "kubelet; an environment variable or a subPath file keeps the value the container "
          "started with, whatever the process re-reads.",
          "Mount the source as a volume without subPath and have the process re-read it, or let "
          "render hash it so the pods roll.",
          Check};
}

}  // namespace rollcall::rules
