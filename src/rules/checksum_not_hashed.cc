#include "rules/checks.h"

namespace rollcall::rules {
namespace {

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const ReferenceCoverage& coverage : analysis.coverage()) {
    if (coverage.marker == nullptr || coverage.marker->value.kind != MarkerKind::kChecksum ||
        coverage.state == Coverage::kHashed) {
      continue;
    }
    out.push_back(AtReference("checksum-not-hashed", coverage,
                              "SECRET-VERSION: checksum, but " +
                                  DescribeReference(*coverage.reference) +
                                  " is not hashed: " + coverage.Reason()));
  }
}

}  // namespace

Rule ChecksumNotHashed() {
  return {"checksum-not-hashed",
          Severity::kError,
          "A reference marked SECRET-VERSION: checksum is not in the config hash.",
          "The marker promises that a change to the source rolls the consumer through the hash. "
          "If rollcall cannot read the source, the promise is broken and nothing rolls.",
          "Put the source in the input (or pass --state), or change the marker to what is true.",
          Check};
}

}  // namespace rollcall::rules
