#include "rollcall/limits.h"

#include <vector>

namespace rollcall {
namespace {

// Where a flow collection can open: at the start of a node, after an indicator.
bool OpensNode(char previous) {
  return previous == '\0' || previous == ' ' || previous == '\t' || previous == '[' ||
         previous == '{' || previous == ',' || previous == ':' || previous == '-';
}

// Skips a quoted scalar starting at text[i] (the quote), on any number of lines.
std::size_t SkipQuoted(std::string_view text, std::size_t i) {
  char quote = text[i];
  for (++i; i < text.size(); ++i) {
    if (quote == '"' && text[i] == '\\') {
      ++i;
    } else if (text[i] == quote) {
      if (quote == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
        ++i;  // '' is an escaped quote
      } else {
        return i;
      }
    }
  }
  return text.size();
}

// True when the trimmed content of a line ends in a block scalar header: "|", ">-", "|2+".
bool EndsWithBlockScalarHeader(std::string_view content) {
  std::size_t end = content.size();
  while (end > 0 && (content[end - 1] == ' ' || content[end - 1] == '\t')) --end;
  std::size_t i = end;
  while (i > 0 && (content[i - 1] == '-' || content[i - 1] == '+' ||
                   (content[i - 1] >= '0' && content[i - 1] <= '9'))) {
    --i;
  }
  if (i == 0 || (content[i - 1] != '|' && content[i - 1] != '>')) return false;
  return i == 1 || content[i - 2] == ' ' || content[i - 2] == '\t';
}

}  // namespace

std::optional<TextProblem> FindTextProblem(std::string_view text, std::size_t max_depth) {
  auto too_deep = [max_depth](std::size_t offset) {
    return TextProblem{TextProblem::Kind::kTooDeep, offset,
                       "nesting deeper than " + std::to_string(max_depth) +
                           " levels; rollcall refuses to parse it"};
  };
  std::vector<std::size_t> indents;  // open block indentation levels
  std::size_t flow = 0;              // open flow brackets
  constexpr std::size_t kNoBlockScalar = static_cast<std::size_t>(-1);
  std::size_t block_scalar_indent = kNoBlockScalar;  // inside a block scalar deeper than this
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    std::size_t end = nl == std::string_view::npos ? text.size() : nl;
    std::size_t indent = pos;
    while (indent < end && text[indent] == ' ') ++indent;
    std::size_t column = indent - pos;
    bool blank = indent == end || text[indent] == '#' || text[indent] == '\r';
    if (block_scalar_indent != kNoBlockScalar && (blank || column > block_scalar_indent)) {
      pos = end + 1;
      continue;
    }
    block_scalar_indent = kNoBlockScalar;
    if (blank) {
      pos = end + 1;
      continue;
    }
    if (flow == 0) {
      while (!indents.empty() && indents.back() > column) indents.pop_back();
      if (indents.empty() || indents.back() < column) indents.push_back(column);
    }
    std::size_t compact = 0;
    char previous = '\0';
    bool in_plain = false;  // inside a plain scalar, brackets are text
    std::size_t i = indent;
    for (; i < end; ++i) {
      char c = text[i];
      if (c == '#' && (previous == ' ' || previous == '\t' || previous == '\0')) break;
      char next = i + 1 < end ? text[i + 1] : ' ';
      bool ends_key = c == ':' && (next == ' ' || next == '\t' || next == '\r');
      if (in_plain) {
        if (ends_key || (flow > 0 && (c == ',' || c == ']' || c == '}'))) {
          in_plain = false;
        } else {
          previous = c;
          continue;
        }
      }
      if ((c == '"' || c == '\'') && OpensNode(previous)) {
        std::size_t open = i;
        i = SkipQuoted(text, i);
        if (i >= text.size()) {
          return TextProblem{TextProblem::Kind::kUnterminatedQuote, open,
                             std::string("invalid YAML: a ") + (c == '"' ? "double" : "single") +
                                 "-quoted scalar opened here is never closed"};
        }
        // A quoted scalar may span lines; continue scanning after it.
        if (i > end) {
          nl = text.find('\n', i);
          end = nl == std::string_view::npos ? text.size() : nl;
        }
        previous = '"';
        continue;
      }
      if ((c == '[' || c == '{') && OpensNode(previous)) {
        ++flow;
      } else if ((c == ']' || c == '}') && flow > 0) {
        --flow;
      } else if ((c == '-' || c == '?') && (previous == '\0' || previous == ' ') &&
                 (next == ' ' || next == '\r')) {
        ++compact;
      } else if (c != ' ' && c != '\t' && c != ',' && c != ':' && c != '\r' &&
                 OpensNode(previous)) {
        in_plain = true;
      }
      if (indents.size() + compact + flow > max_depth) return too_deep(i);
      previous = c;
    }
    if (indents.size() + compact + flow > max_depth) return too_deep(indent);
    if (flow == 0 && EndsWithBlockScalarHeader(text.substr(indent, i - indent))) {
      block_scalar_indent = column;
    }
    pos = end + 1;
  }
  return std::nullopt;
}

std::optional<std::size_t> FindExcessiveNesting(std::string_view text, std::size_t max_depth) {
  std::optional<TextProblem> problem = FindTextProblem(text, max_depth);
  if (!problem || problem->kind != TextProblem::Kind::kTooDeep) return std::nullopt;
  return problem->offset;
}

}  // namespace rollcall
