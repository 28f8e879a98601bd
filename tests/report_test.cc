#include "rollcall/report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "rollcall/rules.h"

namespace rollcall {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using Json = nlohmann::ordered_json;

// Three findings, one of each severity: a full location, a path with a comma and a
// colon and no column, and a finding on stdin with no line at all.
Report SampleReport() {
  Report report;

  Finding pending;
  pending.rule = "pending-marker";
  pending.severity = Severity::kError;
  pending.where = {"chart/templates/db.yaml", 2, 14, 9};
  pending.object = "Deployment prod/db";
  pending.reference = "secret/db-auth[password] (env, container app)";
  pending.message =
      "SECRET-VERSION: pending: a change to secret/db-auth does not reach the process";

  Finding unresolved;
  unresolved.rule = "unresolved-reference";
  unresolved.severity = Severity::kWarning;
  unresolved.where = {"deploy/a,b:c.yaml", 1, 7, 0};
  unresolved.object = "StatefulSet prod/mongo";
  unresolved.reference = "secret/mongo (envFrom, container mongo)";
  unresolved.message = "content of secret/mongo is unknown: 100% of its keys are read, none hashed";

  Finding note;
  note.rule = "not-a-kubernetes-object";
  note.severity = Severity::kInfo;
  note.where = {"<stdin>", 3, 0, 0};
  note.message = "document without apiVersion or kind, skipped";

  report.findings = {pending, unresolved, note};
  for (int i = 0; i < 3; ++i) report.summary.Add(Coverage::kHashed);
  report.summary.Add(Coverage::kWaived);
  report.summary.Add(Coverage::kPending);
  report.summary.Add(Coverage::kUnresolved);
  return report;
}

std::string Write(const Report& report, ReportFormat format, const ReportStyle& style = {}) {
  std::ostringstream out;
  WriteReport(out, report, format, style);
  return out.str();
}

// --- formats ----------------------------------------------------------------

TEST(ParseReportFormat, KnowsTheFourFormats) {
  EXPECT_EQ(ParseReportFormat("text"), ReportFormat::kText);
  EXPECT_EQ(ParseReportFormat("json"), ReportFormat::kJson);
  EXPECT_EQ(ParseReportFormat("sarif"), ReportFormat::kSarif);
  EXPECT_EQ(ParseReportFormat("github"), ReportFormat::kGithub);
  EXPECT_EQ(ParseReportFormat(""), std::nullopt);
  EXPECT_EQ(ParseReportFormat("JSON"), std::nullopt);
  EXPECT_EQ(ParseReportFormat("xml"), std::nullopt);
  EXPECT_EQ(ParseReportFormat("text "), std::nullopt);
}

// --- text -------------------------------------------------------------------

TEST(TextReport, ExactOutput) {
  EXPECT_EQ(Write(SampleReport(), ReportFormat::kText),
            "chart/templates/db.yaml:14:9: error[pending-marker] SECRET-VERSION: pending: a change "
            "to secret/db-auth does not reach the process\n"
            "deploy/a,b:c.yaml:7: warning[unresolved-reference] content of secret/mongo is "
            "unknown: 100% of its keys are read, none hashed\n"
            "<stdin>: info[not-a-kubernetes-object] document without apiVersion or kind, skipped\n"
            "references: 6 \u2014 hashed 3, waived 1, pending 1, runtime 0, unresolved 1\n"
            "1 error, 1 warning, 1 info\n");
}

TEST(TextReport, ColorsOnlySeverityWordsWhenAsked) {
  ReportStyle style;
  style.color = true;
  EXPECT_EQ(Write(SampleReport(), ReportFormat::kText, style),
            "chart/templates/db.yaml:14:9: \x1b[31merror\x1b[0m[pending-marker] SECRET-VERSION: "
            "pending: a change to secret/db-auth does not reach the process\n"
            "deploy/a,b:c.yaml:7: \x1b[33mwarning\x1b[0m[unresolved-reference] content of "
            "secret/mongo is unknown: 100% of its keys are read, none hashed\n"
            "<stdin>: \x1b[34minfo\x1b[0m[not-a-kubernetes-object] document without apiVersion or "
            "kind, skipped\n"
            "references: 6 \u2014 hashed 3, waived 1, pending 1, runtime 0, unresolved 1\n"
            "1 error, 1 warning, 1 info\n");
  EXPECT_THAT(Write(SampleReport(), ReportFormat::kText), Not(HasSubstr("\x1b")));
}

TEST(TextReport, CountsPluralsAndNoFindings) {
  Report report;
  EXPECT_EQ(Write(report, ReportFormat::kText),
            "references: 0 \u2014 hashed 0, waived 0, pending 0, runtime 0, unresolved 0\n"
            "no findings\n");

  Finding error;
  error.severity = Severity::kError;
  error.rule = "r";
  error.where.origin = "x.yaml";
  report.findings = {error, error, error};
  Finding warning = error;
  warning.severity = Severity::kWarning;
  report.findings.push_back(warning);
  Finding info = error;
  info.severity = Severity::kInfo;
  report.findings.push_back(info);
  report.findings.push_back(info);
  EXPECT_THAT(Write(report, ReportFormat::kText), HasSubstr("\n3 errors, 1 warning, 2 info\n"));

  report.findings = {warning, warning};
  EXPECT_THAT(Write(report, ReportFormat::kText), HasSubstr("\n2 warnings\n"));
}

TEST(TextReport, EmptyOriginIsStdin) {
  Report report;
  Finding finding;
  finding.rule = "r";
  finding.message = "m";
  finding.where.line = 4;
  report.findings = {finding};
  EXPECT_THAT(Write(report, ReportFormat::kText),
              ::testing::StartsWith("<stdin>:4: warning[r] m\n"));
}

// A file name or message from the input cannot split a finding over lines or send
// escape sequences to the terminal.
TEST(TextReport, ControlBytesAreShownEscaped) {
  Report report;
  Finding finding;
  finding.rule = "r";
  finding.where.origin = "evil\x1b[2J.yaml";
  finding.message = "one\ntwo\rthree\tfour\x7f";
  report.findings = {finding};
  EXPECT_THAT(
      Write(report, ReportFormat::kText),
      ::testing::StartsWith("evil\\x1b[2J.yaml: warning[r] one\\ntwo\\rthree\tfour\\x7f\n"));
  ReportStyle style;
  style.color = true;
  const std::string colored = Write(report, ReportFormat::kText, style);
  EXPECT_EQ(std::count(colored.begin(), colored.end(), '\x1b'), 2);  // the colour and its reset
}

// --- json -------------------------------------------------------------------

constexpr const char* kExpectedJson = R"json({
  "summary": {
    "references": 6,
    "hashed": 3,
    "waived": 1,
    "pending": 1,
    "runtime": 0,
    "unresolved": 1
  },
  "findings": [
    {
      "rule": "pending-marker",
      "severity": "error",
      "file": "chart/templates/db.yaml",
      "line": 14,
      "column": 9,
      "template": null,
      "object": "Deployment prod/db",
      "reference": "secret/db-auth[password] (env, container app)",
      "message": "SECRET-VERSION: pending: a change to secret/db-auth does not reach the process"
    },
    {
      "rule": "unresolved-reference",
      "severity": "warning",
      "file": "deploy/a,b:c.yaml",
      "line": 7,
      "column": null,
      "template": null,
      "object": "StatefulSet prod/mongo",
      "reference": "secret/mongo (envFrom, container mongo)",
      "message": "content of secret/mongo is unknown: 100% of its keys are read, none hashed"
    },
    {
      "rule": "not-a-kubernetes-object",
      "severity": "info",
      "file": "<stdin>",
      "line": null,
      "column": null,
      "template": null,
      "object": "",
      "reference": "",
      "message": "document without apiVersion or kind, skipped"
    }
  ]
}
)json";

TEST(JsonReport, ExactOutput) {
  EXPECT_EQ(Write(SampleReport(), ReportFormat::kJson), kExpectedJson);
}

TEST(JsonReport, ParsesBackWithTheDocumentedShape) {
  const Json document = Json::parse(Write(SampleReport(), ReportFormat::kJson));
  std::vector<std::string> top;
  for (const auto& item : document.items()) top.push_back(item.key());
  EXPECT_EQ(top, (std::vector<std::string>{"summary", "findings"}));

  std::vector<std::string> summary_keys;
  for (const auto& item : document["summary"].items()) {
    summary_keys.push_back(item.key());
    EXPECT_TRUE(item.value().is_number_unsigned()) << item.key();
  }
  EXPECT_EQ(summary_keys, (std::vector<std::string>{"references", "hashed", "waived", "pending",
                                                    "runtime", "unresolved"}));
  EXPECT_EQ(document["summary"]["references"], 6);

  ASSERT_TRUE(document["findings"].is_array());
  ASSERT_EQ(document["findings"].size(), 3U);
  for (const Json& finding : document["findings"]) {
    std::vector<std::string> keys;
    for (const auto& item : finding.items()) keys.push_back(item.key());
    EXPECT_EQ(keys, (std::vector<std::string>{"rule", "severity", "file", "line", "column",
                                              "template", "object", "reference", "message"}));
  }
  EXPECT_EQ(document["findings"][0]["line"], 14);
  EXPECT_TRUE(document["findings"][2]["line"].is_null());
}

TEST(JsonReport, EmptyReportHasAnEmptyFindingsArray) {
  const Json document = Json::parse(Write(Report{}, ReportFormat::kJson));
  EXPECT_TRUE(document["findings"].is_array());
  EXPECT_TRUE(document["findings"].empty());
  EXPECT_EQ(document["summary"]["references"], 0);
}

// render's --report names the config file used (null for none), last; lint's JSON
// leaves it out.
TEST(JsonReport, ConfigOnlyWhenGiven) {
  EXPECT_FALSE(Json::parse(Write(Report{}, ReportFormat::kJson)).contains("config"));
  Report none;
  none.config = "";
  const Json without = Json::parse(Write(none, ReportFormat::kJson));
  EXPECT_TRUE(without.contains("config"));
  EXPECT_TRUE(without["config"].is_null());
  Report found = SampleReport();
  found.config = "/src/shop/.rollcall.yaml";
  const Json with = Json::parse(Write(found, ReportFormat::kJson));
  EXPECT_EQ(with["config"], "/src/shop/.rollcall.yaml");
  EXPECT_EQ(std::prev(with.end()).key(), "config");
}

TEST(JsonReport, EscapesAndSurvivesInvalidUtf8) {
  Report report;
  Finding finding;
  finding.rule = "r";
  finding.where.origin = "caf\xe9.yaml";  // Latin-1, not UTF-8
  finding.message = "quote \" backslash \\ newline \n";
  report.findings = {finding};
  const std::string out = Write(report, ReportFormat::kJson);
  const Json document = Json::parse(out);
  EXPECT_EQ(document["findings"][0]["message"], "quote \" backslash \\ newline \n");
  EXPECT_EQ(document["findings"][0]["file"], "caf\xef\xbf\xbd.yaml");  // U+FFFD
}

// --- sarif ------------------------------------------------------------------

// The sample's SARIF log without tool.driver.rules and result.ruleIndex, which
// depend on the rule registry and are checked against it separately.
constexpr const char* kExpectedSarifWithoutRegistry = R"json({
  "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
  "version": "2.1.0",
  "runs": [
    {
      "tool": {
        "driver": {
          "name": "rollcall",
          "version": "1.2.3"
        }
      },
      "results": [
        {
          "ruleId": "pending-marker",
          "level": "error",
          "message": {
            "text": "SECRET-VERSION: pending: a change to secret/db-auth does not reach the process"
          },
          "locations": [
            {
              "physicalLocation": {
                "artifactLocation": {
                  "uri": "chart/templates/db.yaml"
                },
                "region": {
                  "startLine": 14,
                  "startColumn": 9
                }
              }
            }
          ],
          "properties": {
            "object": "Deployment prod/db",
            "reference": "secret/db-auth[password] (env, container app)"
          }
        },
        {
          "ruleId": "unresolved-reference",
          "level": "warning",
          "message": {
            "text": "content of secret/mongo is unknown: 100% of its keys are read, none hashed"
          },
          "locations": [
            {
              "physicalLocation": {
                "artifactLocation": {
                  "uri": "deploy/a,b%3Ac.yaml"
                },
                "region": {
                  "startLine": 7
                }
              }
            }
          ],
          "properties": {
            "object": "StatefulSet prod/mongo",
            "reference": "secret/mongo (envFrom, container mongo)"
          }
        },
        {
          "ruleId": "not-a-kubernetes-object",
          "level": "note",
          "message": {
            "text": "document without apiVersion or kind, skipped"
          },
          "locations": [
            {
              "physicalLocation": {
                "artifactLocation": {
                  "uri": "stdin"
                }
              }
            }
          ]
        }
      ],
      "properties": {
        "summary": {
          "references": 6,
          "hashed": 3,
          "waived": 1,
          "pending": 1,
          "runtime": 0,
          "unresolved": 1
        }
      }
    }
  ]
}
)json";

std::string SampleSarif() {
  ReportStyle style;
  style.tool_version = "1.2.3";
  return Write(SampleReport(), ReportFormat::kSarif, style);
}

TEST(SarifReport, ExactOutputApartFromTheRegistry) {
  const std::string out = SampleSarif();
  Json document = Json::parse(out);
  // The output is exactly the parsed document pretty-printed: 2-space indent, keys in
  // the order written, a trailing newline.
  EXPECT_EQ(out, document.dump(2) + "\n");

  Json& driver = document["runs"][0]["tool"]["driver"];
  ASSERT_TRUE(driver.contains("rules"));
  driver.erase("rules");
  for (Json& result : document["runs"][0]["results"]) result.erase("ruleIndex");
  EXPECT_EQ(document.dump(2) + "\n", kExpectedSarifWithoutRegistry);
}

// Markdown with every backslash escape removed (CommonMark: a backslash before
// ASCII punctuation stands for that character).
std::string MarkdownUnescaped(const std::string& markdown) {
  std::string out;
  for (std::size_t i = 0; i < markdown.size(); ++i) {
    if (markdown[i] == '\\' && i + 1 < markdown.size() &&
        std::ispunct(static_cast<unsigned char>(markdown[i + 1]))) {
      ++i;
    }
    out += markdown[i];
  }
  return out;
}

// No HTML tag, entity, code span, emphasis or link can start in `markdown`: each of
// their characters comes escaped. (A rule's fix text says "<why>", which a viewer
// would otherwise drop as an unknown HTML tag.)
bool MarkdownHasNoBareSyntax(const std::string& markdown) {
  for (std::size_t i = 0; i < markdown.size(); ++i) {
    if (markdown[i] == '\\') {
      ++i;
      continue;
    }
    if (std::string_view("`*_[]<>&").find(markdown[i]) != std::string_view::npos) return false;
  }
  return true;
}

TEST(SarifReport, ListsEveryRuleOfTheRegistryAndReferencesThemByIndex) {
  const Json document = Json::parse(SampleSarif());
  const Json& rules = document["runs"][0]["tool"]["driver"]["rules"];
  ASSERT_TRUE(rules.is_array());
  ASSERT_EQ(rules.size(), Rules().size());
  for (std::size_t i = 0; i < Rules().size(); ++i) {
    const Rule& rule = Rules()[i];
    const Json& entry = rules[i];
    EXPECT_EQ(entry["id"], rule.id);
    EXPECT_EQ(entry["name"], rule.id);
    EXPECT_EQ(entry["shortDescription"]["text"], rule.summary);
    EXPECT_EQ(entry["fullDescription"]["text"], rule.rationale);
    EXPECT_EQ(entry["help"]["text"], rule.fix);
    const std::string markdown = entry["help"]["markdown"];
    EXPECT_EQ(MarkdownUnescaped(markdown), rule.fix) << markdown;
    EXPECT_TRUE(MarkdownHasNoBareSyntax(markdown)) << markdown;
    const char* level = rule.severity == Severity::kError     ? "error"
                        : rule.severity == Severity::kWarning ? "warning"
                                                              : "note";
    EXPECT_EQ(entry["defaultConfiguration"]["level"], level) << rule.id;
  }
  for (const Json& result : document["runs"][0]["results"]) {
    const std::string id = result["ruleId"];
    if (FindRule(id) == nullptr) {
      EXPECT_FALSE(result.contains("ruleIndex")) << id;
    } else {
      ASSERT_TRUE(result.contains("ruleIndex")) << id;
      EXPECT_EQ(rules[result["ruleIndex"].get<std::size_t>()]["id"], id);
    }
  }
}

TEST(SarifReport, ResultsWithRegisteredRulesCarryTheirIndex) {
  if (Rules().empty()) GTEST_SKIP() << "the rule registry is empty";
  Report report;
  for (std::size_t i = Rules().size(); i-- > 0;) {
    Finding finding;
    finding.rule = Rules()[i].id;
    finding.where.origin = "x.yaml";
    report.findings.push_back(finding);
  }
  const Json document = Json::parse(Write(report, ReportFormat::kSarif));
  const Json& results = document["runs"][0]["results"];
  ASSERT_EQ(results.size(), Rules().size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i]["ruleIndex"], Rules().size() - 1 - i);
  }
}

TEST(SarifReport, NoVersionPropertyWhenNoneIsGiven) {
  const Json document = Json::parse(Write(SampleReport(), ReportFormat::kSarif));
  EXPECT_FALSE(document["runs"][0]["tool"]["driver"].contains("version"));
}

TEST(SarifReport, ArtifactUris) {
  Report report;
  for (const char* origin : {"", "<stdin>", "chart\\templates\\x.yaml", "/abs/path.yaml",
                             "./rel/a b%.yaml", "dir/caf\xc3\xa9.yaml", "a#b?c.yaml"}) {
    Finding finding;
    finding.rule = "r";
    finding.where.origin = origin;
    report.findings.push_back(finding);
  }
  const Json document = Json::parse(Write(report, ReportFormat::kSarif));
  std::vector<std::string> uris;
  for (const Json& result : document["runs"][0]["results"]) {
    uris.push_back(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]);
  }
  EXPECT_EQ(uris, (std::vector<std::string>{"stdin", "stdin", "chart/templates/x.yaml",
                                            "/abs/path.yaml", "./rel/a%20b%25.yaml",
                                            "dir/caf%C3%A9.yaml", "a%23b%3Fc.yaml"}));
}

// The parts of the SARIF 2.1.0 schema (sarif-schema-2.1.0.json) that apply to the
// objects rollcall writes: required properties, enums, minimums, and no property
// the schema does not define (most of its objects have additionalProperties false).
class SarifSchemaCheck {
 public:
  std::vector<std::string> problems;

  void Log(const Json& log) {
    Keys(log, "sarifLog", {"$schema", "version", "runs", "inlineExternalProperties", "properties"});
    Required(log, "sarifLog", {"version", "runs"});
    if (log.contains("$schema") && !log["$schema"].is_string()) Problem("$schema is not a string");
    if (log.value("version", Json()) != "2.1.0") Problem("version is not \"2.1.0\"");
    if (!log.contains("runs") || !log["runs"].is_array()) return Problem("runs is not an array");
    for (const Json& run : log["runs"]) Run(run);
  }

 private:
  void Problem(const std::string& what) { problems.push_back(what); }

  void Keys(const Json& object, const std::string& what,
            std::initializer_list<const char*> allowed) {
    if (!object.is_object()) return Problem(what + " is not an object");
    for (const auto& item : object.items()) {
      if (std::none_of(allowed.begin(), allowed.end(),
                       [&](const char* key) { return item.key() == key; })) {
        Problem(what + " has a property the schema does not define: " + item.key());
      }
    }
  }

  void Required(const Json& object, const std::string& what,
                std::initializer_list<const char*> required) {
    for (const char* key : required) {
      if (!object.is_object() || !object.contains(key)) Problem(what + " lacks " + key);
    }
  }

  void Level(const Json& level, const std::string& what) {
    if (!level.is_string() ||
        (level != "none" && level != "note" && level != "warning" && level != "error")) {
      Problem(what + " level is not none, note, warning or error");
    }
  }

  void MultiformatMessage(const Json& message, const std::string& what) {
    Keys(message, what, {"text", "markdown", "properties"});
    Required(message, what, {"text"});
    if (message.contains("text") && !message["text"].is_string()) Problem(what + ".text");
    if (message.contains("markdown") && !message["markdown"].is_string())
      Problem(what + ".markdown");
  }

  void Run(const Json& run) {
    Keys(run, "run",
         {"tool",
          "invocations",
          "conversion",
          "language",
          "versionControlProvenance",
          "originalUriBaseIds",
          "artifacts",
          "logicalLocations",
          "graphs",
          "results",
          "automationDetails",
          "runAggregates",
          "baselineGuid",
          "redactionTokens",
          "defaultEncoding",
          "defaultSourceLanguage",
          "newlineSequences",
          "columnKind",
          "externalPropertyFileReferences",
          "threadFlowLocations",
          "taxonomies",
          "addresses",
          "translations",
          "policies",
          "webRequests",
          "webResponses",
          "specialLocations",
          "properties"});
    Required(run, "run", {"tool"});
    if (run.contains("properties")) Keys(run["properties"], "run.properties", {"summary", "tags"});
    const Json& tool = run.value("tool", Json::object());
    Keys(tool, "tool", {"driver", "extensions", "properties"});
    Required(tool, "tool", {"driver"});
    const Json& driver = tool.value("driver", Json::object());
    Keys(driver, "toolComponent",
         {"guid",
          "name",
          "organization",
          "product",
          "productSuite",
          "shortDescription",
          "fullDescription",
          "fullName",
          "version",
          "semanticVersion",
          "dottedQuadFileVersion",
          "releaseDateUtc",
          "downloadUri",
          "informationUri",
          "globalMessageStrings",
          "notifications",
          "rules",
          "taxa",
          "locations",
          "language",
          "contents",
          "isComprehensive",
          "localizedDataSemanticVersion",
          "minimumRequiredLocalizedDataSemanticVersion",
          "associatedComponent",
          "translationMetadata",
          "supportedTaxonomies",
          "properties"});
    Required(driver, "toolComponent", {"name"});
    if (!driver.value("name", Json()).is_string()) Problem("tool.driver.name is not a string");
    if (driver.contains("version") && !driver["version"].is_string()) Problem("driver.version");
    if (driver.contains("informationUri") &&
        driver["informationUri"].get<std::string>().find("://") == std::string::npos) {
      Problem("driver.informationUri is not an absolute URI");
    }
    const Json rules = driver.value("rules", Json::array());
    if (!rules.is_array()) Problem("driver.rules is not an array");
    std::vector<std::string> ids;
    for (const Json& rule : rules) {
      ReportingDescriptor(rule);
      ids.push_back(rule.value("id", ""));
    }
    std::sort(ids.begin(), ids.end());
    if (std::adjacent_find(ids.begin(), ids.end()) != ids.end()) {
      Problem("driver.rules has duplicates (uniqueItems)");
    }
    if (run.contains("results")) {
      if (!run["results"].is_array()) return Problem("run.results is not an array");
      for (const Json& result : run["results"]) Result(result, rules.size());
    }
  }

  void ReportingDescriptor(const Json& rule) {
    Keys(rule, "reportingDescriptor",
         {"id", "deprecatedIds", "guid", "deprecatedGuids", "name", "deprecatedNames",
          "shortDescription", "fullDescription", "messageStrings", "defaultConfiguration",
          "helpUri", "help", "relationships", "properties"});
    Required(rule, "reportingDescriptor", {"id"});
    if (!rule.value("id", Json()).is_string()) Problem("rule id is not a string");
    for (const char* key : {"shortDescription", "fullDescription", "help"}) {
      if (rule.contains(key)) MultiformatMessage(rule[key], std::string("rule.") + key);
    }
    if (rule.contains("defaultConfiguration")) {
      const Json& configuration = rule["defaultConfiguration"];
      Keys(configuration, "reportingConfiguration",
           {"enabled", "level", "rank", "parameters", "properties"});
      if (configuration.contains("level")) Level(configuration["level"], "defaultConfiguration");
    }
  }

  void Result(const Json& result, std::size_t rule_count) {
    Keys(result, "result",
         {"ruleId",
          "ruleIndex",
          "rule",
          "kind",
          "level",
          "message",
          "analysisTarget",
          "locations",
          "guid",
          "correlationGuid",
          "occurrenceCount",
          "partialFingerprints",
          "fingerprints",
          "stacks",
          "codeFlows",
          "graphs",
          "graphTraversals",
          "relatedLocations",
          "suppressions",
          "baselineState",
          "rank",
          "attachments",
          "hostedViewerUri",
          "workItemUris",
          "provenance",
          "fixes",
          "taxa",
          "webRequest",
          "webResponse",
          "properties"});
    Required(result, "result", {"message"});
    if (result.contains("ruleId") && !result["ruleId"].is_string()) Problem("ruleId");
    if (result.contains("ruleIndex")) {
      const Json& index = result["ruleIndex"];
      if (!index.is_number_integer() || index.get<long>() < -1 ||
          index.get<long>() >= static_cast<long>(rule_count)) {
        Problem("ruleIndex is not an index into driver.rules");
      }
    }
    if (result.contains("level")) Level(result["level"], "result");
    const Json& message = result.value("message", Json::object());
    Keys(message, "message", {"text", "markdown", "id", "arguments", "properties"});
    if (!message.contains("text") && !message.contains("id")) Problem("message lacks text and id");
    if (message.contains("text") && !message["text"].is_string()) Problem("message.text");
    if (result.contains("locations")) {
      if (!result["locations"].is_array()) return Problem("locations is not an array");
      for (const Json& location : result["locations"]) Location(location);
    }
  }

  void Location(const Json& location) {
    Keys(location, "location",
         {"id", "physicalLocation", "logicalLocations", "message", "annotations", "relationships",
          "properties"});
    if (!location.contains("physicalLocation")) return;
    const Json& physical = location["physicalLocation"];
    Keys(physical, "physicalLocation",
         {"address", "artifactLocation", "region", "contextRegion", "properties"});
    if (!physical.contains("address") && !physical.contains("artifactLocation")) {
      Problem("physicalLocation lacks both address and artifactLocation");
    }
    if (physical.contains("artifactLocation")) {
      const Json& artifact = physical["artifactLocation"];
      Keys(artifact, "artifactLocation",
           {"uri", "uriBaseId", "index", "description", "properties"});
      if (artifact.contains("uri")) UriReference(artifact["uri"]);
    }
    if (physical.contains("region")) Region(physical["region"]);
  }

  // format "uri-reference" (RFC 3986): only these characters, '%' only as an escape.
  void UriReference(const Json& uri) {
    if (!uri.is_string()) return Problem("artifactLocation.uri is not a string");
    const std::string text = uri;
    static const std::string kAllowed =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?#[]@!$&'()*+,;=%";
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (kAllowed.find(text[i]) == std::string::npos) {
        return Problem("artifactLocation.uri has a character a URI cannot hold: " + text);
      }
      if (text[i] == '%' &&
          (i + 2 >= text.size() || !std::isxdigit(static_cast<unsigned char>(text[i + 1])) ||
           !std::isxdigit(static_cast<unsigned char>(text[i + 2])))) {
        return Problem("artifactLocation.uri has a bare %: " + text);
      }
    }
    // A relative reference whose first segment holds ':' would be read as a scheme.
    const std::size_t colon = text.find(':');
    if (colon != std::string::npos && text.find('/') > colon) {
      Problem("artifactLocation.uri reads as having a scheme: " + text);
    }
  }

  void Region(const Json& region) {
    Keys(region, "region",
         {"startLine", "startColumn", "endLine", "endColumn", "charOffset", "charLength",
          "byteOffset", "byteLength", "snippet", "message", "sourceLanguage", "properties"});
    if (!region.contains("startLine") && !region.contains("charOffset") &&
        !region.contains("byteOffset")) {
      Problem("region lacks startLine, charOffset and byteOffset");
    }
    for (const char* key : {"startLine", "startColumn", "endLine", "endColumn"}) {
      if (region.contains(key) &&
          (!region[key].is_number_integer() || region[key].get<long>() < 1)) {
        Problem(std::string("region.") + key + " is not an integer >= 1");
      }
    }
  }
};

std::vector<std::string> SchemaProblems(const std::string& sarif) {
  SarifSchemaCheck check;
  check.Log(Json::parse(sarif));
  return check.problems;
}

TEST(SarifReport, MeetsTheSchemaRequirements) {
  EXPECT_THAT(SchemaProblems(SampleSarif()), ::testing::IsEmpty());
  EXPECT_THAT(SchemaProblems(Write(Report{}, ReportFormat::kSarif)), ::testing::IsEmpty());

  Report odd;
  for (const char* origin : {"", "a:b.yaml", "x y/%z.yaml", "caf\xe9.yaml"}) {
    Finding finding;
    finding.rule = "no-such-rule";
    finding.where.origin = origin;
    finding.where.column = 5;  // a column without a line is not written
    odd.findings.push_back(finding);
  }
  EXPECT_THAT(SchemaProblems(Write(odd, ReportFormat::kSarif)), ::testing::IsEmpty());
}

// The checker itself finds what it is meant to find.
TEST(SarifReport, SchemaCheckCatchesViolations) {
  Json log = Json::parse(SampleSarif());
  log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0;
  log["runs"][0]["results"][1].erase("message");
  log["runs"][0]["results"][2]["level"] = "info";
  log["runs"][0]["tool"]["driver"].erase("name");
  log["runs"][0]["tool"]["driver"]["colour"] = "red";
  log["runs"][0]["results"][2]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] =
      "a b";
  log.erase("version");
  SarifSchemaCheck check;
  check.Log(log);
  EXPECT_THAT(check.problems,
              ::testing::UnorderedElementsAre(
                  "sarifLog lacks version", "version is not \"2.1.0\"",
                  "toolComponent has a property the schema does not define: colour",
                  "toolComponent lacks name", "tool.driver.name is not a string",
                  "region.startLine is not an integer >= 1", "result lacks message",
                  "message lacks text and id", "result level is not none, note, warning or error",
                  "artifactLocation.uri has a character a URI cannot hold: a b"));
}

// --- github -----------------------------------------------------------------

TEST(GithubReport, ExactOutput) {
  EXPECT_EQ(
      Write(SampleReport(), ReportFormat::kGithub),
      "::error file=chart/templates/db.yaml,line=14,col=9,title=rollcall pending-marker::"
      "SECRET-VERSION: pending: a change to secret/db-auth does not reach the process\n"
      "::warning file=deploy/a%2Cb%3Ac.yaml,line=7,title=rollcall unresolved-reference::"
      "content of secret/mongo is unknown: 100%25 of its keys are read, none hashed\n"
      "::notice file=<stdin>,title=rollcall not-a-kubernetes-object::"
      "document without apiVersion or kind, skipped\n"
      "::notice::references: 6 \u2014 hashed 3, waived 1, pending 1, runtime 0, unresolved 1\n");
}

TEST(GithubReport, EscapesDataAndProperties) {
  Report report;
  Finding finding;
  finding.rule = "r:1,2";
  finding.severity = Severity::kError;
  finding.where = {"50%\r\n:,.yaml", 0, 2, 3};
  finding.message = "a:b,c 50%\r\nnext";
  report.findings = {finding};
  const std::string out = Write(report, ReportFormat::kGithub);
  // A carriage return is shown as the text output shows it (printable.h), a line
  // feed escaped as GitHub documents.
  EXPECT_THAT(out, ::testing::StartsWith(
                       "::error file=50%25\\r%0A%3A%2C.yaml,line=2,col=3,title=rollcall r%3A1%2C2::"
                       "a:b,c 50%25\\r%0Anext\n"));
  // One command per line: nothing from the input starts a line of its own.
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 2);
}

TEST(GithubReport, EmptyReportIsTheSummaryNotice) {
  EXPECT_EQ(
      Write(Report{}, ReportFormat::kGithub),
      "::notice::references: 0 \u2014 hashed 0, waived 0, pending 0, runtime 0, unresolved 0\n");
}

// --- all formats ------------------------------------------------------------

TEST(AllFormats, Deterministic) {
  for (ReportFormat format :
       {ReportFormat::kText, ReportFormat::kJson, ReportFormat::kSarif, ReportFormat::kGithub}) {
    EXPECT_EQ(Write(SampleReport(), format), Write(SampleReport(), format));
  }
}

}  // namespace
}  // namespace rollcall
