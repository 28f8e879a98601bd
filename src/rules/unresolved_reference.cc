#include "rules/checks.h"

namespace rollcall::rules {
namespace {

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const ReferenceCoverage& coverage : analysis.coverage()) {
    if (coverage.state != Coverage::kUnresolved) continue;
    const Reference& reference = *coverage.reference;
    std::string message = coverage.consumer->Describe() + " reads " + DescribeReference(reference) +
                          ", but " + coverage.Reason() +
                          ": nothing makes a change to it reach the process";
    if (reference.optional) message += " (the reference is optional)";
    out.push_back(AtReference("unresolved-reference", coverage, std::move(message)));
  }
}

}  // namespace

Rule UnresolvedReference() {
  return {"unresolved-reference",
          Severity::kError,
          "A reference's source content is unknown and no marker accounts for it.",
          "rollcall can only hash what it can read. A Secret applied by a separate command, "
          "synced by a controller or shared by releases is not in the chart, so a change to it "
          "rolls nothing unless something else restarts the consumers.",
          "Give rollcall the content (put the source in the input, or --state), or mark the "
          "reference: SECRET-VERSION: static: <why> when no roll is needed, reloads: <why> for "
          "a volume the process re-reads, pending while the mechanism is being built. A name "
          "or namespace the API server would refuse (\"cannot name a Secret\") is never "
          "looked up with --lookup: correct it.",
          Check};
}

}  // namespace rollcall::rules
