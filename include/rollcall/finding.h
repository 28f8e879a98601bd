// A finding: something rollcall tells the user about the input, with the rule that
// produced it, how serious it is and where it is.
#pragma once

#include <string>
#include <vector>

#include "rollcall/location.h"

namespace rollcall {

enum class Severity { kInfo, kWarning, kError };
const char* SeverityName(Severity severity);  // "info", "warning", "error"

struct Finding {
  std::string rule;  // stable id, e.g. "unresolved-reference"
  Severity severity = Severity::kWarning;
  Location where;
  std::string object;     // "Deployment ns/name", or "" for the stream
  std::string reference;  // "secret/db[password] (env, container app)", or ""
  std::string message;
  // The name the finding is about, written at `where` (a reference's source), for
  // citing a chart's values file that holds it (chart_findings.h); "" for others.
  std::string cited;
};

// "<origin>:L:C: warning[rule] message (template chart/templates/x.yaml)", as lint
// prints it and render writes it on stderr; the severity in ANSI colour with `color`.
// Made Printable: names and messages come from the input.
std::string FormatFinding(const Finding& finding, bool color = false);

// Drops every finding equal in all its fields to one before it, keeping the order of
// the rest. A node that aliases repeat is one place in the input however many
// references it makes: 200 aliases of one env entry are one finding, not 200.
void DropRepeatedFindings(std::vector<Finding>& findings);

}  // namespace rollcall
