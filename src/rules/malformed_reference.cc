#include "rules/checks.h"

namespace rollcall::rules {
namespace {

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const Consumer& consumer : analysis.model().consumers) {
    if (consumer.notes == nullptr) continue;
    for (const rollcall::MalformedReference& malformed : consumer.notes->malformed) {
      out.push_back(At("malformed-reference", consumer.document->LocateAt(malformed.pos),
                       consumer.Describe(),
                       consumer.Describe() + ": " + malformed.field + ": " + malformed.problem +
                           ": the API server refuses the object, and the reference reads "
                           "nothing"));
    }
  }
}

}  // namespace

Rule MalformedReference() {
  return {"malformed-reference", Severity::kError,
          "A reference names no source or no key: the API server refuses it.",
          "A mis-indented `name:` leaves `configMapRef: null`, a secretKeyRef without `key` or a "
          "secret volume without `secretName` is written easily in a template and found only when "
          "the apply fails, or, for a value the chart supplies only in some configurations, by "
          "the first user who sets it.",
          "Write the name (and the key) where the API server reads them: under the reference, "
          "indented one level more than its field.",
          Check,
          // The API server refuses the object (tests/cluster/refusals.sh): a deploy
          // would stop there, half-applied, so render stops it first.
          /*stops_render=*/true};
}

}  // namespace rollcall::rules
