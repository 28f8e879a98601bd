#include "rollcall/aliases.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "rollcall/alias_budget.h"
#include "test_support.h"

namespace rollcall {
namespace {

// "line:column: message" for the problem FindExcessiveAliasing finds in `text`, or "".
std::string Problem(const std::string& text, std::size_t max_depth = 512) {
  std::optional<AliasProblem> problem =
      FindExcessiveAliasing(text, testing::ParseYaml(text), max_depth);
  if (!problem) return "";
  return std::to_string(problem->mark.line + 1) + ":" + std::to_string(problem->mark.column + 1) +
         ": " + problem->message;
}

// Nine levels of ten aliases each: 10^9 nodes once expanded, from 300 bytes.
std::string BillionLaughs() {
  std::string text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 10; ++i) {
    std::string alias = "*a" + std::to_string(i - 1);
    text += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) text += (k > 0 ? ", " : "") + alias;
    text += "]\n";
  }
  return text;
}

const char kGoYamlRefuses[] =
    "invalid YAML: document contains excessive aliasing: go-yaml, which Kubernetes reads YAML "
    "with, refuses a document decoded mostly from alias expansions (past 99% of over 1,000 "
    "nodes, less for large documents)";

TEST(FindExcessiveAliasing, RefusesABillionLaughs) {
  EXPECT_EQ(Problem(BillionLaughs()), std::string("1:16: ") + kGoYamlRefuses);
}

// A mapping of 100 entries, aliased `aliases` times: go-yaml's decoder (checked with
// tests/oracle/k8sread) refuses it from 208 aliases on.
std::string AliasedMapping(int aliases) {
  std::string text = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: &b {";
  for (int i = 0; i < 100; ++i) text += (i > 0 ? ", k" : "k") + std::to_string(i) + ": v";
  text += "}\nx: [";
  for (int i = 0; i < aliases; ++i) text += i > 0 ? ", *b" : "*b";
  return text + "]\n";
}

TEST(FindExcessiveAliasing, RefusesWhatGoYamlRefusesAndNoMore) {
  EXPECT_EQ(Problem(AliasedMapping(207)), "");
  EXPECT_EQ(Problem(AliasedMapping(208)), std::string("4:681: ") + kGoYamlRefuses);
  // Nested aliases and merges count as go-yaml counts them: 71 is its limit here.
  auto nested = [](int aliases) {
    std::string text = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: &b {";
    for (int i = 0; i < 40; ++i) text += (i > 0 ? ", k" : "k") + std::to_string(i) + ": v";
    text += "}\ny: &c {inner: *b, other: [*b, *b], k: v}\nz: {<<: [*b, {q: r}], w: 1}\nx: [";
    for (int i = 0; i < aliases; ++i) text += i > 0 ? ", *c" : "*c";
    return text + "]\n";
  };
  EXPECT_EQ(Problem(nested(70)), "");
  EXPECT_NE(Problem(nested(71)), "");
}

TEST(FindExcessiveAliasing, RefusesAliasesNestedDeeperThanTheLimit) {
  std::string text = "a0: &a0 [x]\n";
  for (int i = 1; i < 20; ++i) {
    text += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [*a" + std::to_string(i - 1) +
            "]\n";
  }
  EXPECT_EQ(Problem(text, 25), "");
  EXPECT_EQ(Problem(text, 15),
            "1:10: invalid YAML: aliases nest deeper than 15 levels once expanded (or an alias "
            "contains itself)");
}

TEST(FindExcessiveAliasing, AcceptsOrdinaryAliases) {
  EXPECT_EQ(Problem("defaults: &d {cpu: 1, memory: 2}\na: *d\nb: *d\nc: [*d, *d]\n"), "");
  EXPECT_EQ(Problem("no: aliases\nstar: '*'\n"), "");
}

// Ten aliases of a five-entry mapping: 10 × (the mapping the alias names + its 10
// scalars) = 110 nodes walked inside expansions.
TEST(FindExcessiveAliasing, CountsTheNodesWalkedInExpansions) {
  const std::string text =
      "a: &m {k0: v, k1: v, k2: v, k3: v, k4: v}\nb: [*m, *m, *m, *m, *m, "
      "*m, *m, *m, *m, *m]\n";
  std::size_t expanded = 0;
  EXPECT_FALSE(FindExcessiveAliasing(text, testing::ParseYaml(text), 512, 110, &expanded));
  EXPECT_EQ(expanded, 110u);
  std::optional<AliasProblem> problem =
      FindExcessiveAliasing(text, testing::ParseYaml(text), 512, 109, &expanded);
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->message,
            "invalid YAML: aliases expand the documents of this stream, up to this one, to more "
            "than 1000000 nodes past their text; rollcall bounds a whole stream's expansions "
            "(go-yaml, which Kubernetes reads YAML with, bounds each document's)");
  // Where the node past the bound is written: the last value of the mapping aliased.
  EXPECT_EQ(problem->mark.line, 0u);
  EXPECT_EQ(problem->mark.column, 39u);
}

// What a document may expand is what those before it in the stream left, whatever
// order they report in.
TEST(StreamAliasBudget, HandsOutWhatTheDocumentsBeforeLeft) {
  StreamAliasBudget budget(100);
  EXPECT_EQ(budget.WaitForTurn(0), 100u);
  budget.Spent(2, 5);  // early: counted once 0 and 1 have reported
  budget.Spent(0, 30);
  EXPECT_EQ(budget.WaitForTurn(1), 70u);
  budget.Spent(1, 80);  // past what was left: nothing left, never below
  EXPECT_EQ(budget.WaitForTurn(3), 0u);
}

TEST(StreamAliasBudget, ADocumentWaitsForThoseBeforeIt) {
  StreamAliasBudget budget(100);
  std::optional<std::size_t> left;
  std::thread waiter([&] { left = budget.WaitForTurn(2); });
  budget.Spent(1, 10);
  budget.Spent(0, 20);
  waiter.join();
  EXPECT_EQ(left, 70u);
}

TEST(StreamAliasBudget, AFailureStopsThoseWaiting) {
  StreamAliasBudget budget(100);
  std::optional<std::size_t> left = 1;
  std::thread waiter([&] { left = budget.WaitForTurn(3); });
  budget.Failed(1);
  waiter.join();
  EXPECT_EQ(left, std::nullopt);
}

// A document refused before its turn (its text checks) must not stop one before it:
// that one's own error, or its success, comes first (found by the render fuzzer:
// EarlierDocumentFailed escaped as the stream's error).
TEST(StreamAliasBudget, AFailureAfterADocumentDoesNotStopIt) {
  StreamAliasBudget budget(100);
  budget.Failed(2);
  std::optional<std::size_t> left;
  std::thread waiter([&] { left = budget.WaitForTurn(1); });
  budget.Spent(0, 10);
  waiter.join();
  EXPECT_EQ(left, 90u);
  budget.Spent(1, 0);
  EXPECT_EQ(budget.WaitForTurn(3), std::nullopt);
}

// A turn reports once: 0 when it ends without spending, a failure when an exception
// ends it; a turn without a budget has the whole bound.
TEST(AliasBudgetTurn, ReportsOnceWhateverEndsIt) {
  StreamAliasBudget budget(100);
  { AliasBudgetTurn unread(&budget, 0); }
  {
    AliasBudgetTurn turn(&budget, 1);
    EXPECT_EQ(turn.Left(), 100u);
    turn.Spend(40);
    turn.Spend(40);  // once only
    EXPECT_EQ(turn.Left(), 0u);
  }
  EXPECT_EQ(budget.WaitForTurn(2), 60u);
  try {
    AliasBudgetTurn failing(&budget, 2);
    throw 1;
  } catch (int) {
  }
  EXPECT_THROW(AliasBudgetTurn(&budget, 3).Left(), EarlierDocumentFailed);
  EXPECT_EQ(AliasBudgetTurn(nullptr, 7).Left(), kMaxAliasExpansion);
}

}  // namespace
}  // namespace rollcall
