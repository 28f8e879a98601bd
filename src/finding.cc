#include "rollcall/finding.h"

#include "rollcall/printable.h"

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

namespace {

const char* AnsiColor(Severity severity) {
  switch (severity) {
    case Severity::kError:
      return "\x1b[31m";  // red
    case Severity::kWarning:
      return "\x1b[33m";  // yellow
    case Severity::kInfo:
      return "\x1b[34m";  // blue
  }
  return "";
}
constexpr const char* kAnsiReset = "\x1b[0m";

}  // namespace

std::string FormatFinding(const Finding& finding, bool color) {
  std::string out = Printable(finding.where.Compact()) + ": ";
  if (color) out += AnsiColor(finding.severity);
  out += SeverityName(finding.severity);
  if (color) out += kAnsiReset;
  out += "[" + Printable(finding.rule) + "] " + Printable(finding.message);
  if (!finding.where.source.empty()) out += " (template " + Printable(finding.where.source) + ")";
  return out;
}

}  // namespace rollcall
