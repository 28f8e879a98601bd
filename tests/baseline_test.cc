#include "rollcall/baseline.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rollcall/input_error.h"

namespace rollcall {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

Finding MakeFinding(const std::string& file, std::size_t line, const std::string& reference,
                    Severity severity = Severity::kError,
                    const std::string& rule = "unresolved-reference") {
  Finding finding;
  finding.rule = rule;
  finding.severity = severity;
  finding.where = Location{file, 0, line, 25};
  finding.object = "Deployment shop/api";
  finding.reference = reference;
  finding.message = "Deployment shop/api reads " + reference + " and nothing covers it";
  return finding;
}

BaselineEntry EntryFor(const Finding& finding, const std::string& reason) {
  return {finding.rule,
          BaselineFile(finding),
          finding.object,
          finding.reference,
          finding.message,
          reason,
          0};
}

BaselineScope ScopeOf(std::initializer_list<const char*> files) {
  BaselineScope scope;
  for (const char* file : files) scope.AddFile(file);
  return scope;
}

std::string ParseError(const std::string& text) {
  try {
    ParseBaseline(text, "b.json");
  } catch (const InputError& error) {
    return error.where().Compact() + ": " + error.what();
  }
  return "(no error)";
}

TEST(Baseline, WrittenTextReadsBackWithTheLineOfEachEntry) {
  std::vector<Finding> findings = {MakeFinding("deploy/b.yaml", 9, "secret/b[k]"),
                                   MakeFinding("deploy/a.yaml", 30, "secret/a[k]")};
  Baseline written = NewBaseline(findings, Baseline{}, BaselineScope{}, "b.json");
  std::string text = BaselineText(written);
  Baseline read = ParseBaseline(text, "b.json");
  ASSERT_EQ(read.entries.size(), 2u);
  // Sorted by file, whatever the order of the findings.
  EXPECT_EQ(read.entries[0].file, "deploy/a.yaml");
  EXPECT_EQ(read.entries[1].file, "deploy/b.yaml");
  EXPECT_EQ(read.entries[0].reason, kDefaultBaselineReason);
  EXPECT_EQ(read.entries[0].message, findings[1].message);
  EXPECT_EQ(read.entries[0].line, 5u);
  EXPECT_EQ(read.entries[1].line, 13u);
  EXPECT_EQ(BaselineText(read), text);  // written again: the same bytes
}

TEST(Baseline, MatchesOnIdentityNotOnLines) {
  Finding then = MakeFinding("deploy/api.yaml", 12, "secret/db[password]");
  Baseline baseline{"b.json", {EntryFor(then, "applied by the database pipeline")}};
  // Ten lines were added above the reference since.
  std::vector<Finding> now = {MakeFinding("deploy/api.yaml", 22, "secret/db[password]")};
  BaselineOutcome outcome = ApplyBaseline(baseline, ScopeOf({"deploy/api.yaml"}), now);
  EXPECT_TRUE(now.empty());
  ASSERT_EQ(outcome.accepted.size(), 1u);
  EXPECT_EQ(outcome.accepted[0].reason, "applied by the database pipeline");
  EXPECT_EQ(outcome.accepted[0].finding.where.line, 22u);
  EXPECT_TRUE(outcome.stale.empty());
}

TEST(Baseline, AnotherFileObjectReferenceOrRuleIsNewFinding) {
  Finding accepted = MakeFinding("deploy/api.yaml", 12, "secret/db[password]");
  Baseline baseline{"b.json", {EntryFor(accepted, "known")}};
  Finding other_file = MakeFinding("deploy/api-v2.yaml", 12, "secret/db[password]");
  Finding other_reference = MakeFinding("deploy/api.yaml", 12, "secret/db[user]");
  Finding other_object = accepted;
  other_object.object = "Deployment shop/api-canary";
  Finding other_rule = accepted;
  other_rule.rule = "pending-marker";
  std::vector<Finding> now = {other_file, other_reference, other_object, other_rule};
  BaselineOutcome outcome = ApplyBaseline(baseline, ScopeOf({"deploy/api.yaml"}), now);
  EXPECT_EQ(now.size(), 4u);
  EXPECT_TRUE(outcome.accepted.empty());
  EXPECT_EQ(outcome.stale.size(), 1u);
}

TEST(Baseline, OneEntryAcceptsOneFindingAndTheSameMessagePairsFirst) {
  // Two findings with one identity (a finding about text: no object, no reference).
  Finding first = MakeFinding("deploy/api.yaml", 3, "", Severity::kWarning, "orphan-marker");
  first.object.clear();
  first.message = "marker on line 3 binds to no reference";
  Finding second = first;
  second.where.line = 40;
  second.message = "marker on line 40 binds to no reference";
  Baseline baseline{"b.json", {EntryFor(second, "the second one")}};
  std::vector<Finding> now = {first, second};
  BaselineOutcome outcome = ApplyBaseline(baseline, ScopeOf({"deploy/api.yaml"}), now);
  ASSERT_EQ(outcome.accepted.size(), 1u);
  EXPECT_EQ(outcome.accepted[0].finding.where.line, 40u);
  ASSERT_EQ(now.size(), 1u);
  EXPECT_EQ(now[0].where.line, 3u);
}

TEST(Baseline, ARewordedMessageStillMatches) {
  Finding finding = MakeFinding("deploy/api.yaml", 12, "secret/db[password]");
  BaselineEntry entry = EntryFor(finding, "known");
  entry.message = "an older rollcall said it differently";
  Baseline baseline{"b.json", {entry}};
  std::vector<Finding> now = {finding};
  EXPECT_EQ(ApplyBaseline(baseline, ScopeOf({}), now).accepted.size(), 1u);
  EXPECT_TRUE(now.empty());
}

TEST(Baseline, StaleOnlyForFilesTheRunRead) {
  Finding gone = MakeFinding("deploy/api.yaml", 12, "secret/db[password]");
  Finding elsewhere = MakeFinding("deploy/jobs.yaml", 12, "secret/smtp[password]");
  Finding in_chart = MakeFinding("charts/web/templates/x.yaml", 5, "secret/web[key]");
  Baseline baseline{"b.json",
                    {EntryFor(gone, "r"), EntryFor(elsewhere, "r"), EntryFor(in_chart, "r")}};
  BaselineScope scope = ScopeOf({"deploy/api.yaml"});
  scope.AddDirectory("charts/web/");
  std::vector<Finding> now;
  BaselineOutcome outcome = ApplyBaseline(baseline, scope, now);
  ASSERT_EQ(outcome.stale.size(), 2u);
  EXPECT_EQ(outcome.stale[0].file, "deploy/api.yaml");
  EXPECT_EQ(outcome.stale[1].file, "charts/web/templates/x.yaml");
}

TEST(Baseline, ScopeOfDirectories) {
  BaselineScope scope;
  scope.AddDirectory("charts/web");
  EXPECT_TRUE(scope.Covers("charts/web/templates/x.yaml"));
  EXPECT_FALSE(scope.Covers("charts/web-v2/templates/x.yaml"));
  EXPECT_FALSE(scope.Covers("charts/web"));
  scope.AddDirectory(".");
  EXPECT_TRUE(scope.Covers("deploy/x.yaml"));
}

TEST(Baseline, NewBaselineKeepsReasonsAndWhatTheRunDidNotRead) {
  Finding kept = MakeFinding("deploy/api.yaml", 12, "secret/db[password]");
  Finding fixed = MakeFinding("deploy/api.yaml", 20, "secret/cache[password]");
  Finding unread = MakeFinding("deploy/jobs.yaml", 4, "secret/smtp[password]");
  Baseline previous{"b.json",
                    {EntryFor(kept, "team reason"), EntryFor(fixed, "fixed since"),
                     EntryFor(unread, "not linted today")}};
  Finding added = MakeFinding("deploy/api.yaml", 30, "secret/queue[token]");
  Finding note = MakeFinding("deploy/api.yaml", 1, "", Severity::kInfo, "not-an-object");
  Baseline written =
      NewBaseline({kept, added, note}, previous, ScopeOf({"deploy/api.yaml"}), "new.json");
  EXPECT_EQ(written.file, "new.json");
  ASSERT_EQ(written.entries.size(), 3u);
  EXPECT_EQ(written.entries[0].reference, "secret/db[password]");
  EXPECT_EQ(written.entries[0].reason, "team reason");
  EXPECT_EQ(written.entries[1].reference, "secret/queue[token]");
  EXPECT_EQ(written.entries[1].reason, kDefaultBaselineReason);
  EXPECT_EQ(written.entries[2].file, "deploy/jobs.yaml");
  EXPECT_EQ(written.entries[2].reason, "not linted today");
}

TEST(Baseline, StdinFindingsAreNamedStdin) {
  Finding finding = MakeFinding("", 3, "secret/db[password]");
  EXPECT_EQ(BaselineFile(finding), "<stdin>");
}

TEST(Baseline, StaleEntryFindingPointsAtTheEntry) {
  BaselineEntry entry = EntryFor(MakeFinding("deploy/api.yaml", 12, "secret/db[password]"), "r");
  entry.line = 17;
  Finding stale = StaleEntryFinding(entry, "ci/baseline.json");
  EXPECT_EQ(stale.rule, "stale-baseline-entry");
  EXPECT_EQ(stale.where.Compact(), "ci/baseline.json:17");
  EXPECT_THAT(stale.message, HasSubstr("unresolved-reference on Deployment shop/api, "
                                       "secret/db[password] (deploy/api.yaml)"));
}

TEST(Baseline, MalformedFilesNameTheLine) {
  EXPECT_THAT(ParseError("{\n  \"version\": 1,\n  \"entries\": [\n    {\"rule\": \"x\",,}\n"),
              HasSubstr("b.json:4:"));
  EXPECT_THAT(ParseError(""), HasSubstr("b.json:1:1: the baseline file is not JSON"));
  EXPECT_EQ(ParseError("[]"),
            "b.json:1: a baseline file is a JSON object with \"version\" and \"entries\"");
  EXPECT_EQ(ParseError("{\"entries\": []}"), "b.json:1: the baseline file has no \"version\"");
  EXPECT_EQ(ParseError("{\"version\": 1}"), "b.json:1: the baseline file has no \"entries\"");
  EXPECT_EQ(ParseError("{\n\"version\": 2,\n\"entries\": []}"),
            "b.json:2: \"version\" must be 1, the baseline version this rollcall reads");
  EXPECT_EQ(ParseError("{\n\"version\": \"1\",\n\"entries\": []}"),
            "b.json:2: \"version\" must be 1, the baseline version this rollcall reads");
  EXPECT_EQ(ParseError("{\"version\": 1,\n\"entries\": [],\n\"ignore\": true}"),
            "b.json:3: unknown key \"ignore\" (a baseline file has about, version and entries)");
  EXPECT_EQ(ParseError("{\"version\": 1, \"version\": 1, \"entries\": []}"),
            "b.json: a key is written twice");
  EXPECT_EQ(ParseError("{\"version\": 1,\n\"entries\": {}}"),
            "b.json:2: \"entries\" must be a list");
}

TEST(Baseline, MalformedEntriesNameTheirLine) {
  const std::string head = "{\n  \"version\": 1,\n  \"entries\": [\n";
  const std::string good = "    {\"rule\": \"r\", \"file\": \"f\", \"reason\": \"why\"},\n";
  EXPECT_EQ(ParseError(head + good + "    \"text\"\n  ]\n}"),
            "b.json:5: an entry must be an object");
  EXPECT_EQ(ParseError(head + good + "    {\"rule\": \"r\", \"file\": \"f\"}\n  ]\n}"),
            "b.json:5: the entry has no \"reason\": say why the finding may stay");
  EXPECT_EQ(ParseError(head + good + "    {\"rule\": \"r\", \"file\": \"f\", \"reason\": \" \"}]}"),
            "b.json:5: the entry has no \"reason\": say why the finding may stay");
  EXPECT_EQ(ParseError(head + "    {\"file\": \"f\", \"reason\": \"why\"}]}"),
            "b.json:4: the entry has no \"rule\"");
  EXPECT_EQ(ParseError(head + "    {\"rule\": \"r\", \"reason\": \"why\"}]}"),
            "b.json:4: the entry has no \"file\"");
  EXPECT_EQ(ParseError(head + "    {\"rule\": \"r\",\n     \"file\": \"f\",\n     \"line\": 12,\n"
                              "     \"reason\": \"why\"}]}"),
            "b.json:6: unknown key \"line\" in an entry (an entry has rule, file, object, "
            "reference, message, reason)");
  EXPECT_EQ(ParseError(head + "    {\"rule\": \"r\",\n     \"file\": [\"f\"],\n"
                              "     \"reason\": \"why\"}]}"),
            "b.json:5: \"file\" must be a string");
  EXPECT_EQ(ParseError(head + "    {\"rule\": \"r\", \"file\": \"f\", \"rule\": \"s\", "
                              "\"reason\": \"why\"}]}"),
            "b.json:4: the entry has a key written twice");
}

TEST(Baseline, ErrorsNeverQuoteTheFilesValues) {
  // A Secret's manifest in JSON, named as the baseline by mistake.
  const std::string secret =
      "{\"apiVersion\": \"v1\", \"kind\": \"Secret\", \"stringData\": "
      "{\"password\": \"hunter2-example\"}}";
  EXPECT_THAT(ParseError(secret), Not(HasSubstr("hunter2")));
  // Broken inside the value: nlohmann's own message would quote what it read.
  const std::string broken = "{\"password\": \"hunter2-example\\q\"}";
  std::string error = ParseError(broken);
  EXPECT_THAT(error, HasSubstr("the baseline file is not JSON"));
  EXPECT_THAT(error, Not(HasSubstr("hunter2")));
}

}  // namespace
}  // namespace rollcall
