// Reading a file named by a path (regular_file.h): read whole, however it compares
// with the growing buffer's first mapping, held to its limit while it is read.
#include "rollcall/regular_file.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "rollcall/input_error.h"
#include "test_support.h"

namespace rollcall {
namespace {

// The error ReadRegularFileBytes throws, or "" when it reads the file.
std::string ErrorOf(const std::string& path, const RegularFileRead& how) {
  try {
    ReadRegularFileBytes(path, "f.yaml", how);
  } catch (const InputError& error) {
    return error.where().Compact() + ": " + error.what();
  }
  return "";
}

// `n` bytes of comment lines, each numbered: a page read twice or out of place shows.
std::string CommentLines(std::size_t n) {
  std::string text;
  for (std::size_t line = 0; text.size() < n; ++line) text += "# " + std::to_string(line) + "\n";
  text.resize(n);
  return text;
}

TEST(RegularFile, ReadsAFileWholeAtEverySizeAroundItsBuffersFirstMapping) {
  for (std::size_t size :
       {std::size_t{0}, std::size_t{1}, std::size_t{65536}, (std::size_t{1} << 20) - 1,
        std::size_t{1} << 20, (std::size_t{1} << 20) + 1, (std::size_t{3} << 20) + 5}) {
    const std::string text = CommentLines(size);
    const std::string path = testing::TempFile(text);
    InputBytes bytes = ReadRegularFileBytes(path, "f.yaml", RegularFileRead::Input("", size));
    EXPECT_TRUE(bytes.view() == text) << size;
    EXPECT_TRUE(ReadRegularFile(path, "f.yaml", RegularFileRead::Input("", size)) == text) << size;
    std::remove(path.c_str());
  }
}

TEST(RegularFile, AFileOfExactlyTheLimitIsReadAndOneByteMoreIsNot) {
  const std::string path = testing::TempFile(CommentLines(1000));
  EXPECT_EQ(ErrorOf(path, RegularFileRead::Input("", 1000)), "");
  EXPECT_EQ(ErrorOf(path, RegularFileRead::Input("", 999)),
            "f.yaml: input is larger than the limit of 999 bytes (--max-input-bytes)");
  EXPECT_EQ(ErrorOf(path, RegularFileRead::Input("the state file", 10)),
            "f.yaml: the state file is larger than the limit of 10 bytes (--max-input-bytes)");
  std::remove(path.c_str());
}

// /proc's files say they hold 0 bytes: the size fstat gives is never what is read.
TEST(RegularFile, ReadsAFileWhoseSizeSaysNothing) {
  InputBytes bytes =
      ReadRegularFileBytes("/proc/self/status", "status", RegularFileRead::Input("", 1 << 20));
  EXPECT_NE(bytes.view().find("\nPid:"), std::string_view::npos);
}

TEST(RegularFile, RefusesWhatIsNoRegularFile) {
  EXPECT_EQ(ErrorOf("/tmp", RegularFileRead::Input("", 1000)),
            "f.yaml: is a directory, not a regular file");
}

}  // namespace
}  // namespace rollcall
