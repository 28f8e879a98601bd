// A finding: something rollcall tells the user about the input, with the rule that
// produced it, how serious it is and where it is.
#pragma once

#include <string>

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
};

// "<origin> (document N, line L, column C): warning[rule]: message"
std::string FormatFinding(const Finding& finding);

}  // namespace rollcall
