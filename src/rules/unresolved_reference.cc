#include "rollcall/near_names.h"
#include "rules/checks.h"

namespace rollcall::rules {
namespace {

// An optional reference to a source that is not in the input: the chart lets the
// user create it (a TLS Secret, an existing password), and the pod starts without.
bool OptionalNotInInput(const ReferenceCoverage& coverage) {
  return coverage.reference->optional && coverage.cause == CoverageCause::kNotInInput;
}

void Report(const Analysis& analysis, bool optional, const char* rule, std::vector<Finding>& out) {
  std::optional<NearNames> near;  // built only when a reference is unresolved
  for (const ReferenceCoverage& coverage : analysis.coverage()) {
    // A bare Pod reading a source of the input is bare-pod's finding alone.
    if (coverage.state != Coverage::kUnresolved || OptionalNotInInput(coverage) != optional ||
        coverage.cause == CoverageCause::kBarePod) {
      continue;
    }
    const Reference& reference = *coverage.reference;
    std::string message = coverage.consumer->Describe() + " reads " + DescribeReference(reference) +
                          ", but " + coverage.Reason() +
                          ": nothing makes a change to it reach the process";
    if (reference.optional) message += " (the reference is optional)";
    if (coverage.cause == CoverageCause::kNotInInput ||
        coverage.cause == CoverageCause::kAbsentEverywhere) {
      if (!near) near.emplace(analysis.model());
      const std::vector<const Source*>& meant = near->Find(reference.source());
      for (std::size_t i = 0; i < meant.size(); ++i) {
        message += i == 0 ? "; did you mean " : i + 1 == meant.size() ? " or " : ", ";
        message += meant[i]->id.Describe();
      }
      if (meant.size() == 1) message += ", which the input defines?";
      if (meant.size() > 1) message += ", which the input defines, each as near?";
    }
    out.push_back(AtReference(rule, coverage, std::move(message)));
  }
}

void CheckRequired(const Analysis& analysis, std::vector<Finding>& out) {
  Report(analysis, /*optional=*/false, "unresolved-reference", out);
}

void CheckOptional(const Analysis& analysis, std::vector<Finding>& out) {
  Report(analysis, /*optional=*/true, "unresolved-optional-reference", out);
}

}  // namespace

Rule UnresolvedReference() {
  return {"unresolved-reference",
          Severity::kError,
          "A reference's source content is unknown and no marker accounts for it.",
          "rollcall can only hash what it can read. A Secret applied by a separate command, "
          "synced by a controller or shared by releases is not in the chart, so a change to it "
          "rolls nothing unless something else restarts the consumers. When the input defines "
          "a source of a near name (or the same name in another namespace), the finding says "
          "so: the reference may be a typo, and the pod would not start.",
          "Give rollcall the content (put the source in the input, or --state), or mark the "
          "reference: SECRET-VERSION: static: <why> when no roll is needed, reloads: <why> for "
          "a volume the process re-reads, pending while the mechanism is being built. A name "
          "or namespace the API server would refuse (\"cannot name a Secret\") is never "
          "looked up with --lookup: correct it.",
          CheckRequired};
}

Rule UnresolvedOptionalReference() {
  return {"unresolved-optional-reference",
          Severity::kWarning,
          "An optional reference's source is not in the input.",
          "An optional reference lets the pod start without its source: charts use it for what "
          "the user may create (a TLS Secret, an existing password). If the source does exist in "
          "the cluster, a change to it rolls nothing, as for any source rollcall cannot read; if "
          "it does not, there is nothing to roll for.",
          "Nothing, if the source is meant to be absent. Otherwise give rollcall its content "
          "(the input, --state, or --lookup kubectl, which waives an optional source that is "
          "not in the cluster) or mark the reference as for unresolved-reference.",
          CheckOptional};
}

}  // namespace rollcall::rules
