// Findings equal in every field are one finding.
#include "rollcall/finding.h"

#include <gtest/gtest.h>

#include <vector>

namespace rollcall {
namespace {

Finding At(std::size_t line, const std::string& message) {
  Finding finding;
  finding.rule = "unresolved-reference";
  finding.where = Location("a.yaml", 1, line, 5);
  finding.message = message;
  return finding;
}

TEST(DropRepeatedFindings, KeepsTheFirstOfEachInOrder) {
  std::vector<Finding> findings = {At(9, "b"), At(3, "a"), At(9, "b"),
                                   At(3, "a"), At(3, "c"), At(9, "b")};
  DropRepeatedFindings(findings);
  ASSERT_EQ(findings.size(), 3u);
  EXPECT_EQ(findings[0].where.line, 9u);
  EXPECT_EQ(findings[1].message, "a");
  EXPECT_EQ(findings[2].message, "c");
}

TEST(DropRepeatedFindings, AnyFieldThatDiffersKeepsBoth) {
  Finding other_object = At(3, "a");
  other_object.object = "Deployment default/w";
  Finding other_rule = At(3, "a");
  other_rule.rule = "pending-marker";
  Finding other_column = At(3, "a");
  other_column.where.column = 6;
  std::vector<Finding> findings = {At(3, "a"), other_object, other_rule, other_column};
  DropRepeatedFindings(findings);
  EXPECT_EQ(findings.size(), 4u);
}

}  // namespace
}  // namespace rollcall
