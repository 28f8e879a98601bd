#include "rules/checks.h"

namespace rollcall::rules {
namespace {

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const Marker& marker : analysis.markers()) {
    if (analysis.IsBound(marker) || marker.value.kind == MarkerKind::kPending ||
        marker.value.kind == MarkerKind::kMalformed) {
      continue;
    }
    out.push_back(At("orphan-marker", marker.where, "",
                     "SECRET-VERSION: " + marker.text +
                         " binds to no reference: put it on the line of a secretKeyRef, "
                         "envFrom or volume entry, or on the line directly above it"));
  }
}

}  // namespace

Rule OrphanMarker() {
  return {"orphan-marker",
          Severity::kWarning,
          "A SECRET-VERSION marker is not next to any reference.",
          "A marker binds to the reference on its line or on the line below it. One elsewhere "
          "accounts for nothing, and the reference it was meant for is still unaccounted for.",
          "Move the marker next to the reference, or delete it.",
          Check};
}

}  // namespace rollcall::rules
