// The rule registry. Each rule is a small unit: a stable id, a default severity, a
// one-line summary, why it matters, how to fix it, and the check that finds it.
// Every finding rollcall reports names one of these rules; `rollcall rules` prints
// the catalogue and docs/rules.md is generated from it.
#pragma once

#include <string_view>
#include <vector>

#include "rollcall/finding.h"

namespace rollcall {

class Analysis;  // analysis.h: the model, coverage and markers the checks read

struct Rule {
  const char* id;
  Severity severity;  // default; .rollcall.yaml may change it
  const char* summary;
  const char* rationale;
  const char* fix;
  // Adds this rule's findings. Null for rules whose findings come from a stage
  // rather than a check over the analysis (render's notes, input problems).
  void (*check)(const Analysis& analysis, std::vector<Finding>& out);
  // Findings of this rule at error severity stop render even without --strict:
  // what they describe is certain to fail the deploy (immutable fields and malformed
  // references: refused half-way; a missing key: pods that never start).
  bool stops_render = false;
  // What this rule finds, render repairs by writing its output (a stale hash gets
  // the current one), so render does not report it; lint does.
  bool render_repairs = false;
  // A finding about how a client deploys the input, which render (run by that client)
  // cannot make: lint reports it, render does not.
  bool lint_only = false;
};

const std::vector<Rule>& Rules();
const Rule* FindRule(std::string_view id);  // nullptr for an unknown id

}  // namespace rollcall
