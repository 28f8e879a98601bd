#include "rollcall/limits.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "rollcall/byte_scan.h"
#include "rollcall/stream.h"
#include "rollcall/utf8.h"
#include "rollcall/yaml_text.h"

namespace rollcall {
namespace {

// True for a "---" or "..." line (`line` may end in a CR).
bool IsDocumentMarker(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return IsMarker(line, "---") || IsMarker(line, "...");
}

bool IsPrintable(char32_t c) {
  return c == 0x09 || c == 0x0A || c == 0x0D || (c >= 0x20 && c <= 0x7E) || c == 0x85 ||
         (c >= 0xA0 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) ||
         (c >= 0x10000 && c <= 0x10FFFF);
}

}  // namespace

std::optional<TextProblem> FindInvalidCharacter(std::string_view text) {
  // The problem is placed at the start of its line's content (the key, mostly) and
  // the message names no byte: the byte may sit inside a Secret's value, and an
  // error message must not give away any part of one, nor where in it the byte is.
  auto at_line = [text](std::size_t i, const char* message) {
    return TextProblem{TextProblem::Kind::kInvalidCharacter, SkipBlanks(text, LineStartOf(text, i)),
                       message};
  };
  for (std::size_t i = SkipPlainAscii(text, 0); i < text.size(); i = SkipPlainAscii(text, i)) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] != '\n') {
      // YAML reads a lone CR as a line break; rollcall's lines, line numbers and
      // edits are LF-based, so such a line would be misread. A CR that ends the text
      // ends the stream's last line (only the last document's text can end without
      // an LF): kubectl's reader adds an LF to it, and so it reads a CRLF.
      return at_line(i,
                     "invalid YAML: this line holds a carriage return not followed by a line "
                     "feed; rollcall reads lines that end in LF or CRLF only");
    }
    char32_t c = 0;
    std::size_t length = DecodeUtf8(text, i, c);
    if (length == 0) {
      return at_line(i,
                     "invalid UTF-8: this line holds a byte that is not part of a UTF-8 "
                     "character");
    }
    if (!IsPrintable(c)) {
      return at_line(i, c < 0x20 || (c >= 0x7F && c <= 0x9F)
                            ? "invalid YAML: this line holds a control character, which YAML "
                              "does not allow (only tab, line feed and carriage return)"
                            : "invalid YAML: this line holds a noncharacter (U+FFFE or U+FFFF), "
                              "which YAML does not allow");
    }
    i += length;
  }
  return std::nullopt;
}

namespace {

// The structural scan behind FindTextProblem: one pass over the lines of a
// document, tracking what a YAML parser has open at each point.
class StructureScan {
 public:
  StructureScan(std::string_view text, std::size_t max_depth)
      : text_(text), max_depth_(max_depth) {}

  std::optional<TextProblem> Run() {
    std::size_t pos = 0;
    while (pos < text_.size() && !problem_ && !past_root_) pos = Line(pos);
    return problem_;
  }

 private:
  static constexpr std::size_t kNoBlockScalar = static_cast<std::size_t>(-1);

  // Scans the line starting at `pos` (and the lines a quoted scalar continues
  // onto); returns where the next line starts.
  std::size_t Line(std::size_t pos) {
    std::size_t nl = text_.find('\n', pos);
    std::size_t end = nl == std::string_view::npos ? text_.size() : nl;
    std::size_t indent = SkipSpaces(text_, pos, end);
    std::size_t column = indent - pos;
    std::size_t first = SkipBlanks(text_, indent);
    bool blank = first >= end || text_[first] == '#' || text_[first] == '\r';
    if (block_scalar_indent_ != kNoBlockScalar && (blank || column > block_scalar_indent_)) {
      return end + 1;
    }
    block_scalar_indent_ = kNoBlockScalar;
    if (blank) return end + 1;
    bool block_line = flow_ == 0;    // the line starts outside any flow collection
    bool continues_mapping = false;  // a block mapping's next entry must be here
    if (block_line && !indents_.empty() && indents_.front().mapping &&
        indents_.front().column > column) {
      // Left of the document's root mapping: go-yaml ends the document there (an
      // implicit end) and decodes no further; its scanner reads on, this line's first
      // token being a possible key.
      past_root_ = true;
      return PossibleKeyAt(indent);
    }
    if (block_line) {
      while (!indents_.empty() && indents_.back().column > column) indents_.pop_back();
      if (indents_.empty() || indents_.back().column < column) {
        indents_.push_back(Level{column, false});
      } else {
        continues_mapping = indents_.back().mapping;
      }
    }
    bool may_continue_plain = plain_open_;  // a multi-line plain scalar may go on here
    std::size_t compact = 0;
    bool key = false;  // a "key:" at the line's block level
    bool starts_with_indicator = false;
    char previous = '\0';
    bool in_plain = false;  // inside a plain scalar, brackets are text
    // Inside an anchor or a tag, up to its end (yaml_text.h's PropertyEnd; 0: in
    // none): a quote or bracket that ends it opens the node's content, so a property
    // is no plain scalar (before, "!t \"x" hid an open quote).
    std::size_t property_end = 0;
    std::size_t i = indent;
    if (column == 0 && IsDocumentMarker(text_.substr(pos, end - pos))) {
      // "---" or "...": no scalar continues past it; scan what follows it.
      may_continue_plain = false;
      starts_with_indicator = true;
      previous = ' ';
      i += 3;
    }
    for (; i < end; ++i) {
      char c = text_[i];
      if (!content_ && InYamlBreak(i)) continue;  // a line break to YAML, before any node
      if (c == '#' && (previous == ' ' || previous == '\t' || previous == '\0')) break;
      char next = i + 1 < end ? text_[i + 1] : ' ';
      bool ends_key = c == ':' && (next == ' ' || next == '\t' || next == '\r' || previous == '"');
      if (ends_key && flow_ == 0) key = true;
      if (property_end != 0) {
        if (i < property_end) {
          previous = c;
          continue;
        }
        property_end = 0;
        previous = ' ';  // this byte starts the node's content (or is the blank after it)
      }
      if (in_plain) {
        if (ends_key || (flow_ > 0 && (c == ',' || c == ']' || c == '}'))) {
          in_plain = false;
        } else {
          // Only ':' and '#' (in a flow collection also ',', ']' and '}') can end a
          // plain scalar: go to the next one.
          static constexpr ByteSet kBlockStops(":#");
          static constexpr ByteSet kFlowStops(":#,]}");
          std::size_t stop = FindAnyOf(text_, i + 1, end, flow_ > 0 ? kFlowStops : kBlockStops);
          previous = text_[stop - 1];
          i = stop - 1;
          continue;
        }
      }
      if ((c == '"' || c == '\'') && CanStartNodeAfter(previous)) {
        std::size_t open = i;
        i = SkipQuoted(text_, i);
        if (i >= text_.size()) {
          return Fail(TextProblem::Kind::kUnterminatedQuote, open,
                      std::string("invalid YAML: a ") + (c == '"' ? "double" : "single") +
                          "-quoted scalar opened here is never closed");
        }
        // A quoted scalar may span lines; continue scanning after it.
        if (i > end) {
          nl = text_.find('\n', i);
          end = nl == std::string_view::npos ? text_.size() : nl;
        }
        previous = '"';
        content_ = true;
        continue;
      }
      if (i == first && (c == '-' || c == '?' || c == ':' || c == '.') &&
          (next == ' ' || next == '\r' || c == '-' || c == '.')) {
        starts_with_indicator = true;  // "- ", "? ", ": ", "---", "..."
      }
      if ((c == '[' || c == '{') && CanStartNodeAfter(previous)) {
        if (flow_ == 0 && !content_ && !root_flow_) {
          root_flow_ = true;
          root_open_ = i;
          empty_root_end_ = EmptyFlowCollectionEnd(text_, i);
        }
        ++flow_;
      } else if ((c == ']' || c == '}') && flow_ > 0) {
        --flow_;
        if (flow_ == 0 && root_flow_ && (i + 1 == empty_root_end_ || !ColonFollows(i + 1, end))) {
          // The document is this flow collection: go-yaml decodes no further (what
          // follows belongs to a next document it never parses: `{"a":1}{"b":2}`;
          // an empty collection is never a key to it, `{}: 1` included), but its
          // scanner reads on to the line's end.
          // A collection that opened on this line may still be a key, unless empty
          // (EmptyFlowCollectionEnd).
          const bool key_open =
              i + 1 != empty_root_end_ &&
              text_.substr(root_open_, i - root_open_).find('\n') == std::string_view::npos;
          return PastRoot(i + 1, end, key_open);
        }
      } else if ((c == '-' || c == '?') && (previous == '\0' || previous == ' ') &&
                 (next == ' ' || next == '\r')) {
        ++compact;
      } else if (c == ',' && flow_ == 0 && CanStartNodeAfter(previous) && !may_continue_plain) {
        // "," cannot start a plain scalar; yaml-cpp read a lone "," as an empty
        // document where Kubernetes refuses it.
        return Fail(TextProblem::Kind::kMisplacedIndicator, i,
                    "invalid YAML: ',' outside a flow collection cannot start a value");
      } else if ((c == '&' || c == '!') && CanStartNodeAfter(previous)) {
        property_end = PropertyEnd(text_, i);
      } else if (c != ' ' && c != '\t' && c != ',' && c != ':' && c != '\r' &&
                 CanStartNodeAfter(previous)) {
        in_plain = true;
      }
      if (Depth(compact) > max_depth_) return TooDeep(i);
      previous = c;
      content_ = content_ || (c != ' ' && c != '\t' && c != '\r');
    }
    if (Depth(compact) > max_depth_) return TooDeep(indent);
    plain_open_ = in_plain && flow_ == 0;
    if (block_line) {
      bool tab_indented = text_[indent] == '\t';
      if (tab_indented && (key || continues_mapping)) {
        return Fail(TextProblem::Kind::kTabIndentation, indent,
                    "invalid YAML: a tab indents this line; YAML indents with spaces only");
      }
      if (continues_mapping && !key && !starts_with_indicator) {
        // yaml-cpp read a last line without ':' as a key with a null value;
        // Kubernetes refuses it.
        return Fail(TextProblem::Kind::kMissingColon, indent,
                    "invalid YAML: this line continues the mapping above but has no ':' "
                    "after its key");
      }
      if (key && compact == 0 && !starts_with_indicator) indents_.back().mapping = true;
    }
    if (flow_ == 0 && EndsWithBlockScalarHeader(text_.substr(indent, i - indent))) {
      block_scalar_indent_ = column;
    }
    return end + 1;
  }

  std::size_t Depth(std::size_t compact) const { return indents_.size() + compact + flow_; }

  std::size_t TooDeep(std::size_t offset) {
    return Fail(TextProblem::Kind::kTooDeep, offset, TooDeepMessage(max_depth_));
  }

  // Whether text_[i] is a byte of U+0085, U+2028 or U+2029, line breaks to YAML 1.1.
  bool InYamlBreak(std::size_t i) const {
    for (std::size_t back = 0; back < 3 && back <= i; ++back) {
      if (YamlUnicodeBreakLength(text_, i - back) > back) return true;
    }
    return false;
  }

  // The document's root ended at `from` (on a line ending at `end`): go-yaml decodes
  // no further, but its scanner reads on while the token at the head of its queue may
  // still be a key, and refuses the document for what it refuses there (a "\/"
  // escape, a control character). While `key_open` (a root flow collection that
  // opened on this line may still be a key) it reads to the line's end and then the
  // next line's first token; else it reads the next token. A token that starts a
  // line may be a key in turn (PossibleKeyAt). Returns past the end: the scan stops.
  std::size_t PastRoot(std::size_t from, std::size_t end, bool key_open) {
    past_root_ = true;
    if (key_open) {
      LookAheadAt(from, end);
    } else {
      const std::size_t token = SkipBlanks(text_, from);
      if (token < end && text_[token] != '#' && text_[token] != '\r') {
        return LookAheadAt(token, TokenEnd(token, end));  // after '}': never a key
      }
    }
    return problem_ ? text_.size() : PossibleKeyAt(NextContentLine(end));
  }

  // The token at `token` starts a line past the document's root, and may be a key:
  // go-yaml's scanner reads to the line's end and then the next line's first token.
  std::size_t PossibleKeyAt(std::size_t token) {
    if (token >= text_.size()) return text_.size();
    const std::size_t end = LineEndAt(token);
    const char c = text_[token];
    const char after = token + 1 < end ? text_[token + 1] : ' ';
    if (std::string_view("}],?:|>").find(c) != std::string_view::npos ||
        (c == '-' && (after == ' ' || after == '\t' || after == '\r'))) {
      return LookAheadAt(token, TokenEnd(token, end));  // an indicator, never a key
    }
    LookAheadAt(token, end);
    const std::size_t next = NextContentLine(end);
    if (!problem_ && next < text_.size()) LookAheadAt(next, TokenEnd(next, LineEndAt(next)));
    return text_.size();
  }

  std::size_t LineEndAt(std::size_t pos) const {
    return std::min(text_.find('\n', pos), text_.size());
  }

  // The first byte of the next line, after the one ending at `end`, that holds more
  // than blanks and a comment (where go-yaml's scanner finds its next token); the
  // text's size when there is none.
  std::size_t NextContentLine(std::size_t end) const {
    return SkipSpaceAndComments(text_, end + 1);
  }

  // One past the token at `token` as far as the look-ahead needs it, on its line
  // (ending at `end`): a double-quoted scalar through its closing quote; else the one
  // character.
  std::size_t TokenEnd(std::size_t token, std::size_t end) const {
    if (text_[token] != '"') {
      char32_t c = 0;
      return std::min(end, token + std::max<std::size_t>(1, DecodeUtf8(text_, token, c)));
    }
    return std::min(end, SkipQuoted(text_, token) + 1);
  }

  // FindLookAheadProblem on text_[from, to), recorded; returns past the end.
  std::size_t LookAheadAt(std::size_t from, std::size_t to) {
    if (std::optional<TextProblem> problem = FindLookAheadProblem(text_.substr(from, to - from))) {
      return Fail(problem->kind, from + problem->offset, problem->message);
    }
    return text_.size();
  }

  // Whether the next byte on the line from `from` to `end` that is not a blank is a
  // ':', which makes the flow collection before it a key.
  bool ColonFollows(std::size_t from, std::size_t end) const {
    const std::size_t at = SkipBlanks(text_, from);
    return at < end && text_[at] == ':';
  }

  // Records the problem and returns past the end, which stops the scan.
  std::size_t Fail(TextProblem::Kind kind, std::size_t offset, std::string message) {
    problem_ = TextProblem{kind, offset, std::move(message)};
    return text_.size();
  }

  // An open block indentation level, and whether its lines are mapping entries.
  struct Level {
    std::size_t column;
    bool mapping;
  };

  std::string_view text_;
  std::size_t max_depth_;
  std::vector<Level> indents_;
  std::size_t flow_ = 0;                              // open flow brackets
  std::size_t block_scalar_indent_ = kNoBlockScalar;  // inside a block scalar deeper than this
  bool plain_open_ = false;    // the last line ended inside a plain scalar, in block context
  bool content_ = false;       // a node has begun
  bool root_flow_ = false;     // the document is a flow collection, open or closed
  std::size_t root_open_ = 0;  // where that collection opens
  std::size_t empty_root_end_ = std::string_view::npos;  // past it, when it is empty
  bool past_root_ = false;                               // that collection closed: the scan is over
  std::optional<TextProblem> problem_;
};

}  // namespace

Limits ListOutputLimits(Limits limits) {
  constexpr std::size_t kLargestOffset = std::numeric_limits<std::uint32_t>::max();
  limits.max_document_bytes =
      std::max(limits.max_document_bytes, std::min(limits.max_input_bytes, kLargestOffset));
  return limits;
}

std::optional<TextProblem> FindLookAheadProblem(std::string_view line) {
  if (std::optional<TextProblem> problem = FindInvalidCharacter(line)) return problem;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\'') {
      i = std::min(line.find('\'', i + 1), line.size());
    } else if (line[i] == '"') {
      for (++i; i < line.size() && line[i] != '"'; ++i) {
        if (line[i] != '\\') continue;
        if (i + 1 < line.size() && line[i + 1] == '/') {
          return TextProblem{TextProblem::Kind::kInvalidCharacter, SkipBlanks(line, 0),
                             "invalid YAML: found unknown escape character (\\/) on this line, "
                             "past the document's end, where go-yaml's scanner still reads; "
                             "Kubernetes' YAML reader (go-yaml) refuses the document"};
        }
        ++i;
      }
    }
  }
  return std::nullopt;
}

std::optional<TextProblem> FindOversizedDocument(std::string_view text, const Limits& limits) {
  if (text.size() <= limits.max_document_bytes) return std::nullopt;
  return TextProblem{TextProblem::Kind::kTooLarge, 0,
                     "this document is " + std::to_string(text.size()) +
                         " bytes, over the limit of " + std::to_string(limits.max_document_bytes) +
                         " bytes per document (--max-document-bytes; the Kubernetes API server "
                         "takes at most 3 MiB per object)"};
}

std::string TooDeepMessage(std::size_t max_depth) {
  return "nesting deeper than " + std::to_string(max_depth) +
         " levels; rollcall refuses to parse it";
}

std::optional<TextProblem> FindTextProblem(std::string_view text, const Limits& limits) {
  if (std::optional<TextProblem> problem = FindOversizedDocument(text, limits)) return problem;
  if (std::optional<TextProblem> problem = FindInvalidCharacter(text)) return problem;
  return StructureScan(text, limits.max_depth).Run();
}

std::optional<std::size_t> FindExcessiveNesting(std::string_view text, std::size_t max_depth) {
  Limits limits;
  limits.max_depth = max_depth;
  std::optional<TextProblem> problem = FindTextProblem(text, limits);
  if (!problem || problem->kind != TextProblem::Kind::kTooDeep) return std::nullopt;
  return problem->offset;
}

}  // namespace rollcall
