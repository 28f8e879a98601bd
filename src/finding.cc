#include "rollcall/finding.h"

namespace rollcall {

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kInfo:
      return "info";
    case Severity::kWarning:
      return "warning";
    case Severity::kError:
      return "error";
  }
  return "?";
}

std::string FormatFinding(const Finding& finding) {
  return finding.where.Describe() + ": " + SeverityName(finding.severity) + "[" + finding.rule +
         "]: " + finding.message;
}

}  // namespace rollcall
