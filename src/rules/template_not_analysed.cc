#include "rules/checks.h"

namespace rollcall::rules {

// Reported by the input stage of lint, not by a check over the analysis.
Rule TemplateNotAnalysed() {
  return {"template-not-analysed",
          Severity::kInfo,
          "A file is a template that is not valid YAML; only its markers were read.",
          "A chart template ({{ … }}) can only be analysed once rendered. Its SECRET-VERSION "
          "markers are still found in the raw text, so a pending marker is never missed.",
          "Lint the chart directory (rollcall renders it with helm template) to analyse it; "
          "with --chart-of-file, lint does so for a template given as a file.",
          nullptr};
}

}  // namespace rollcall::rules
