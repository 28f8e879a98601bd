#include <set>

#include "rollcall/previous/immutability.h"
#include "rollcall/previous/release.h"
#include "rules/checks.h"

namespace rollcall::rules {
namespace {

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  // Run-once Jobs that already ran are dropped from the output: never applied.
  std::set<const Document*> dropped;
  for (const Consumer& consumer : analysis.model().consumers) {
    if (analysis.AlreadyRan(consumer)) dropped.insert(consumer.document);
  }
  for (const Document& doc : analysis.documents()) {
    const Document* previous = analysis.PreviousOf(doc);
    // Hooks are deleted and recreated by their tool, never updated in place.
    if (previous == nullptr || dropped.count(&doc) > 0 || doc.IsHook() || previous->IsHook()) {
      continue;
    }
    for (const ImmutableViolation& violation : FindImmutableChanges(*previous, doc)) {
      out.push_back(At("immutable-field", doc.Locate(violation.mark),
                       ObjectName(doc, analysis.options().default_namespace),
                       ObjectName(doc, analysis.options().default_namespace) + ": " +
                           violation.message + " (the API server would refuse this upgrade)"));
    }
  }
}

}  // namespace

Rule ImmutableField() {
  return {"immutable-field",
          Severity::kError,
          "An object changes a field the API server refuses to change.",
          "Helm applies the upgrade object by object; when one is refused as immutable the "
          "release fails half-applied. Knowing before Helm touches the cluster is cheaper.",
          "Keep the field as it was, or give the object a new name (rollcall renames plain Jobs "
          "after their template by default). --allow-immutable turns this into a warning.",
          Check,
          /*stops_render=*/true};
}

}  // namespace rollcall::rules
