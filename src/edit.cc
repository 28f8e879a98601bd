#include "rollcall/edit.h"

#include <algorithm>
#include <stdexcept>

namespace rollcall {

std::vector<std::string_view> SpliceCutter::Cut(std::vector<Edit>& edits) {
  std::stable_sort(edits.begin(), edits.end(),
                   [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
  std::vector<std::string_view> pieces;
  pieces.reserve(2 * edits.size());
  for (const Edit& edit : edits) {
    if (edit.begin < copied_ || edit.end < edit.begin || edit.end > bytes_.size()) {
      throw std::logic_error("overlapping or out-of-range edit at byte " +
                             std::to_string(edit.begin));
    }
    pieces.push_back(bytes_.substr(copied_, edit.begin - copied_));
    pieces.push_back(edit.text);
    copied_ = edit.end;
  }
  return pieces;
}

std::string Splice(std::string_view bytes, std::vector<Edit> edits) {
  SpliceCutter cutter(bytes);
  std::vector<std::string_view> pieces = cutter.Cut(edits);
  pieces.push_back(cutter.Rest());
  std::size_t size = 0;
  for (std::string_view piece : pieces) size += piece.size();
  std::string out;
  out.reserve(size);
  for (std::string_view piece : pieces) out.append(piece);
  return out;
}

}  // namespace rollcall
