#include "rollcall/aliases.h"

#include <gtest/gtest.h>

#include <string>

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

}  // namespace
}  // namespace rollcall
