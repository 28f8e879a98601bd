#include "rules/checks.h"

namespace rollcall::rules {
namespace {

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const Marker& marker : analysis.markers()) {
    if (marker.value.kind != MarkerKind::kMalformed) continue;
    out.push_back(
        At("malformed-marker", marker.where, "", "SECRET-VERSION marker: " + marker.value.problem));
  }
}

}  // namespace

Rule MalformedMarker() {
  return {"malformed-marker",
          Severity::kError,
          "A SECRET-VERSION marker has an unknown value or lacks a reason.",
          "A marker that rollcall cannot read accounts for nothing; a waiver without a reason "
          "cannot be reviewed.",
          "Write one of: SECRET-VERSION: pending, static: <reason>, reloads: <reason>, checksum.",
          Check};
}

}  // namespace rollcall::rules
