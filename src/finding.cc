#include "rollcall/finding.h"

#include <algorithm>
#include <numeric>
#include <tuple>

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

void DropRepeatedFindings(std::vector<Finding>& findings) {
  auto fields = [](const Finding& f) {
    return std::tie(f.where.origin, f.where.line, f.where.column, f.where.document, f.rule,
                    f.severity, f.where.source, f.object, f.reference, f.message, f.cited);
  };
  // Sorted by content, then by place, each run of equal findings keeps its first.
  std::vector<std::size_t> order(findings.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::make_pair(fields(findings[a]), a) < std::make_pair(fields(findings[b]), b);
  });
  std::vector<bool> repeated(findings.size(), false);
  for (std::size_t k = 1; k < order.size(); ++k) {
    if (fields(findings[order[k]]) == fields(findings[order[k - 1]])) repeated[order[k]] = true;
  }
  std::size_t kept = 0;
  for (std::size_t i = 0; i < findings.size(); ++i) {
    if (repeated[i]) continue;
    if (kept != i) findings[kept] = std::move(findings[i]);
    ++kept;
  }
  findings.erase(findings.begin() + static_cast<std::ptrdiff_t>(kept), findings.end());
}

}  // namespace rollcall
