// What the fuzz targets share: a check that fails loudly. A failed check prints
// what broke and aborts, which libFuzzer records as a crash and the replay test
// (replay_main.cc) reports against the input file it was replaying.
#pragma once

#include <cstddef>
#include <string>

namespace rollcall::fuzz {

// Names the input being run in Fail's message; the replay main sets it per file
// (libFuzzer names the crashing input itself).
void SetInputName(std::string name);

// Prints "fuzz check failed[ on <input>]: <what>" to stderr and aborts.
[[noreturn]] void Fail(const std::string& what);

// Empties the tables of Names and KeySets once an input's records are all gone, so
// that they do not grow with every input of a long run (name.h's ForgetNames).
void ForgetInterned();

// Fails with `what` unless `condition` holds.
inline void Check(bool condition, const std::string& what) {
  if (!condition) Fail(what);
}

}  // namespace rollcall::fuzz

// The entry point every target defines; libFuzzer's driver or the replay main calls it.
extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size);
