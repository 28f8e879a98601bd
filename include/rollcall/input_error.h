// The one exception type for bad input. Everything that reads the input throws it;
// the CLI turns it into a message on stderr and exit code 2, with nothing on stdout.
// Messages never contain a value read from a Secret or ConfigMap.
#pragma once

#include <stdexcept>
#include <string>

#include "rollcall/location.h"

namespace rollcall {

class InputError : public std::runtime_error {
 public:
  InputError(Location where, const std::string& what)
      : std::runtime_error(what), where_(std::move(where)) {}

  const Location& where() const { return where_; }
  // "<origin> (document N, line L, column C): <what>"
  std::string Describe() const { return where_.Describe() + ": " + what(); }

 private:
  Location where_;
};

}  // namespace rollcall
