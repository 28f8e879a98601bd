#include "rules/checks.h"

namespace rollcall::rules {
namespace {

// Helm creates a release's object that is missing from the cluster: once a TTL
// removed the Job, writing it back would run it again.
std::string TtlCaveat(const Document& previous) {
  if (!Child(Child(previous.root(), "spec"), "ttlSecondsAfterFinished").IsDefined()) return "";
  return "; it sets ttlSecondsAfterFinished, and once that removed it Helm would create it "
         "again: clear the token (--set-string <key>=\"\") to stop rendering it";
}

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const Consumer& consumer : analysis.model().consumers) {
    if (!analysis.AlreadyRan(consumer)) continue;
    out.push_back(At("run-once-already-ran", consumer.Where(), consumer.Describe(),
                     consumer.Describe() +
                         " is a run-once Job that the previous release already has: it ran, so "
                         "the previous release's document is written back unchanged (neither "
                         "rejected as immutable, nor deleted and run again on a later upgrade)" +
                         TtlCaveat(*analysis.PreviousOf(*consumer.document))));
  }
}

}  // namespace

Rule RunOnceAlreadyRan() {
  return {"run-once-already-ran",
          Severity::kInfo,
          "A run-once Job already in the previous release is written back as it ran.",
          "A bootstrap Job consumes a one-time token. Rendered anew it is rejected (its "
          "template is immutable); left out of the release, Helm deletes it and the next "
          "upgrade creates it again, to run with a token that was already used.",
          "Nothing: this is what should happen. To run it again, give it a new token; to stop "
          "rendering it, clear the token (--set-string <key>=\"\").",
          Check};
}

}  // namespace rollcall::rules
