#include "rollcall/edit.h"

#include <algorithm>
#include <stdexcept>

namespace rollcall {

std::string Splice(std::string_view bytes, std::vector<Edit> edits) {
  std::stable_sort(edits.begin(), edits.end(),
                   [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
  std::size_t grow = 0;
  for (const Edit& edit : edits) grow += edit.text.size();
  std::string out;
  out.reserve(bytes.size() + grow);
  std::size_t copied = 0;
  for (const Edit& edit : edits) {
    if (edit.begin < copied || edit.end < edit.begin || edit.end > bytes.size()) {
      throw std::logic_error("overlapping or out-of-range edit at byte " +
                             std::to_string(edit.begin));
    }
    out.append(bytes.substr(copied, edit.begin - copied));
    out.append(edit.text);
    copied = edit.end;
  }
  out.append(bytes.substr(copied));
  return out;
}

}  // namespace rollcall
