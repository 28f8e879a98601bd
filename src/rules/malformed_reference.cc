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
                           ": the API server refuses the object" +
                           (malformed.reads_nothing ? ", and the reference reads nothing" : "")));
    }
  }
}

}  // namespace

Rule MalformedReference() {
  return {"malformed-reference", Severity::kError,
          "A reference names no source or no key, or a pod spec's references are written in a "
          "way the API server's validation refuses.",
          "A mis-indented `name:` leaves `configMapRef: null`, a secretKeyRef without `key` or a "
          "secret volume without `secretName` is written easily in a template and found only when "
          "the apply fails, or, for a value the chart supplies only in some configurations, by "
          "the first user who sets it. Two sources in one envFrom or valueFrom entry, two volume "
          "types in one volume, `valueFrom` beside a `value` and ephemeral containers in a pod "
          "template are refused the same way.",
          "Write the name (and the key) where the API server reads them: under the reference, "
          "indented one level more than its field; one source in each envFrom or valueFrom "
          "entry and one type in each volume; ephemeral containers come with `kubectl debug`, "
          "not in a template.",
          Check,
          // The API server refuses the object (tests/cluster/refusals.sh): a deploy
          // would stop there, half-applied, so render stops it first.
          /*stops_render=*/true};
}

}  // namespace rollcall::rules
