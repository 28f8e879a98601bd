#include "rules/checks.h"

namespace rollcall::rules {

// Reported by lint's input stage (inputs.h, keep_going), not by a check over the
// analysis. lint exits 2 when there is one, whatever its severity.
Rule InputError() {
  return {"input-error",
          Severity::kError,
          "An input could not be read, parsed or rendered; the others were analysed without it.",
          "One broken file or chart must not hide what rollcall finds in the rest of a "
          "repository, nor pass as clean: lint reports it with the others and exits 2. What it "
          "defines is missing from the analysis, so references to its sources may show as "
          "unresolved.",
          "Mend the file (the message says where and what), or leave it out of the paths.",
          nullptr};
}

}  // namespace rollcall::rules
