// Golden tests: every folder under testdata/render/ holds input.yaml and the
// expected result, read by a person. Optional files: `args` (one line of extra
// arguments), `expected.stderr` (exact), `exit-code` (default 0). A case with a
// non-zero exit code must leave stdout empty.
#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <sstream>

#include "test_support.h"

namespace rollcall {
namespace {

using testing::ReadFile;
using testing::RollcallBinary;
using testing::RunProcess;
using testing::TestdataPath;

bool Exists(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0;
}

std::vector<std::string> Cases() {
  std::vector<std::string> cases;
  std::string root = TestdataPath("render");
  DIR* dir = opendir(root.c_str());
  if (dir == nullptr) return cases;
  while (dirent* entry = readdir(dir)) {
    std::string name = entry->d_name;
    if (name[0] != '.' && Exists(root + "/" + name + "/input.yaml")) cases.push_back(name);
  }
  closedir(dir);
  std::sort(cases.begin(), cases.end());
  return cases;
}

std::vector<std::string> Command(const std::string& dir) {
  std::vector<std::string> argv = {RollcallBinary(), "render"};
  if (Exists(dir + "/args")) {
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
  int expected_exit = Exists(dir + "/exit-code") ? std::stoi(ReadFile(dir + "/exit-code")) : 0;
  testing::ProcessResult result = RunProcess(Command(dir), ReadFile(dir + "/input.yaml"), kEnv);
  EXPECT_EQ(result.exit_code, expected_exit) << result.err;
  if (expected_exit == 0) {
    EXPECT_EQ(result.out, ReadFile(dir + "/expected.yaml"));
  } else {
    EXPECT_EQ(result.out, "") << "an error must leave stdout empty";
  }
  if (Exists(dir + "/expected.stderr")) {
    EXPECT_EQ(result.err, ReadFile(dir + "/expected.stderr"));
  }
}

TEST_P(Golden, RenderingTheOutputAgainChangesNothing) {
  std::string dir = TestdataPath("render/" + GetParam());
  if (!Exists(dir + "/expected.yaml")) GTEST_SKIP() << "error case";
  std::string expected = ReadFile(dir + "/expected.yaml");
  testing::ProcessResult again = RunProcess(Command(dir), expected, kEnv);
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, expected);
}

std::string CaseName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  std::replace_if(
      name.begin(), name.end(), [](char c) { return !std::isalnum(c); }, '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Render, Golden, ::testing::ValuesIn(Cases()), CaseName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Golden);

TEST(GoldenCases, AreThere) { EXPECT_GE(Cases().size(), 10u); }

}  // namespace
}  // namespace rollcall
