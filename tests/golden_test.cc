// Golden tests: every folder under testdata/render/ holds input.yaml and the
// expected result, read by a person. Optional files: `args` (one line of extra
// arguments), `expected.stderr` (exact), `exit-code` (default 0). A case with a
// non-zero exit code must leave stdout empty.
#include <gtest/gtest.h>

#include <sstream>

#include "test_support.h"

namespace rollcall {
namespace {

using testing::FileExists;
using testing::GoldenCaseName;
using testing::GoldenCases;
using testing::ReadFile;
using testing::RollcallBinary;
using testing::RunProcess;
using testing::TestdataPath;

std::vector<std::string> Command(const std::string& dir) {
  std::vector<std::string> argv = {RollcallBinary(), "render"};
  if (FileExists(dir + "/args")) {
    std::istringstream words(ReadFile(dir + "/args"));
    for (std::string word; words >> word;) argv.push_back(word);
  }
  return argv;
}

// Cases without `args` must not depend on the caller's Helm environment.
const std::vector<std::string> kEnv = {"HELM_NAMESPACE="};

class Golden : public ::testing::TestWithParam<std::string> {};

TEST_P(Golden, MatchesExpectedOutput) {
  std::string dir = TestdataPath("render/" + GetParam());
  int expected_exit = FileExists(dir + "/exit-code") ? std::stoi(ReadFile(dir + "/exit-code")) : 0;
  testing::ProcessResult result = RunProcess(Command(dir), ReadFile(dir + "/input.yaml"), kEnv);
  EXPECT_EQ(result.exit_code, expected_exit) << result.err;
  if (expected_exit == 0) {
    EXPECT_EQ(result.out, ReadFile(dir + "/expected.yaml"));
  } else {
    EXPECT_EQ(result.out, "") << "an error must leave stdout empty";
  }
  if (FileExists(dir + "/expected.stderr")) {
    EXPECT_EQ(result.err, ReadFile(dir + "/expected.stderr"));
  }
}

TEST_P(Golden, RenderingTheOutputAgainChangesNothing) {
  std::string dir = TestdataPath("render/" + GetParam());
  if (!FileExists(dir + "/expected.yaml")) GTEST_SKIP() << "error case";
  std::string expected = ReadFile(dir + "/expected.yaml");
  testing::ProcessResult again = RunProcess(Command(dir), expected, kEnv);
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, expected);
}

std::string CaseName(const ::testing::TestParamInfo<std::string>& info) {
  return GoldenCaseName(info.param);
}

INSTANTIATE_TEST_SUITE_P(Render, Golden, ::testing::ValuesIn(GoldenCases("render", "input.yaml")),
                         CaseName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Golden);

TEST(GoldenCases, AreThere) { EXPECT_GE(GoldenCases("render", "input.yaml").size(), 10u); }

}  // namespace
}  // namespace rollcall
