// Runs a fuzz target's LLVMFuzzerTestOneInput on files, without libFuzzer: how the
// regular test suite replays the regression corpus (fuzz/regressions/<target>/) and
// seeds from testdata/ in every build, plain or sanitized.
//
//   <target>_replay [--seconds-per-input=N] PATH…
//
// A directory stands for every file under it. Each input's name is printed before it
// runs, so that a crash or a sanitizer report in the log follows the file that caused
// it; an exception that escapes the target or an input that takes longer than N
// seconds (default 10) fails the run with a message naming the file. A path that does
// not exist, or a set of paths with no file at all, fails too: a typo in the test's
// arguments must not pass by replaying nothing.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_check.h"

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> FilesUnder(const fs::path& path) {
  std::vector<fs::path> files;
  if (!fs::is_directory(path)) return {path};
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(path)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

int main(int argc, char** argv) {
  double max_seconds = 10;
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    const std::string seconds_flag = "--seconds-per-input=";
    if (arg.rfind(seconds_flag, 0) == 0) {
      max_seconds = std::atof(arg.c_str() + seconds_flag.size());
      continue;
    }
    if (!fs::exists(arg)) {
      std::cerr << arg << ": no such file or directory\n";
      return 1;
    }
    for (fs::path& file : FilesUnder(arg)) files.push_back(std::move(file));
  }
  if (files.empty()) {
    std::cerr << "no input to replay\n";
    return 1;
  }
  int failures = 0;
  for (const fs::path& file : files) {
    std::cerr << "replaying " << file.string() << std::endl;
    rollcall::fuzz::SetInputName(file.string());
    std::string bytes = ReadFile(file);
    auto start = std::chrono::steady_clock::now();
    try {
      LLVMFuzzerTestOneInput(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    } catch (const std::exception& e) {
      std::cerr << file.string() << ": FAILED: uncaught exception: " << e.what() << "\n";
      ++failures;
      continue;
    }
    std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    if (took.count() > max_seconds) {
      std::cerr << file.string() << ": FAILED: took " << took.count() << " s, more than "
                << max_seconds << " s\n";
      ++failures;
    }
  }
  std::cerr << "replayed " << files.size() << " inputs, " << failures << " failed\n";
  return failures == 0 ? 0 : 1;
}
