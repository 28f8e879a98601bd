#include "rules/checks.h"

namespace rollcall::rules {

// Reported by the input stage of lint --hook, not by a check over the analysis.
Rule ChartDependenciesMissing() {
  return {"chart-dependencies-missing",
          Severity::kWarning,
          "A chart's dependencies are not in its charts/ directory, so it was not linted.",
          "Many repositories commit Chart.yaml and Chart.lock but not charts/*.tgz. helm "
          "template refuses such a chart until `helm dependency build` fetches them, and a "
          "pre-commit hook that failed on it would block every commit touching the chart. "
          "Under --hook the chart is left out with this warning and the rest is linted; "
          "elsewhere (CI) it is an input error, as a chart nobody can render.",
          "Run `helm dependency build CHART` once (the hook then lints the chart), or lint "
          "the chart in CI after building its dependencies.",
          nullptr};
}

}  // namespace rollcall::rules
