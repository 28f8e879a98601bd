// Render with the default options on arbitrary bytes: it either succeeds or throws
// InputError (the CLI's exit 2); any other exception, a crash, a sanitizer report
// or a hang is a finding. A rendered stream rendered again comes out the same
// (design.md, decision 6: idempotent), and rollcall never refuses its own output.
#include <cstddef>
#include <string>

#include "fuzz_check.h"
#include "rollcall/input_error.h"
#include "rollcall/render.h"
#include "rollcall/stream.h"

using rollcall::fuzz::Check;

namespace {

void RenderTwice(const unsigned char* data, std::size_t size) {
  rollcall::RenderOptions options;
  rollcall::Stream stream(std::string(reinterpret_cast<const char*>(data), size), "<fuzz>");
  std::string first;
  try {
    first = rollcall::Render(stream, options).output;
  } catch (const rollcall::InputError&) {
    return;  // refused with a message: what bad input must get
  }
  rollcall::Stream again(first, "<fuzz>");
  try {
    std::string second = rollcall::Render(again, options).output;
    Check(second == first, "rendering the output again changes it");
  } catch (const rollcall::InputError& e) {
    rollcall::fuzz::Fail("rendering the output again is refused: " + e.Describe());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  RenderTwice(data, size);
  rollcall::fuzz::ForgetInterned();  // every record of the input is gone
  return 0;
}
