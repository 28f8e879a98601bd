#include "rollcall/jobs.h"
#include "rules/checks.h"

namespace rollcall::rules {
namespace {

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const Consumer& consumer : analysis.model().consumers) {
    if (!analysis.AlreadyRan(consumer)) continue;
    const Document& previous = *analysis.PreviousOf(*consumer.document);
    YamlNode previous_template = Child(Child(previous.root(), "spec"), "template");
    if (TemplateFingerprint(previous_template, "") ==
        TemplateFingerprint(consumer.pod_template(), "")) {
      continue;
    }
    out.push_back(
        At("stale-one-time-token", consumer.Where(), consumer.Describe(),
           consumer.Describe() +
               " already ran, yet it is rendered again with a different pod template: the value "
               "that names it was kept (as helm upgrade --reuse-values keeps it). To run it again, "
               "pass a new token; to stop rendering it, clear the value with --set-string "
               "<key>=\"\" (not --set <key>=null, which --reuse-values brings back)"));
  }
}

}  // namespace

Rule StaleOneTimeToken() {
  return {"stale-one-time-token",
          Severity::kWarning,
          "A run-once Job that already ran is rendered again with a changed template.",
          "The Job is named after a one-time token, and the token was kept from the last "
          "release (helm upgrade --reuse-values keeps it; --set key=null does not clear it). "
          "The new template will never run: the Job that ran is written back instead.",
          "Pass a new token to run the Job again, or clear the value with --set-string "
          "<key>=\"\" to stop rendering it.",
          Check};
}

}  // namespace rollcall::rules
