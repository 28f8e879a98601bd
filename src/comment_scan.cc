#include "rollcall/comment_scan.h"

#include <algorithm>

#include "rollcall/yaml_text.h"

namespace rollcall {
namespace {

constexpr std::size_t kNone = std::string_view::npos;

// Whether a quote after `previous` opens a quoted scalar: where a node starts, or
// after a '?' (a complex key's).
bool OpensQuote(char previous) { return CanStartNodeAfter(previous) || previous == '?'; }

// The line starting at `pos` is blank, or indented deeper than `block_indent`: a
// line of the block scalar whose header sat at that indentation.
bool InBlockScalar(std::string_view text, std::size_t pos, std::size_t block_indent) {
  std::size_t i = pos;
  while (i < text.size() && text[i] == ' ') ++i;
  return i == text.size() || text[i] == '\n' || text[i] == '\r' || i - pos > block_indent;
}

}  // namespace

std::vector<std::size_t> FindCommentStarts(std::string_view text) {
  std::vector<std::size_t> starts;
  std::size_t block_indent = kNone;  // a block scalar's lines are deeper than this
  std::size_t line = 0;              // where the line being read starts
  std::size_t content = 0;           // where its content starts, or resumes after a quote
  std::size_t comment = kNone;       // where its comment starts
  char previous = '\0';
  bool line_start = true;  // i is where `line` starts
  for (std::size_t i = 0; i < text.size();) {
    if (line_start) {
      if (block_indent != kNone && InBlockScalar(text, i, block_indent)) {
        i = line = std::min(text.find('\n', i), text.size()) + 1;
        continue;
      }
      line_start = false;
      block_indent = kNone;
      while (i < text.size() && text[i] == ' ') ++i;
      content = i;
      comment = kNone;
      previous = '\0';
      continue;
    }
    const char c = text[i];
    if (c == '\n') {
      std::size_t end = comment == kNone ? i : comment;
      if (end > content && text[end - 1] == '\r') --end;
      if (EndsWithBlockScalarHeader(text.substr(content, end - content))) {
        block_indent = content - line;
      }
      line = ++i;
      line_start = true;
      continue;
    }
    if ((c == '"' || c == '\'') && OpensQuote(previous)) {
      const std::size_t close = SkipQuoted(text, i);
      if (close >= text.size()) break;
      if (text.substr(i, close - i).find('\n') != kNone) {
        line = LineStartOf(text, close);  // a line of its own from here: no block header
        content = close;
      }
      i = close + 1;
      previous = c;
      continue;
    }
    if (c == '#' && (previous == '\0' || previous == ' ' || previous == '\t')) {
      starts.push_back(i);
      comment = i;
      i = std::min(text.find('\n', i), text.size());
      continue;
    }
    previous = c;
    ++i;
  }
  return starts;
}

}  // namespace rollcall
