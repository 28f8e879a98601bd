// RunProgram: another program run without a shell, its output bounded, its stdin fed.
#include "rollcall/process.h"

#include <gtest/gtest.h>

#include <string>

#include "rollcall/input_error.h"

namespace rollcall {
namespace {

// More than a pipe holds (64 KiB), so that feeding and reading must interleave.
std::string Megabyte() {
  std::string text;
  for (int i = 0; text.size() < (std::size_t{1} << 20); ++i) text += std::to_string(i) + "\n";
  return text;
}

TEST(RunProgram, FeedsStdinWhileReadingStdout) {
  std::string input = Megabyte();
  ProcessOutput got = RunProgram({"/bin/cat"}, std::size_t{4} << 20, "cat", input);
  EXPECT_EQ(got.exit_code, 0);
  EXPECT_EQ(got.out, input);
}

TEST(RunProgram, AProgramThatReadsNoInputEndsTheFeedingNotTheCaller) {
  ProcessOutput got = RunProgram({"/bin/true"}, 1024, "true", Megabyte());
  EXPECT_EQ(got.exit_code, 0);
  EXPECT_EQ(got.out, "");
}

TEST(RunProgram, WithoutInputStdinIsEmpty) {
  ProcessOutput got = RunProgram({"/bin/cat"}, 1024, "cat");
  EXPECT_EQ(got.exit_code, 0);
  EXPECT_EQ(got.out, "");
}

TEST(RunProgram, OutputPastTheLimitStopsTheProgram) {
  EXPECT_THROW(RunProgram({"/bin/cat"}, 1000, "cat", Megabyte()), InputError);
}

// A refusal of the API server for want of a right says where the Roles rollcall needs
// are listed (tests/cluster/rbac.sh sees it from a real API server); any other failure
// is kubectl's words alone.
TEST(KubectlFailure, AForbiddenCallPointsToTheRolesRollcallNeeds) {
  ProcessOutput got;
  got.exit_code = 1;
  got.err =
      "Error from server (Forbidden): secrets \"db\" is forbidden: User \"ci\" cannot get "
      "resource \"secrets\" in API group \"\" in the namespace \"shop\"\n";
  EXPECT_EQ(KubectlFailure(got),
            "kubectl failed (exit 1): Error from server (Forbidden): secrets \"db\" is forbidden: "
            "User \"ci\" cannot get resource \"secrets\" in API group \"\" in the namespace "
            "\"shop\" (the rights rollcall needs, as Roles: docs/security.md, \"The rights "
            "rollcall needs in a cluster\")");
  got.err = "error: You must be logged in to the server (Unauthorized)\n";
  EXPECT_EQ(KubectlFailure(got),
            "kubectl failed (exit 1): error: You must be logged in to the server (Unauthorized)");
}

}  // namespace
}  // namespace rollcall
