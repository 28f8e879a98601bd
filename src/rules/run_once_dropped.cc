#include "rules/checks.h"

namespace rollcall::rules {
namespace {

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const Consumer& consumer : analysis.model().consumers) {
    if (!analysis.AlreadyRan(consumer)) continue;
    out.push_back(At("run-once-dropped", consumer.where, consumer.Describe(),
                     consumer.Describe() +
                         " is a run-once Job that the previous release already has: it ran, so "
                         "it is dropped from the output (neither rejected as immutable nor run "
                         "again)"));
  }
}

}  // namespace

Rule RunOnceDropped() {
  return {"run-once-dropped",
          Severity::kInfo,
          "A run-once Job already in the previous release is dropped from the output.",
          "A bootstrap Job consumes a one-time token. Applied again it is either rejected (its "
          "template is immutable) or, once a TTL removed it, recreated and run with a token "
          "that was already used.",
          "Nothing: this is what should happen. To run it again, give it a new token.",
          Check};
}

}  // namespace rollcall::rules
