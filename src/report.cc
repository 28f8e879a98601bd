#include "rollcall/report.h"

#include <array>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rollcall/location.h"
#include "rollcall/printable.h"
#include "rollcall/rules.h"

namespace rollcall {
namespace {

// ordered_json keeps keys in the order they are written: the documented order.
using Json = nlohmann::ordered_json;

constexpr const char* kSarifSchema = "https://json.schemastore.org/sarif-2.1.0.json";
constexpr const char* kToolName = "rollcall";
// Where a SARIF viewer sends a user who asks about the tool. The project has no
// public address yet; the property is left out while this is empty (it is optional
// in the schema and must be an absolute URI when present).
constexpr const char* kInformationUri = "";

// Origins are empty only for input read from stdin (Location::Describe does the same).
std::string Origin(const Location& where) {
  return where.origin.empty() ? std::string(kStandardInput) : where.origin;
}

std::string Str(const char* text) { return text == nullptr ? std::string() : std::string(text); }

// --- text -------------------------------------------------------------------

// "2 errors, 1 warning, 3 info", leaving out severities with no finding.
std::string CountLine(const std::vector<Finding>& findings) {
  std::array<std::size_t, 3> counts{};  // error, warning, info
  for (const Finding& finding : findings) {
    switch (finding.severity) {
      case Severity::kError:
        ++counts[0];
        break;
      case Severity::kWarning:
        ++counts[1];
        break;
      case Severity::kInfo:
        ++counts[2];
        break;
    }
  }
  std::string out;
  auto add = [&out](std::size_t count, const char* one, const char* many) {
    if (count == 0) return;
    if (!out.empty()) out += ", ";
    out += std::to_string(count) + " " + (count == 1 ? one : many);
  };
  add(counts[0], "error", "errors");
  add(counts[1], "warning", "warnings");
  add(counts[2], "info", "info");
  return out.empty() ? "no findings" : out;
}

std::string Counted(std::size_t count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

// "baseline FILE: 3 findings accepted, 1 stale entry".
std::string BaselineLine(const BaselineOutcome& baseline) {
  return "baseline " + baseline.file + ": " +
         Counted(baseline.accepted.size(), "finding accepted", "findings accepted") + ", " +
         Counted(baseline.stale.size(), "stale entry", "stale entries");
}

void WriteText(std::ostream& out, const Report& report, const ReportStyle& style) {
  for (const Finding& finding : report.findings) {
    if (style.quiet && finding.severity == Severity::kInfo) continue;
    out << FormatFinding(finding, style.color) << '\n';
  }
  if (style.quiet) return;
  out << report.summary.Line() << '\n';
  if (report.baseline) out << Printable(BaselineLine(*report.baseline)) << '\n';
  out << CountLine(report.findings) << '\n';
  // render's report: what the deploy does, as render prints it on stderr.
  if (report.stopped) out << "rollout: nothing (render stopped)\n";
  if (!report.stopped) {
    for (const std::string& line : RolloutLines(report.rollout)) {
      out << "rollout: " << Printable(line) << '\n';
    }
  }
  if (!report.error.empty()) out << "error: " << Printable(report.error) << '\n';
}

// --- json -------------------------------------------------------------------

Json SummaryJson(const CoverageSummary& summary) {
  Json out;
  out["references"] = summary.Total();
  for (std::size_t i = 0; i < kCoverageStates; ++i) {
    const auto state = static_cast<Coverage>(i);
    out[CoverageName(state)] = summary.Count(state);
  }
  return out;
}

Json BaselineJson(const BaselineOutcome& baseline) {
  return Json{{"file", baseline.file},
              {"accepted", baseline.accepted.size()},
              {"stale", baseline.stale.size()}};
}

// A line or column, or null when it is unknown (0).
Json Position(std::size_t value) { return value > 0 ? Json(value) : Json(nullptr); }

// Input bytes that are not valid UTF-8 (a Latin-1 file name, a broken comment)
// become U+FFFD instead of making the dump throw.
void Dump(std::ostream& out, const Json& document) {
  out << document.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

void WriteJson(std::ostream& out, const Report& report) {
  Json findings = Json::array();
  for (const Finding& finding : report.findings) {
    Json entry;
    entry["rule"] = finding.rule;
    entry["severity"] = SeverityName(finding.severity);
    entry["file"] = Origin(finding.where);
    entry["line"] = Position(finding.where.line);
    entry["column"] = Position(finding.where.column);
    entry["template"] = finding.where.source.empty() ? Json(nullptr) : Json(finding.where.source);
    entry["object"] = finding.object;
    entry["reference"] = finding.reference;
    entry["message"] = finding.message;
    findings.push_back(std::move(entry));
  }
  Json document;
  document["summary"] = SummaryJson(report.summary);
  document["findings"] = std::move(findings);
  if (report.stopped) document["stopped"] = true;
  if (!report.error.empty()) document["error"] = report.error;
  if (!report.rollout.empty()) {
    Json rollout = Json::array();
    for (const RolloutEntry& item : report.rollout) {
      Json entry;
      entry["object"] = item.Object();
      entry["status"] = RolloutStatusName(item.status);
      entry["changed"] = item.changed();
      entry["previous"] = item.previous.str();
      rollout.push_back(std::move(entry));
    }
    document["rollout"] = std::move(rollout);
  }
  if (report.config) document["config"] = report.config->empty() ? Json() : Json(*report.config);
  if (report.baseline) document["baseline"] = BaselineJson(*report.baseline);
  Dump(out, document);
}

// --- sarif ------------------------------------------------------------------

const char* SarifLevel(Severity severity) {
  switch (severity) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kInfo:
      return "note";
  }
  return "warning";
}

// An origin as a SARIF artifact URI (a URI reference): forward slashes, relative
// paths kept relative, and every byte that may not stand in a URI path
// percent-encoded. ':' is encoded too, so that "a:b.yaml" is not read as a scheme.
std::string ArtifactUri(const std::string& origin) {
  if (origin.empty() || origin == kStandardInput) return "stdin";
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : origin) {
    if (c == '\\') c = '/';
    const auto byte = static_cast<unsigned char>(c);
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    const bool kept =
        alnum || std::string_view("-._~!$&'()*+,;=@/").find(c) != std::string_view::npos;
    if (kept) {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    }
  }
  return out;
}

Json Text(const std::string& text) { return Json{{"text", text}}; }

// Plain text as Markdown that renders as the same text: the rule texts hold
// placeholders such as "<why>", which a Markdown viewer would take for an HTML tag
// and drop. Characters with a meaning anywhere in a line are backslash-escaped, and
// those that start a list or a heading only at the start of a line.
std::string MarkdownText(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  bool line_start = true;
  for (char c : text) {
    const bool special = std::string_view("\\`*_[]<>#|~&").find(c) != std::string_view::npos ||
                         (line_start && std::string_view("-+=").find(c) != std::string_view::npos);
    if (special) out += '\\';
    out += c;
    line_start = c == '\n';
  }
  return out;
}

Json SarifRule(const Rule& rule) {
  Json out;
  out["id"] = Str(rule.id);
  out["name"] = Str(rule.id);
  out["shortDescription"] = Text(Str(rule.summary));
  out["fullDescription"] = Text(Str(rule.rationale));
  out["help"] = Json{{"text", Str(rule.fix)}, {"markdown", MarkdownText(Str(rule.fix))}};
  out["defaultConfiguration"] = Json{{"level", SarifLevel(rule.severity)}};
  return out;
}

// The index of `id` in Rules(), or -1 when the registry does not know it.
long RuleIndex(const std::string& id) {
  if (FindRule(id) == nullptr) return -1;
  const std::vector<Rule>& rules = Rules();
  for (std::size_t i = 0; i < rules.size(); ++i) {
    if (rules[i].id != nullptr && id == rules[i].id) return static_cast<long>(i);
  }
  return -1;
}

Json SarifResult(const Finding& finding) {
  Json out;
  if (!finding.rule.empty()) out["ruleId"] = finding.rule;
  if (const long index = RuleIndex(finding.rule); index >= 0) out["ruleIndex"] = index;
  out["level"] = SarifLevel(finding.severity);
  out["message"] = Text(finding.message);

  Json physical;
  physical["artifactLocation"] = Json{{"uri", ArtifactUri(finding.where.origin)}};
  if (finding.where.line > 0) {
    Json region;
    region["startLine"] = finding.where.line;
    if (finding.where.column > 0) region["startColumn"] = finding.where.column;
    physical["region"] = std::move(region);
  }
  out["locations"] = Json::array({Json{{"physicalLocation", std::move(physical)}}});
  if (!finding.where.source.empty()) {
    // The Helm template the document was rendered from: a path inside the chart, not
    // a file next to the stream, so a logical location rather than a physical one.
    Json related;
    related["id"] = 1;
    related["message"] = Text("rendered from the Helm template " + finding.where.source);
    related["logicalLocations"] =
        Json::array({Json{{"fullyQualifiedName", finding.where.source}, {"kind", "module"}}});
    out["relatedLocations"] = Json::array({std::move(related)});
  }

  Json properties = Json::object();
  if (!finding.object.empty()) properties["object"] = finding.object;
  if (!finding.reference.empty()) properties["reference"] = finding.reference;
  if (!properties.empty()) out["properties"] = std::move(properties);
  return out;
}

void WriteSarif(std::ostream& out, const Report& report, const ReportStyle& style) {
  Json driver;
  driver["name"] = kToolName;
  if (*kInformationUri != '\0') driver["informationUri"] = kInformationUri;
  if (!style.tool_version.empty()) driver["version"] = style.tool_version;
  Json rules = Json::array();
  for (const Rule& rule : Rules()) rules.push_back(SarifRule(rule));
  driver["rules"] = std::move(rules);

  // With a baseline, every result is one it did not accept: "new". What it accepted
  // is counted in the run's properties but not listed, not even as suppressed:
  // GitHub code scanning opens an alert for a result whatever its `suppressions`
  // say (github/codeql-action#1230), so listing them would undo the baseline there.
  Json results = Json::array();
  for (const Finding& finding : report.findings) {
    Json result = SarifResult(finding);
    if (report.baseline) result["baselineState"] = "new";
    results.push_back(std::move(result));
  }

  Json run;
  run["tool"] = Json{{"driver", std::move(driver)}};
  run["results"] = std::move(results);
  run["properties"] = Json{{"summary", SummaryJson(report.summary)}};
  if (report.baseline) run["properties"]["baseline"] = BaselineJson(*report.baseline);

  Json document;
  document["$schema"] = kSarifSchema;
  document["version"] = "2.1.0";
  document["runs"] = Json::array({std::move(run)});
  Dump(out, document);
}

// --- github -----------------------------------------------------------------

// The escaping GitHub documents for workflow commands: the message ("data") ...
// What the input put in it is made printable first (printable.h): GitHub's log
// shows control characters and bidi overrides as they are.
std::string EscapeData(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : PrintableLines(text)) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// ... and property values, where ':' and ',' separate properties.
std::string EscapeProperty(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : EscapeData(text)) {
    switch (c) {
      case ':':
        out += "%3A";
        break;
      case ',':
        out += "%2C";
        break;
      default:
        out += c;
    }
  }
  return out;
}

const char* GithubCommand(Severity severity) {
  switch (severity) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kInfo:
      return "notice";
  }
  return "warning";
}

void WriteGithub(std::ostream& out, const Report& report) {
  for (const Finding& finding : report.findings) {
    out << "::" << GithubCommand(finding.severity)
        << " file=" << EscapeProperty(Origin(finding.where));
    if (finding.where.line > 0) {
      out << ",line=" << finding.where.line;
      if (finding.where.column > 0) out << ",col=" << finding.where.column;
    }
    out << ",title=" << EscapeProperty(std::string(kToolName) + " " + finding.rule)
        << "::" << EscapeData(finding.message);
    if (!finding.where.source.empty())
      out << EscapeData(" (template " + finding.where.source + ")");
    out << '\n';
  }
  out << "::notice::" << EscapeData(report.summary.Line()) << '\n';
  if (report.baseline) out << "::notice::" << EscapeData(BaselineLine(*report.baseline)) << '\n';
}

}  // namespace

std::optional<ReportFormat> ParseReportFormat(std::string_view name) {
  if (name == "text") return ReportFormat::kText;
  if (name == "json") return ReportFormat::kJson;
  if (name == "sarif") return ReportFormat::kSarif;
  if (name == "github") return ReportFormat::kGithub;
  return std::nullopt;
}

void WriteReport(std::ostream& out, const Report& report, ReportFormat format,
                 const ReportStyle& style) {
  switch (format) {
    case ReportFormat::kText:
      WriteText(out, report, style);
      return;
    case ReportFormat::kJson:
      WriteJson(out, report);
      return;
    case ReportFormat::kSarif:
      WriteSarif(out, report, style);
      return;
    case ReportFormat::kGithub:
      WriteGithub(out, report);
      return;
  }
}

}  // namespace rollcall
