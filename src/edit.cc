#include "rollcall/edit.h"

#include <algorithm>
#include <stdexcept>

namespace rollcall {

std::vector<std::string_view> SplicePieces(std::string_view bytes, std::vector<Edit>& edits) {
  std::stable_sort(edits.begin(), edits.end(),
                   [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
  std::vector<std::string_view> pieces;
  pieces.reserve(2 * edits.size() + 1);
  std::size_t copied = 0;
  for (const Edit& edit : edits) {
    if (edit.begin < copied || edit.end < edit.begin || edit.end > bytes.size()) {
      throw std::logic_error("overlapping or out-of-range edit at byte " +
                             std::to_string(edit.begin));
    }
    pieces.push_back(bytes.substr(copied, edit.begin - copied));
    pieces.push_back(edit.text);
    copied = edit.end;
  }
  pieces.push_back(bytes.substr(copied));
  return pieces;
}

std::string Splice(std::string_view bytes, std::vector<Edit> edits) {
  std::vector<std::string_view> pieces = SplicePieces(bytes, edits);
  std::size_t size = 0;
  for (std::string_view piece : pieces) size += piece.size();
  std::string out;
  out.reserve(size);
  for (std::string_view piece : pieces) out.append(piece);
  return out;
}

}  // namespace rollcall
