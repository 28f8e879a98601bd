#include "rollcall/yaml_text.h"

#include <algorithm>

namespace rollcall {
namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t'; }
bool IsBreak(char c) { return c == '\n' || c == '\r'; }

// Ends a plain scalar in a flow collection.
bool IsFlowIndicator(char c) { return c == ',' || c == '}' || c == ']'; }

bool IsHex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Whether text[i], past a tag's '!', still belongs to the tag.
bool ContinuesTag(std::string_view text, std::size_t i) {
  char c = text[i];
  if (c == '%') return i + 2 < text.size() && IsHex(text[i + 1]) && IsHex(text[i + 2]);
  return std::string_view("\",<>[\\]^`{|}").find(c) == std::string_view::npos;
}

}  // namespace

std::string_view TrimBlanks(std::string_view text) {
  while (!text.empty() && IsBlank(text.front())) text.remove_prefix(1);
  while (!text.empty() && (IsBlank(text.back()) || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

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

bool CanStartNodeAfter(char previous) {
  return previous == '\0' || previous == ' ' || previous == '\t' || previous == '[' ||
         previous == '{' || previous == ',' || previous == ':' || previous == '-';
}

std::size_t SkipBlanks(std::string_view text, std::size_t pos) {
  while (pos < text.size() && IsBlank(text[pos])) ++pos;
  return pos;
}

std::size_t PropertyEnd(std::string_view text, std::size_t pos) {
  bool anchor = text[pos] == '&';
  bool verbatim = !anchor && pos + 1 < text.size() && text[pos + 1] == '<';
  for (std::size_t i = pos + 1; i < text.size(); ++i) {
    char c = text[i];
    if (IsBlank(c) || IsBreak(c)) return i;
    if (verbatim) {
      if (c == '>') return i + 1;
    } else if (anchor ? IsFlowIndicator(c) || c == '[' || c == '{' : !ContinuesTag(text, i)) {
      return i;
    }
  }
  return text.size();
}

std::size_t SkipProperties(std::string_view text, std::size_t pos) {
  while (pos < text.size()) {
    if (text[pos] == '&' || text[pos] == '!') {
      pos = PropertyEnd(text, pos);
    } else if (IsBlank(text[pos])) {
      ++pos;
    } else {
      break;
    }
  }
  return pos;
}

std::string AnchorAt(std::string_view text, std::size_t pos) {
  while (pos < text.size() && (text[pos] == '!' || IsBlank(text[pos]))) {
    pos = text[pos] == '!' ? PropertyEnd(text, pos) : pos + 1;
  }
  if (pos >= text.size() || text[pos] != '&') return "";
  std::size_t end = PropertyEnd(text, pos);
  return std::string(text.substr(pos + 1, end - pos - 1));
}

std::size_t ScalarEnd(std::string_view text, std::size_t pos, bool in_flow) {
  pos = SkipProperties(text, pos);
  if (pos >= text.size()) return pos;
  char first = text[pos];
  if (first == '"' || first == '\'') {
    for (std::size_t i = pos + 1; i < text.size(); ++i) {
      if (first == '"' && text[i] == '\\') {
        ++i;
      } else if (text[i] == first) {
        if (first == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
          ++i;
        } else {
          return i + 1;
        }
      }
    }
    return std::string_view::npos;
  }
  if (first == '|' || first == '>') return std::string_view::npos;
  std::size_t end = pos;
  std::size_t i = pos;
  for (; i < text.size() && !IsBreak(text[i]); ++i) {
    char c = text[i];
    if (c == '#' && i > pos && IsBlank(text[i - 1])) break;
    if (in_flow && IsFlowIndicator(c)) break;
    // ": " ends a plain key; a value never contains it unquoted.
    if (c == ':' && (i + 1 == text.size() || IsBlank(text[i + 1]) || IsBreak(text[i + 1]) ||
                     (in_flow && IsFlowIndicator(text[i + 1])))) {
      break;
    }
    if (!IsBlank(c)) end = i + 1;
  }
  return end;
}

std::size_t ValueStartAfter(std::string_view text, std::size_t colon) {
  return SkipSpaceAndComments(text, colon + 1);
}

std::size_t SkipSpaceAndComments(std::string_view text, std::size_t pos) {
  while (pos < text.size()) {
    char c = text[pos];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++pos;
    } else if (c == '#') {
      pos = NextLineStart(text, pos);
    } else {
      break;
    }
  }
  return std::min(pos, text.size());
}

std::size_t EmptyFlowCollectionEnd(std::string_view text, std::size_t pos) {
  if (pos >= text.size() || (text[pos] != '{' && text[pos] != '[')) return std::string_view::npos;
  const std::size_t close = SkipSpaceAndComments(text, pos + 1);
  const char closing = text[pos] == '{' ? '}' : ']';
  return close < text.size() && text[close] == closing ? close + 1 : std::string_view::npos;
}

std::size_t ColonAfterKey(std::string_view text, std::size_t key_pos, bool in_flow) {
  std::size_t end = ScalarEnd(text, key_pos, in_flow);
  if (end == std::string_view::npos) return end;
  while (end < text.size() && IsBlank(text[end])) ++end;
  return end < text.size() && text[end] == ':' ? end : std::string_view::npos;
}

std::string LineBreakAt(std::string_view text, std::size_t pos) {
  std::size_t nl = text.find('\n', pos);
  if (nl != std::string_view::npos && nl > 0 && text[nl - 1] == '\r') return "\r\n";
  return "\n";
}

std::size_t LineStartOf(std::string_view text, std::size_t pos) {
  std::size_t nl = pos == 0 ? std::string_view::npos : text.rfind('\n', pos - 1);
  return nl == std::string_view::npos ? 0 : nl + 1;
}

std::size_t NextLineStart(std::string_view text, std::size_t pos) {
  std::size_t nl = text.find('\n', pos);
  return nl == std::string_view::npos ? text.size() : nl + 1;
}

bool OnlySpacesBefore(std::string_view text, std::size_t pos) {
  pos = std::min(pos, text.size());
  for (std::size_t i = LineStartOf(text, pos); i < pos; ++i) {
    if (text[i] != ' ') return false;
  }
  return true;
}

bool IsExplicitNullAt(std::string_view text, std::size_t pos) {
  if (pos >= text.size()) return false;
  for (std::string_view word : {"~", "null", "Null", "NULL"}) {
    if (text.substr(pos, word.size()) != word) continue;
    std::size_t after = pos + word.size();
    if (after == text.size() || IsBlank(text[after]) || IsBreak(text[after]) ||
        IsFlowIndicator(text[after])) {
      return true;
    }
  }
  return false;
}

}  // namespace rollcall
