#include "rules/checks.h"

namespace rollcall::rules {
namespace {

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const ReferenceCoverage& coverage : analysis.coverage()) {
    if (coverage.state != Coverage::kPending) continue;
    out.push_back(AtReference("pending-marker", coverage,
                              coverage.consumer->Describe() + " reads " +
                                  DescribeReference(*coverage.reference) +
                                  " and its SECRET-VERSION marker says pending: a change to it "
                                  "does not reach the process yet"));
  }
  // Pending markers that bind to no reference (in templates rollcall could not
  // parse, or misplaced) still say the work is not done.
  for (const Marker& marker : analysis.markers()) {
    if (marker.value.kind != MarkerKind::kPending || analysis.IsBound(marker)) continue;
    out.push_back(At("pending-marker", marker.where, "",
                     "SECRET-VERSION: pending: the rollout mechanism is still missing"));
  }
}

}  // namespace

Rule PendingMarker() {
  return {"pending-marker",
          Severity::kError,
          "A reference is marked SECRET-VERSION: pending.",
          "The marker records that nobody has made a change to this Secret or ConfigMap reach "
          "the process yet. Until that is done, a deploy that changes the value reports success "
          "while the process keeps the old one.",
          "Make the change reach the process (let render hash the source, or mount it as a "
          "volume the process re-reads) and replace the marker with checksum, reloads: <why> or "
          "static: <why>.",
          Check};
}

}  // namespace rollcall::rules
