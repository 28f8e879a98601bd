#include "rollcall/chart_of_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace rollcall {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;

// A repository with a chart (and a subchart in its charts/), plain manifests, and a
// chart above the repository that must never be found; the test runs inside it.
class ChartOfFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    top_ = fs::temp_directory_path() /
           ("rollcall-chart-of-file-" +
            std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    repo_ = top_ / "repo";
    for (const char* file :
         {"Chart.yaml", "repo/.git/HEAD", "repo/charts/web/Chart.yaml",
          "repo/charts/web/values.yaml", "repo/charts/web/values-prod.yaml",
          "repo/charts/web/values.schema.json", "repo/charts/web/templates/deployment.yaml",
          "repo/charts/web/templates/tests/test-connection.yaml",
          "repo/charts/web/templates/_helpers.tpl", "repo/charts/web/crds/crd.yaml",
          "repo/charts/web/ci/values-ci.yaml", "repo/charts/web/charts/db/Chart.yaml",
          "repo/charts/web/charts/db/templates/db.yaml", "repo/deploy/api.yaml",
          "repo/templates/loose.yaml"}) {
      fs::create_directories((top_ / file).parent_path());
      std::ofstream(top_ / file) << "x: 1\n";
    }
    old_cwd_ = fs::current_path();
    fs::current_path(repo_);
  }
  void TearDown() override {
    fs::current_path(old_cwd_);
    fs::remove_all(top_);
  }

  fs::path top_;
  fs::path repo_;
  fs::path old_cwd_;
};

TEST_F(ChartOfFileTest, FilesHelmRendersStandForTheirChart) {
  for (const char* file :
       {"charts/web/Chart.yaml", "charts/web/values.yaml", "charts/web/values-prod.yaml",
        "charts/web/values.schema.json", "charts/web/templates/deployment.yaml",
        "charts/web/templates/tests/test-connection.yaml", "charts/web/templates/_helpers.tpl",
        "./charts/web/templates/deployment.yaml"}) {
    EXPECT_EQ(ChartOfFile(file), "charts/web") << file;
  }
  EXPECT_EQ(ChartOfFile((repo_ / "charts/web/values.yaml").string()), "charts/web");
}

TEST_F(ChartOfFileTest, OtherFilesOfAChartStayFiles) {
  EXPECT_EQ(ChartOfFile("charts/web/crds/crd.yaml"), "");
  EXPECT_EQ(ChartOfFile("charts/web/ci/values-ci.yaml"), "");
  EXPECT_EQ(ChartOfFile("deploy/api.yaml"), "");
}

TEST_F(ChartOfFileTest, ASubchartStandsForItsParent) {
  EXPECT_EQ(ChartOfFile("charts/web/charts/db/templates/db.yaml"), "charts/web");
  EXPECT_EQ(ChartOfFile("charts/web/charts/db/Chart.yaml"), "charts/web");
}

TEST_F(ChartOfFileTest, NeverAboveTheWorkTreeOrTheWorkingDirectory) {
  // top_/Chart.yaml is above the repository's .git: templates/loose.yaml is not its.
  EXPECT_EQ(ChartOfFile("templates/loose.yaml"), "");
  // From inside the chart's templates/, the chart is above the working directory.
  fs::current_path(repo_ / "charts/web/templates");
  EXPECT_EQ(ChartOfFile("deployment.yaml"), "");
}

TEST_F(ChartOfFileTest, TheChartAtTheWorkingDirectory) {
  fs::current_path(repo_ / "charts/web");
  EXPECT_EQ(ChartOfFile("templates/deployment.yaml"), ".");
  EXPECT_EQ(ChartOfFile("values.yaml"), ".");
}

TEST_F(ChartOfFileTest, EachChartOnceWhereItsFirstFileWas) {
  EXPECT_THAT(ChartsOfFiles({"deploy/api.yaml", "charts/web/values.yaml", "-",
                             "charts/web/templates/deployment.yaml", "charts/web/",
                             "charts/web/crds/crd.yaml", "charts/web/charts/db/Chart.yaml"}),
              ElementsAre("deploy/api.yaml", "charts/web", "-", "charts/web/crds/crd.yaml"));
  EXPECT_THAT(ChartsOfFiles({"charts/web", "charts/web/Chart.yaml", "deploy"}),
              ElementsAre("charts/web", "deploy"));
}

}  // namespace
}  // namespace rollcall
