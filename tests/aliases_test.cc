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

TEST(FindExcessiveAliasing, RefusesABillionLaughs) {
  std::string text = BillionLaughs();
  EXPECT_EQ(Problem(text), "1:22: invalid YAML: aliases expand this document to more than " +
                               std::to_string(text.size() + kMaxAliasExpansion) +
                               " nodes; Kubernetes refuses such excessive aliasing too");
}

TEST(FindExcessiveAliasing, RefusesAliasesNestedDeeperThanTheLimit) {
  std::string text = "a0: &a0 [x]\n";
  for (int i = 1; i < 20; ++i) {
    text += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [*a" + std::to_string(i - 1) +
            "]\n";
  }
  EXPECT_EQ(Problem(text, 25), "");
  EXPECT_EQ(Problem(text, 15),
            "6:5: invalid YAML: aliases nest deeper than 15 levels once expanded (or an alias "
            "contains itself)");
}

TEST(FindExcessiveAliasing, AcceptsOrdinaryAliases) {
  EXPECT_EQ(Problem("defaults: &d {cpu: 1, memory: 2}\na: *d\nb: *d\nc: [*d, *d]\n"), "");
  EXPECT_EQ(Problem("no: aliases\nstar: '*'\n"), "");
}

}  // namespace
}  // namespace rollcall
