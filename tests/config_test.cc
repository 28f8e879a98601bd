#include "rollcall/config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "rollcall/input_error.h"

namespace rollcall {
namespace {

namespace fs = std::filesystem;

class ConfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("rollcall-config-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_ / "a" / "b");
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Write(const std::string& relative, const std::string& text) {
    std::ofstream(dir_ / relative) << text;
    return (dir_ / relative).string();
  }
  std::string Error(const std::string& text) {
    try {
      LoadConfig(Write(".rollcall.yaml", text));
    } catch (const InputError& e) {
      return e.Describe();
    }
    return "";
  }
  fs::path dir_;
};

TEST_F(ConfigTest, ReadsEverySetting) {
  Config config = LoadConfig(Write(".rollcall.yaml",
                                   "rules:\n  unresolved-reference: warning\n  bare-pod: off\n"
                                   "runtimeSources: [secret/gw-tls, shared-ca]\n"
                                   "consumerKinds:\n"
                                   "  - {kind: Workflow, apiGroup: argoproj.io, path: spec.pod}\n"
                                   "runOnce: ['-boot-[0-9a-f]{8}$']\n"));
  EXPECT_EQ(config.severities.at("unresolved-reference"), Severity::kWarning);
  EXPECT_EQ(config.severities.at("bare-pod"), std::nullopt);
  EXPECT_THAT(config.runtime_sources, ::testing::ElementsAre("secret/gw-tls", "shared-ca"));
  ASSERT_EQ(config.consumer_kinds.size(), 1u);
  EXPECT_EQ(config.consumer_kinds[0].kind, "Workflow");
  EXPECT_THAT(config.consumer_kinds[0].path, ::testing::ElementsAre("spec", "pod"));
  EXPECT_THAT(config.run_once_patterns, ::testing::ElementsAre("-boot-[0-9a-f]{8}$"));
}

TEST_F(ConfigTest, RejectsWhatItDoesNotUnderstand) {
  // Each points at the key or value and quotes neither: --config may name any file.
  EXPECT_THAT(Error("rules:\n  no-such-rule: error\n"),
              ::testing::EndsWith(".rollcall.yaml (line 2, column 3): no rule has this id "
                                  "(rollcall rules lists them)"));
  EXPECT_THAT(Error("rules: {bare-pod: loud}\n"),
              ::testing::EndsWith("(line 1, column 19): a severity must be error, warning, info "
                                  "or off"));
  EXPECT_THAT(Error("runtimeSource: [x]\n"),
              ::testing::EndsWith("(line 1, column 1): not a setting rollcall knows (rules, "
                                  "runtimeSources, consumerKinds, runOnce)"));
  EXPECT_THAT(Error("password: hunter2\n"), ::testing::Not(::testing::HasSubstr("password")));
  EXPECT_THAT(Error("rules: {bare-pod: hunter2}\n"),
              ::testing::Not(::testing::HasSubstr("hunter2")));
  EXPECT_THAT(Error("consumerKinds: [{kind: X}]\n"),
              ::testing::EndsWith("a consumer kind needs kind and path (apiGroup: \"\" for core)"));
  EXPECT_THAT(Error("rules: [\n"), ::testing::HasSubstr("invalid YAML"));
}

// A repository's config adds kinds; it cannot redefine a built-in one (a wrong path
// there hid every Deployment from every rule), nor list thousands.
TEST_F(ConfigTest, ConsumerKindsOnlyAddKindsAndAreBounded) {
  EXPECT_THAT(Error("consumerKinds:\n  - {kind: Deployment, apiGroup: apps, path: spec.nothing}\n"),
              ::testing::EndsWith("(line 2, column 5): this entry would replace the built-in "
                                  "kind Deployment (apps), whose pod template rollcall already "
                                  "reads; consumerKinds only adds kinds"));
  EXPECT_THAT(Error("consumerKinds: [{kind: Pod, apiGroup: '*', path: spec}]\n"),
              ::testing::HasSubstr("the built-in kind Pod (core group)"));
  // Another group's Deployment is another kind.
  EXPECT_EQ(Error("consumerKinds: [{kind: Deployment, apiGroup: example.com, path: spec.t}]\n"),
            "");
  std::string many = "consumerKinds:\n";
  for (int i = 0; i < 257; ++i) many += "  - {kind: K" + std::to_string(i) + ", path: spec}\n";
  EXPECT_THAT(Error(many), ::testing::EndsWith("(line 2, column 3): more than 256 consumerKinds "
                                               "entries"));
}

TEST_F(ConfigTest, FoundUpwardFromTheStartToTheWorkTreeRoot) {
  fs::create_directory(dir_ / "a" / ".git");
  EXPECT_EQ(FindConfigFile((dir_ / "a" / "b").string()), "");
  std::string path = Write("a/.rollcall.yaml", "");
  EXPECT_EQ(FindConfigFile((dir_ / "a" / "b").string()), path);
  EXPECT_TRUE(LoadConfig(path).severities.empty());
  ConfigSearch search = SearchConfigFile((dir_ / "a" / "b" / "").string());
  EXPECT_EQ(search.found, path);
  EXPECT_EQ(search.start, (dir_ / "a" / "b").string());
  EXPECT_EQ(search.work_tree, (dir_ / "a").string());
}

TEST_F(ConfigTest, NotFoundAboveTheWorkTreeRoot) {
  Write(".rollcall.yaml", "");
  Write("a/.git", "gitdir: /elsewhere\n");  // a linked work tree or a submodule
  EXPECT_EQ(FindConfigFile((dir_ / "a" / "b").string()), "");
  EXPECT_EQ(SearchConfigFile((dir_ / "a" / "b").string()).work_tree, (dir_ / "a").string());
}

TEST_F(ConfigTest, OutsideAWorkTreeOnlyTheStartIsSearched) {
  Write("a/.rollcall.yaml", "");
  ConfigSearch search = SearchConfigFile((dir_ / "a" / "b").string());
  EXPECT_EQ(search.found, "");
  EXPECT_EQ(search.work_tree, "");
  EXPECT_EQ(FindConfigFile((dir_ / "a").string()), (dir_ / "a" / ".rollcall.yaml").string());
}

TEST_F(ConfigTest, AnEntryOfAnyTypeIsFoundAndRefusedWhenRead) {
  fs::create_directory(dir_ / ".git");
  fs::create_directory(dir_ / "a" / ".rollcall.yaml");
  std::string path = (dir_ / "a" / ".rollcall.yaml").string();
  EXPECT_EQ(FindConfigFile((dir_ / "a" / "b").string()), path);
  try {
    LoadConfig(path);
    ADD_FAILURE() << "a directory was read as a config";
  } catch (const InputError& e) {
    EXPECT_EQ(e.Describe(), path + ": the config file is a directory, not a regular file");
  }
}

}  // namespace
}  // namespace rollcall
