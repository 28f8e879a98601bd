// Sources from outside the input (--state): the nine platform consumers read a
// Secret no manifest defines; a state file gives its content.
#include "rollcall/state.h"

#include <dirent.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "rollcall/input_error.h"
#include "rollcall/render.h"
#include "test_support.h"

namespace rollcall {
namespace {

using testing::ReadFile;
using testing::TestdataPath;

// The nine platform manifests as one stream, in file order.
std::string PlatformStream() {
  std::string dir = TestdataPath("lint/platform");
  std::vector<std::string> files;
  DIR* handle = opendir(dir.c_str());
  while (dirent* entry = readdir(handle)) {
    std::string name = entry->d_name;
    if (name.size() > 5 && name.substr(name.size() - 5) == ".yaml") files.push_back(name);
  }
  closedir(handle);
  std::sort(files.begin(), files.end());
  std::string stream;
  for (const std::string& file : files) stream += "---\n" + ReadFile(dir + "/" + file);
  return stream;
}

// Consumer name → its config hash, for every consumer of the rendered stream.
std::map<std::string, std::string> Hashes(const std::string& state_file) {
  RenderOptions options;
  options.default_namespace = "platform";
  options.state = LoadStateFile(TestdataPath("state/" + state_file), "platform", Limits{});
  std::string out = testing::RenderText(PlatformStream(), options).output;
  std::map<std::string, std::string> hashes;
  for (const YamlNode& doc : testing::ParseYamlAll(out)) {
    std::string name = ScalarOr(Child(Child(doc, "metadata"), "name"));
    std::string hash = testing::TemplateAnnotation(out, name);
    if (!hash.empty()) hashes[name] = hash;
  }
  return hashes;
}

TEST(LoadStateFile, ReadsTheItemsOfAList) {
  std::vector<Source> sources =
      LoadStateFile(TestdataPath("state/platform-secrets-before.yaml"), "default", Limits{});
  ASSERT_EQ(sources.size(), 1u);
  EXPECT_EQ(sources[0].id.Describe(), "Secret platform/platform-secrets");
  EXPECT_EQ(sources[0].entries.size(), 7u);
  EXPECT_EQ(sources[0].entries.at("session-secret"), "example-session-0007");
}

// Under Helm 3, helm rollcall gives the hooks as a state file: a Secret a hook Job
// there creates is recognised as under Helm 4 (hook-generated-source, waived), not
// reported as unresolved, and a hook Secret there is hashed.
TEST(ReadStateFile, AHookJobOfTheStateNamesTheSecretItCreates) {
  StateFile state = ReadStateFile(TestdataPath("state/setup-hook.yaml"), "auth", Limits{});
  ASSERT_EQ(state.sources.size(), 1u);
  EXPECT_EQ(state.sources[0].id.Describe(), "Secret auth/masterkey");
  const std::string input =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: login}\nspec:\n  template:\n"
      "    spec:\n      containers:\n      - name: login\n"
      "        env: [{name: KEY, valueFrom: {secretKeyRef: {name: masterkey, key: masterkey}}}]\n"
      "        volumeMounts: [{name: client, mountPath: /client}]\n"
      "      volumes: [{name: client, secret: {secretName: login-client}}]\n";
  RenderOptions options;
  options.default_namespace = "auth";
  options.state = state.sources;
  RenderResult without = testing::RenderText(input, options);
  options.state_hook_words = state.hook_words;
  RenderResult with = testing::RenderText(input, options);
  EXPECT_EQ(without.summary.Line(),
            "references: 2 \u2014 hashed 1, waived 0, pending 0, runtime 0, unresolved 1");
  EXPECT_EQ(with.summary.Line(),
            "references: 2 \u2014 hashed 1, waived 1, pending 0, runtime 0, unresolved 0");
  ASSERT_EQ(with.findings.size(), 1u);
  EXPECT_EQ(with.findings[0].rule, "hook-generated-source");
  EXPECT_THAT(with.findings[0].message,
              ::testing::HasSubstr("created at install time by the hook Job auth/auth-setup"));
  EXPECT_EQ(with.output, without.output);  // the hash is the same either way
}

TEST(LoadStateFile, NamesTheFileWhenItCannotBeRead) {
  try {
    LoadStateFile("/nonexistent/state.yaml", "default", Limits{});
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.Describe(),
              "/nonexistent/state.yaml: cannot read the state file: No such file or directory");
  }
}

TEST(RenderWithState, HashesEveryConsumerAndOnlyTheReadersOfAChangedKeyMove) {
  std::map<std::string, std::string> before = Hashes("platform-secrets-before.yaml");
  std::map<std::string, std::string> after = Hashes("platform-secrets-after.yaml");
  EXPECT_EQ(before.size(), 9u) << "all nine consumers hashed";
  std::vector<std::string> moved;
  for (const auto& [name, hash] : before) {
    if (after.at(name) != hash) moved.push_back(name);
  }
  // Only rabbitmq-password changed: the broker and the one service that reads it.
  EXPECT_THAT(moved, ::testing::UnorderedElementsAreArray(
                         std::vector<std::string>{"rabbitmq", "order-service"}));
}

TEST(RenderWithState, NoValueFromTheStateReachesTheOutputOrTheFindings) {
  RenderOptions options;
  options.default_namespace = "platform";
  options.state =
      LoadStateFile(TestdataPath("state/platform-secrets-before.yaml"), "platform", Limits{});
  RenderResult result = testing::RenderText(PlatformStream(), options);
  for (const auto& [key, value] : options.state[0].entries) {
    EXPECT_EQ(result.output.find(value), std::string::npos) << key;
    for (const Finding& finding : result.findings) {
      EXPECT_EQ(FormatFinding(finding).find(value), std::string::npos) << key;
    }
  }
}

TEST(RenderWithState, TheInputWinsOverTheState) {
  Model model;
  Source input;
  input.id = {SourceKind::kSecret, "ns", "s"};
  input.entries = std::map<std::string, std::string>{{"k", "from the input"}};
  model.sources.Add({input}, SourceTable::OnSameId::kReplace);
  Source state = input;
  state.entries = std::map<std::string, std::string>{{"k", "from the cluster"}};
  EXPECT_EQ(AddStateSources(model, {state}), 0u);
  EXPECT_EQ(model.sources.Find(input.id)->entries.at("k"), "from the input");
}

}  // namespace
}  // namespace rollcall
