#include "rollcall/scalar_repairs.h"

#include <algorithm>
#include <string>

#include "rollcall/node_shape.h"
#include "rollcall/utf8.h"
#include "rollcall/yaml_text.h"

namespace rollcall {
namespace {

// The bytes yaml-cpp wrote for \N and \_, made UTF-8. Only these two escapes give
// bytes that are not UTF-8 (the text checks refused any other before the parse).
bool RepairEscapes(std::string& value) {
  bool changed = false;
  std::string out;
  for (std::size_t i = 0; i < value.size();) {
    char32_t c = 0;
    std::size_t length = DecodeUtf8(value, i, c);
    const auto byte = static_cast<unsigned char>(value[i]);
    if (length == 0 && (byte == 0x85 || byte == 0xA0)) {
      out += '\xC2';
      out += value[i];
      changed = true;
      ++i;
    } else {
      std::size_t take = length == 0 ? 1 : length;
      out.append(value, i, take);
      i += take;
    }
  }
  if (changed) value = std::move(out);
  return changed;
}

// The block scalar header at `pos` (after properties): its style ('|' or '>') and
// chomping ('-' strip, '+' keep, ' ' clip), or a style of 0 when there is none.
struct BlockHeader {
  char style = 0;
  char chomping = ' ';
};

BlockHeader BlockHeaderAt(std::string_view text, std::size_t pos) {
  BlockHeader header;
  if (pos >= text.size() || (text[pos] != '>' && text[pos] != '|')) return header;
  for (std::size_t i = pos + 1; i < text.size(); ++i) {
    if (text[i] == '+' || text[i] == '-') {
      header.chomping = text[i];
    } else if (text[i] < '0' || text[i] > '9') {
      // The header ends at a blank, a comment or the line break; anything else
      // makes it no header (a plain scalar starting with '>' is not valid YAML).
      if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' && text[i] != '\r' &&
          text[i] != '#') {
        return header;
      }
      break;
    }
  }
  header.style = text[pos];
  return header;
}

// The block scalar whose header line holds `pos`: how many empty lines end it
// (lines after its last content line, up to the next line with content indented
// no more than its parent, or the text's end).
struct BlockEnd {
  std::size_t trailing_empty = 0;
};

BlockEnd BlockEndOf(std::string_view text, std::size_t pos) {
  std::size_t header_start = LineStartOf(text, pos);
  std::size_t parent_indent = SkipBlanks(text, header_start) - header_start;
  BlockEnd end;
  for (std::size_t at = NextLineStart(text, pos); at < text.size(); at = NextLineStart(text, at)) {
    std::size_t first = at;
    while (first < text.size() && text[first] == ' ') ++first;
    const bool blank = first >= text.size() || text[first] == '\n' || text[first] == '\r';
    if (blank) {
      ++end.trailing_empty;
      continue;
    }
    if (first - at <= parent_indent) break;  // the block ended
    end.trailing_empty = 0;                  // a content line of the block
  }
  return end;
}

class Repairer {
 public:
  explicit Repairer(std::string_view text) : text_(text) {}

  void Walk(YAML::Node node) {
    if (node.IsMap()) {
      for (auto entry : node) {
        Walk(entry.first);
        Walk(entry.second);
      }
    } else if (node.IsSequence()) {
      for (auto item : node) Walk(item);
    } else if (node.IsScalar()) {
      Scalar(node);
    }
  }

 private:
  void Scalar(YAML::Node& node) {
    std::string value = node.Scalar();
    bool changed = RepairEscapes(value);
    std::size_t pos = MarkPos(node.Mark());
    BlockHeader header =
        pos < text_.size() ? BlockHeaderAt(text_, SkipProperties(text_, pos)) : BlockHeader{};
    if (header.style != 0 && header.chomping != '-' && !value.empty()) {
      BlockEnd end = BlockEndOf(text_, pos);
      // Idempotent: the line breaks that end the value are counted from the text.
      std::size_t breaks = value.back() == '\n' ? 1 : 0;
      if (header.style == '>' && header.chomping == '+') breaks = 1 + end.trailing_empty;
      if (header.chomping == '+' && header.style == '|') {
        breaks = std::max<std::size_t>(breaks, value.size() - value.find_last_not_of('\n') - 1);
      }
      std::size_t last = value.find_last_not_of('\n');
      std::string repaired = last == std::string::npos ? std::string() : value.substr(0, last + 1);
      if (!repaired.empty()) {
        repaired.append(breaks, '\n');
        changed = changed || repaired != value;
        value = std::move(repaired);
      }
    }
    if (changed) node = value;
  }

  std::string_view text_;
};

}  // namespace

bool MayNeedScalarRepairs(std::string_view text) {
  if (text.find("\\N") != std::string_view::npos || text.find("\\_") != std::string_view::npos) {
    return true;
  }
  for (std::size_t at = text.find_first_of(">|"); at != std::string_view::npos;
       at = text.find_first_of(">|", at + 1)) {
    BlockHeader header = BlockHeaderAt(text, at);
    if (header.style == '>' && header.chomping == '+') return true;
  }
  return false;
}

void RepairScalars(std::string_view text, YAML::Node& root) { Repairer(text).Walk(root); }

}  // namespace rollcall
