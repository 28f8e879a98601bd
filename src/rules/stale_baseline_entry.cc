#include "rules/checks.h"

namespace rollcall::rules {

// Reported by lint when it applies a baseline (baseline.h), not by a check over the
// analysis: only the baseline knows what it expected to find.
Rule StaleBaselineEntry() {
  return {"stale-baseline-entry",
          Severity::kInfo,
          "A baseline entry matches no finding any more.",
          "A baseline (--baseline) accepts findings that existed when it was written. Once "
          "one is fixed its entry only waits to accept the same mistake again, unreviewed. "
          "Entries about files the run did not read are not reported.",
          "Remove the entry, or write the baseline again: rollcall lint --baseline FILE "
          "--write-baseline FILE keeps the reasons of the entries that still match.",
          nullptr};
}

}  // namespace rollcall::rules
