#include "rollcall/input_bytes.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "rollcall/input_error.h"
#include "rollcall/inputs.h"

namespace rollcall {
namespace {

// `n` bytes that differ from run to run, so a page written twice or moved wrongly
// shows in the comparison.
std::string Pattern(std::size_t n) {
  std::string text(n, '\0');
  for (std::size_t i = 0; i < n; ++i) text[i] = static_cast<char>('a' + (i * 7 + i / 4093) % 26);
  return text;
}

// Writes `text` through Room() and Wrote() `chunk` bytes at a time.
void WriteInChunks(InputBytes& bytes, const std::string& text, std::size_t chunk) {
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t n = std::min(chunk, text.size() - at);
    std::copy_n(text.data() + at, n, bytes.Room(n));
    bytes.Wrote(n);
    at += n;
  }
}

TEST(InputBytesTest, TextIsViewedAsItIs) {
  InputBytes bytes(std::string("kind: Secret\n"));
  EXPECT_EQ(bytes.view(), "kind: Secret\n");
  EXPECT_EQ(bytes.size(), 13U);
}

TEST(InputBytesTest, GrowableStartsEmptyWithItsLimitAsRoom) {
  InputBytes bytes = InputBytes::Growable(100);
  EXPECT_EQ(bytes.view(), "");
  EXPECT_EQ(bytes.room(), 100U);
}

// 3 MiB and a few bytes: past the first mapping (1 MiB), so the buffer is moved
// by mremap twice, written in runs that do not fall on page boundaries.
TEST(InputBytesTest, GrowsPastItsFirstMappingKeepingWhatWasWritten) {
  const std::string text = Pattern((std::size_t{3} << 20) + 5);
  InputBytes bytes = InputBytes::Growable(text.size() + 1);
  WriteInChunks(bytes, text, 70001);
  bytes.Trim();
  EXPECT_EQ(bytes.size(), text.size());
  EXPECT_TRUE(bytes.view() == text);
  EXPECT_EQ(bytes.room(), 1U);
}

TEST(InputBytesTest, RoomIsNeverMoreThanTheLimit) {
  InputBytes bytes = InputBytes::Growable(10);
  WriteInChunks(bytes, "0123456789", 4);
  EXPECT_EQ(bytes.room(), 0U);
  EXPECT_EQ(bytes.view(), "0123456789");
}

TEST(InputBytesTest, TrimKeepsTheBytesWritten) {
  InputBytes bytes = InputBytes::Growable(std::size_t{4} << 20);
  char* room = bytes.Room(std::size_t{2} << 20);  // made present, mostly left unused
  std::copy_n("apiVersion: v1\n", 15, room);
  bytes.Wrote(15);
  bytes.Trim();
  EXPECT_EQ(bytes.view(), "apiVersion: v1\n");
  // Writing may go on after Trim: the pages given back are made present again.
  WriteInChunks(bytes, std::string(8192, 'x'), 8192);
  EXPECT_EQ(bytes.view(), "apiVersion: v1\n" + std::string(8192, 'x'));
}

TEST(InputBytesTest, MovingHandsOverTheBytes) {
  InputBytes bytes = InputBytes::Growable(64);
  WriteInChunks(bytes, "data: x\n", 8);
  InputBytes moved(std::move(bytes));
  EXPECT_EQ(moved.view(), "data: x\n");
  EXPECT_EQ(bytes.view(), "");  // NOLINT(bugprone-use-after-move): moved from, empty

  InputBytes assigned(std::string("replaced"));
  assigned = std::move(moved);
  EXPECT_EQ(assigned.view(), "data: x\n");
  EXPECT_EQ(moved.view(), "");  // NOLINT(bugprone-use-after-move)

  InputBytes text(std::string("kind: ConfigMap\n"));
  assigned = std::move(text);
  EXPECT_EQ(assigned.view(), "kind: ConfigMap\n");
}

// Resident memory of this process, in KiB (/proc/self/status).
long ResidentKib() {
  std::FILE* status = std::fopen("/proc/self/status", "r");
  long kib = -1;
  char line[256];
  while (status != nullptr && std::fgets(line, sizeof line, status) != nullptr) {
    if (std::sscanf(line, "VmRSS: %ld kB", &kib) == 1) break;
  }
  if (status != nullptr) std::fclose(status);
  return kib;
}

// A small input (a chart's template, a config) is kept as a string of its size:
// 2,000 of 100 bytes cost about 200 KiB, where a mapping each held a page of its own
// (8 MiB), and a mapping each, of which a process may have about 65,000.
TEST(InputBytesTest, SmallInputsCostTheirSizeNotAPageEach) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  const std::string text = Pattern(100);
  ASSERT_EQ(std::fwrite(text.data(), 1, text.size(), file), text.size());
  std::fflush(file);
  std::vector<InputBytes> held;
  held.reserve(2000);
  const long before = ResidentKib();
  for (int i = 0; i < 2000; ++i) {
    lseek(fileno(file), 0, SEEK_SET);
    held.push_back(InputBytes::Growable(1 << 20));
    ASSERT_EQ(held.back().ReadFrom(fileno(file)), 0);
    ASSERT_TRUE(held.back().view() == text);
  }
  const long grown = ResidentKib() - before;
  std::fclose(file);
  EXPECT_LT(grown, 2048) << "KiB for 2,000 inputs of 100 bytes";
}

// An input past the first run (64 KiB) is read on into the growing buffer whole.
TEST(InputBytesTest, ReadFromAFileAtAndAroundTheFirstRun) {
  for (std::size_t size : {std::size_t{65535}, std::size_t{65536}, std::size_t{65537}}) {
    for (std::size_t limit : {size - 1, size, size + 1}) {
      std::FILE* file = std::tmpfile();
      ASSERT_NE(file, nullptr);
      const std::string text = Pattern(size);
      ASSERT_EQ(std::fwrite(text.data(), 1, text.size(), file), text.size());
      std::fflush(file);
      lseek(fileno(file), 0, SEEK_SET);
      InputBytes bytes = InputBytes::Growable(limit);
      ASSERT_EQ(bytes.ReadFrom(fileno(file)), 0);
      std::fclose(file);
      EXPECT_TRUE(bytes.view() == text.substr(0, limit)) << size << " " << limit;
      EXPECT_EQ(bytes.room(), limit - std::min(size, limit)) << size << " " << limit;
    }
  }
}

// Standard input replaced by a pipe (as Helm gives a post-renderer) or a file for
// one test, and put back after it.
class StandardInputTest : public ::testing::Test {
 protected:
  void SetUp() override { saved_ = dup(STDIN_FILENO); }
  void TearDown() override {
    dup2(saved_, STDIN_FILENO);
    close(saved_);
  }

  // Standard input is a pipe a thread writes `text` into; the thread is joined by
  // the caller through the returned object.
  static std::thread PipeIn(std::string text) {
    int ends[2];
    EXPECT_EQ(pipe(ends), 0);
    dup2(ends[0], STDIN_FILENO);
    close(ends[0]);
    return std::thread([fd = ends[1], text = std::move(text)] {
      std::size_t at = 0;
      while (at < text.size()) {
        ssize_t n = write(fd, text.data() + at, std::min<std::size_t>(text.size() - at, 65536));
        if (n <= 0) break;  // the reader stopped reading: over the limit
        at += static_cast<std::size_t>(n);
      }
      close(fd);
    });
  }

 private:
  int saved_ = -1;
};

TEST_F(StandardInputTest, ReadsAPipeWhole) {
  const std::string text = Pattern((std::size_t{5} << 20) + 123);
  std::thread writer = PipeIn(text);
  InputBytes bytes = ReadStandardInput(std::size_t{8} << 20);
  writer.join();
  EXPECT_EQ(bytes.size(), text.size());
  EXPECT_TRUE(bytes.view() == text);
}

TEST_F(StandardInputTest, ReadsAnEmptyPipe) {
  std::thread writer = PipeIn("");
  InputBytes bytes = ReadStandardInput(1024);
  writer.join();
  EXPECT_EQ(bytes.view(), "");
}

TEST_F(StandardInputTest, AnInputOfExactlyTheLimitIsRead) {
  const std::string text = Pattern(200000);
  std::thread writer = PipeIn(text);
  InputBytes bytes = ReadStandardInput(text.size());
  writer.join();
  EXPECT_TRUE(bytes.view() == text);
}

TEST_F(StandardInputTest, AByteOverTheLimitIsAnError) {
  std::thread writer = PipeIn(Pattern(200001));
  try {
    ReadStandardInput(200000);
    ADD_FAILURE() << "no error";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(),
                 "input is larger than the limit of 200000 bytes (--max-input-bytes)");
    EXPECT_EQ(error.where().Compact(), "<stdin>");
  }
  writer.join();  // the limit and a byte: all of it was read
}

TEST_F(StandardInputTest, ReadsARedirectedFile) {
  const std::string text = Pattern(300000);
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  ASSERT_EQ(std::fwrite(text.data(), 1, text.size(), file), text.size());
  std::fflush(file);
  lseek(fileno(file), 0, SEEK_SET);
  dup2(fileno(file), STDIN_FILENO);
  InputBytes bytes = ReadStandardInput(text.size() + 10);
  std::fclose(file);
  EXPECT_TRUE(bytes.view() == text);
}

}  // namespace
}  // namespace rollcall
