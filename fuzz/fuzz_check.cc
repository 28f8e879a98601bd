#include "fuzz_check.h"

#include <cstdlib>
#include <iostream>
#include <utility>

#include "rollcall/key_set.h"
#include "rollcall/name.h"

namespace rollcall::fuzz {
namespace {

std::string& InputName() {
  static std::string name;
  return name;
}

}  // namespace

void SetInputName(std::string name) { InputName() = std::move(name); }

void ForgetInterned() {
  ForgetKeySets();
  ForgetNames();
}

void Fail(const std::string& what) {
  std::cerr << "fuzz check failed" << (InputName().empty() ? "" : " on " + InputName()) << ": "
            << what << std::endl;
  std::abort();
}

}  // namespace rollcall::fuzz
