// Plain Jobs: renamed after their pod template by default, kept or run once on request.
#include "rollcall/jobs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "rollcall/input_error.h"
#include "rollcall/render.h"
#include "test_support.h"

namespace rollcall {
namespace {

using ::testing::HasSubstr;
using testing::RenderText;

std::string Secret(const std::string& value) {
  return "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\nstringData: {url: " + value +
         "}\n---\n";
}

std::string Job(const std::string& name, const std::string& annotations = "",
                const std::string& image = "migrate:1") {
  return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: " + name + "\n" +
         (annotations.empty() ? "" : "  annotations: {" + annotations + "}\n") +
         "spec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n"
         "      - name: migrate\n        image: " +
         image +
         "\n        env:\n        - name: DB\n"
         "          valueFrom: {secretKeyRef: {name: db, key: url}}\n";
}

std::string NameOf(const std::string& yaml) {
  for (const YamlNode& doc : testing::ParseYamlAll(yaml)) {
    if (ScalarOr(Child(doc, "kind")) == "Job") {
      return ScalarOr(Child(Child(doc, "metadata"), "name"));
    }
  }
  return "";
}

TEST(RenamedJobName, AppendsTheDigestWithinSixtyThreeCharacters) {
  EXPECT_EQ(RenamedJobName("migrate", "0123abcd"), "migrate-0123abcd");
  std::string long_name(70, 'a');
  EXPECT_EQ(RenamedJobName(long_name, "0123abcd"), std::string(54, 'a') + "-0123abcd");
  EXPECT_EQ(RenamedJobName(std::string(53, 'a') + "-b", "0123abcd"),
            std::string(53, 'a') + "-0123abcd");
}

TEST(JobRename, IsTheDefaultAndStableAcrossRuns) {
  std::string stream = Secret("one") + Job("migrate");
  RenderResult first = RenderText(stream);
  EXPECT_THAT(NameOf(first.output), ::testing::MatchesRegex("migrate-[0-9a-f]{8}"));
  EXPECT_THAT(first.output, HasSubstr("  annotations:\n    rollcall.dev/job-name: \"migrate\"\n"
                                      "  name: migrate-"));
  EXPECT_EQ(RenderText(first.output).output, first.output);
  EXPECT_EQ(NameOf(RenderText(stream).output), NameOf(first.output));
  EXPECT_EQ(first.summary.Line(),
            "references: 1 \u2014 hashed 1, waived 0, pending 0, runtime 0, unresolved 0");
}

TEST(JobRename, AnyTemplateOrSecretChangeGivesANewName) {
  std::string base = NameOf(RenderText(Secret("one") + Job("migrate")).output);
  EXPECT_NE(NameOf(RenderText(Secret("two") + Job("migrate")).output), base);
  EXPECT_NE(NameOf(RenderText(Secret("one") + Job("migrate", "", "migrate:2")).output), base);
  // Formatting, comments and key order are not changes.
  std::string reformatted = Secret("one") + Job("migrate");
  reformatted.replace(reformatted.find("      restartPolicy: Never\n"), 26,
                      "      # retries are the migration's own business\n"
                      "      restartPolicy: \"Never\"\n");
  EXPECT_NE(NameOf(RenderText(reformatted).output), base)
      << "a quoted scalar is a different scalar to the canonical encoding";
  std::string reordered = Secret("one") + Job("migrate");
  reordered.replace(reordered.find("      restartPolicy: Never\n"), 26, "");
  reordered.replace(reordered.find("      - name: migrate\n"), 0, "");
  reordered += "      restartPolicy: Never\n";
  EXPECT_EQ(NameOf(RenderText(reordered).output), base);
}

TEST(JobRename, AnnotationAndPolicyChooseKeep) {
  std::string stream = Secret("one") + Job("migrate", "rollcall.dev/job-policy: keep");
  EXPECT_EQ(RenderText(stream).output, stream);
  RenderOptions keep;
  keep.jobs.policy = JobPolicy::kKeep;
  EXPECT_EQ(RenderText(Secret("one") + Job("migrate"), keep).output,
            Secret("one") + Job("migrate"));
  std::string renamed = Secret("one") + Job("migrate", "rollcall.dev/job-policy: rename");
  EXPECT_NE(NameOf(RenderText(renamed, keep).output), "migrate");
  try {
    RenderText(Secret("one") + Job("migrate", "rollcall.dev/job-policy: maybe"));
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.Describe(),
              "<stdin> (document 2, line 10, column 42): Job default/migrate: "
              "rollcall.dev/job-policy must be \"rename\" or \"keep\", not \"maybe\"");
  }
}

TEST(JobRunOnce, IsNeverRenamedNorAnnotated) {
  std::string annotated = Secret("one") + Job("boot", "rollcall.dev/run-once: \"true\"");
  RenderResult result = RenderText(annotated);
  EXPECT_EQ(result.output, annotated);
  EXPECT_EQ(result.summary.Line(),
            "references: 1 \u2014 hashed 0, waived 1, pending 0, runtime 0, unresolved 0");
  RenderOptions pattern;
  pattern.jobs.run_once_patterns = {"-boot-[0-9a-f]{8}$"};
  std::string named = Secret("one") + Job("edge-boot-1a2b3c4d");
  EXPECT_EQ(RenderText(named, pattern).output, named);
  pattern.jobs.run_once_patterns = {"("};
  EXPECT_THROW(RenderText(named, pattern), InputError);
}

}  // namespace
}  // namespace rollcall
