#include "rollcall/kind_scan.h"

#include <utility>

#include "rollcall/byte_scan.h"
#include "rollcall/stream.h"
#include "rollcall/yaml_text.h"

namespace rollcall {
namespace {

constexpr std::size_t kNone = std::string_view::npos;

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

// The text of a one-line scalar value [pos, end) as the parser reads it, or nullopt
// when the scan should not decide: tags, anchors, aliases, block scalars, flow
// collections, nulls, escapes and empty values.
std::optional<std::string> ScalarText(std::string_view text, std::size_t pos, std::size_t end) {
  if (pos >= end) return std::nullopt;
  char first = text[pos];
  if (first == '!' || first == '&' || first == '*' || first == '|' || first == '>' ||
      first == '[' || first == '{' || first == '@' || first == '`' || IsExplicitNullAt(text, pos)) {
    return std::nullopt;
  }
  std::string_view raw = text.substr(pos, end - pos);
  if (first == '"') {
    if (raw.find('\\') != kNone) return std::nullopt;
    return std::string(raw.substr(1, raw.size() - 2));
  }
  if (first == '\'') {
    std::string out;
    for (std::size_t i = 1; i + 1 < raw.size(); ++i) {
      out += raw[i];
      if (raw[i] == '\'') ++i;  // '' is one quote
    }
    return out;
  }
  return std::string(raw);
}

class Scan {
 public:
  explicit Scan(std::string_view text) : text_(text) {}

  std::optional<TypeHeader> Run() {
    std::size_t pos = 0;
    bool first = true;
    while (pos < text_.size()) {
      std::size_t end = text_.find('\n', pos);
      if (end == kNone) end = text_.size();
      std::size_t indent = SkipSpaces(text_, pos, end);
      std::size_t content_end = end;
      if (content_end > indent && text_[content_end - 1] == '\r') --content_end;
      bool blank = indent == content_end || text_[indent] == '#';
      if (!blank && !(block_scalar_ != kNone && indent - pos > block_scalar_)) {
        block_scalar_ = kNone;
        if (first && indent == pos && IsMarker(Span(indent, content_end), "---")) {
          // "---" alone; content after it (a tag, a flow mapping) is left to the parser.
          if (indent + 3 < content_end) return std::nullopt;
        } else if (first && text_[indent] == '%') {
          // A directive (%YAML, %TAG) before "---".
        } else if (first && text_[indent] == '{') {
          return Flow(indent);
        } else if (indent == pos && IsMarker(Span(indent, content_end), "...")) {
          break;  // the document's end marker
        } else {
          first = false;
          if (!Line(pos, indent, content_end)) return std::nullopt;
        }
      }
      pos = end + 1;
      if (resume_ != kNone) pos = std::exchange(resume_, kNone);
    }
    finished_ = true;
    return Result();
  }

  // Read to the end without giving up, and a plain mapping with neither key at its top
  // level: a values file or other non-object, told without a parse.
  bool PlainlyNeither() const { return finished_ && seen_key_ && !api_version_ && !kind_; }
  std::size_t first_key() const { return first_key_; }

 private:
  std::string_view Span(std::size_t begin, std::size_t end) const {
    return text_.substr(begin, end - begin);
  }

  // One line of a block document. False when the scan must give up.
  bool Line(std::size_t line_start, std::size_t pos, std::size_t end) {
    // A "- " entry at column 0 belongs to the sequence of the key above it
    // (Kubernetes writes them unindented); before any key, the root is a sequence.
    bool entry = text_[pos] == '-' && (pos + 1 == end || IsBlank(text_[pos + 1]));
    if (pos == line_start && (entry ? !seen_key_ : text_[pos] == '?' || text_[pos] == '\t')) {
      return false;  // a sequence, a complex key, a tab: not a plain top-level mapping
    }
    std::size_t column = pos - line_start + (entry ? 1 : 0);  // entries sit inside a value
    // A deeper line matters only when it opens something that runs onto the next
    // lines (a quote, a flow collection, a block scalar) or has a property before it:
    // without any of those bytes it can be passed over (most lines of a CRD).
    static constexpr ByteSet kOpeners("'\"[{|>!&");
    if (column > 0 && FindAnyOf(text_, pos, end, kOpeners) == end) return true;
    // "- - key: value": entries of nested sequences.
    while (pos + 1 < end && text_[pos] == '-' && IsBlank(text_[pos + 1])) {
      pos += 2;
      while (pos < end && IsBlank(text_[pos])) ++pos;
    }
    if (pos >= end || text_[pos] == '#') return true;
    std::size_t key_column = pos - line_start;
    std::size_t colon = ColonAfterKey(text_, pos, /*in_flow=*/false);
    if (colon != kNone && colon >= end) return false;  // a key quoted across lines
    if (colon == kNone) {
      // No key here: a scalar entry or a plain scalar's next line, never a top-level key.
      return column > 0 && Value(pos, end, key_column);
    }
    std::size_t value = colon + 1;
    while (value < end && IsBlank(text_[value])) ++value;
    if (column > 0) return Value(value, end, key_column);
    std::optional<std::string> key = ScalarText(text_, pos, ScalarEnd(text_, pos, false));
    if (!key || *key == "<<") return false;
    if (!seen_key_) first_key_ = pos;
    seen_key_ = true;
    if (*key != "kind" && *key != "apiVersion") return Value(value, end, key_column);
    std::size_t value_end = ScalarEnd(text_, value, false);
    if (value_end == kNone || value_end > end) return false;
    std::optional<std::string> scalar = ScalarText(text_, value, value_end);
    if (!scalar) return false;
    (*key == "kind" ? kind_ : api_version_) = std::move(*scalar);
    return true;
  }

  // A value on one line of a block document: anything that could run onto the
  // following lines (a quoted scalar or a flow collection left open) gives up; a
  // block scalar's lines are skipped.
  bool Value(std::size_t pos, std::size_t end, std::size_t key_column) {
    pos = SkipProperties(text_, pos);
    if (pos >= end || text_[pos] == '#') return true;
    char c = text_[pos];
    if (c == '|' || c == '>') {
      block_scalar_ = key_column;
      return true;
    }
    std::size_t close = end;
    if (c == '"' || c == '\'') close = ScalarEnd(text_, pos, false);
    if (c == '[' || c == '{') close = FlowEnd(pos);
    if (close == kNone) return false;
    return close <= end || ContinuesTo(close, end, key_column);
  }

  // A quoted scalar or flow collection that opened on the line ending at `end` and
  // closes at `close`, on a later line: CRDs' descriptions and CEL rules are written
  // that way. Fine when each line it runs onto is indented deeper than its key (so no
  // reader takes that line for a key of its own) and only a comment follows the close;
  // the scan then resumes on the line after it. Otherwise the scan gives up.
  bool ContinuesTo(std::size_t close, std::size_t end, std::size_t key_column) {
    std::size_t line = end + 1;
    while (line < close) {
      std::size_t first = line;
      while (first < close && text_[first] == ' ') ++first;
      bool empty = first >= text_.size() || text_[first] == '\n' || text_[first] == '\r';
      if (!empty && (first - line <= key_column || text_[first] == '\t')) return false;
      std::size_t next = text_.find('\n', line);
      if (next == kNone || next >= close) break;
      line = next + 1;
    }
    std::size_t rest = close;
    while (rest < text_.size() && IsBlank(text_[rest])) ++rest;
    if (rest < text_.size() && text_[rest] != '\n' && text_[rest] != '\r' &&
        !(text_[rest] == '#' && rest > close)) {
      return false;
    }
    std::size_t next = text_.find('\n', close);
    resume_ = next == kNone ? text_.size() : next + 1;
    return true;
  }

  // One past the flow collection opening at `pos`, or kNone when it never closes.
  std::size_t FlowEnd(std::size_t pos) const {
    std::size_t depth = 0;
    for (std::size_t i = pos; i < text_.size(); ++i) {
      char c = text_[i];
      if (c == '"' || (c == '\'' && (IsBlank(text_[i - 1]) || text_[i - 1] == '[' ||
                                     text_[i - 1] == '{' || text_[i - 1] == ','))) {
        i = ScalarEnd(text_, i, true);
        if (i == kNone) return kNone;
        --i;
      } else if (c == '#' && IsBlank(text_[i - 1])) {
        i = text_.find('\n', i);
        if (i == kNone) return kNone;
      } else if (c == '[' || c == '{') {
        ++depth;
      } else if ((c == ']' || c == '}') && --depth == 0) {
        return i + 1;
      }
    }
    return kNone;
  }

  // A document whose root is a flow mapping: JSON, or YAML written that way.
  std::optional<TypeHeader> Flow(std::size_t open) {
    std::size_t close = FlowEnd(open);
    if (close == kNone) return std::nullopt;
    std::size_t pos = open + 1;
    while (true) {
      pos = SkipSpace(pos, close);
      if (pos + 1 >= close) break;  // the closing brace
      char c = text_[pos];
      if (c == '?' || c == '!' || c == '&' || c == '*' || c == '[' || c == '{') return std::nullopt;
      std::size_t key_end = ScalarEnd(text_, pos, true);
      if (key_end == kNone || key_end >= close) return std::nullopt;
      std::optional<std::string> key = ScalarText(text_, pos, key_end);
      pos = SkipSpace(key_end, close);
      if (!key || *key == "<<" || text_[pos] != ':') return std::nullopt;
      if (!seen_key_) first_key_ = open;  // the tree marks a flow mapping at its brace
      seen_key_ = true;
      pos = SkipSpace(pos + 1, close);
      std::size_t value_end =
          text_[pos] == '[' || text_[pos] == '{' ? FlowEnd(pos) : ScalarEnd(text_, pos, true);
      if (value_end == kNone || value_end >= close) return std::nullopt;
      if (*key == "kind" || *key == "apiVersion") {
        std::optional<std::string> scalar = ScalarText(text_, pos, value_end);
        if (!scalar) return std::nullopt;
        (*key == "kind" ? kind_ : api_version_) = std::move(*scalar);
      }
      pos = SkipSpace(value_end, close);
      if (text_[pos] == ',') {
        ++pos;
      } else if (pos + 1 != close) {
        return std::nullopt;
      }
    }
    // Only comments and blank lines may follow the mapping.
    if (SkipSpace(close, text_.size()) < text_.size()) return std::nullopt;
    finished_ = true;
    return Result();
  }

  // Both keys, non-empty: an empty one makes the document not an object, which
  // only the parse reports (not-an-object).
  std::optional<TypeHeader> Result() const {
    if (!api_version_ || !kind_ || api_version_->empty() || kind_->empty()) return std::nullopt;
    return TypeHeader{*api_version_, *kind_};
  }

  // Past spaces, line breaks and comments, stopping at `limit`.
  std::size_t SkipSpace(std::size_t pos, std::size_t limit) const {
    while (pos < limit) {
      char c = text_[pos];
      if (c == '#' && (pos == 0 || IsBlank(text_[pos - 1]) || text_[pos - 1] == '\n')) {
        std::size_t nl = text_.find('\n', pos);
        pos = nl == kNone ? limit : nl;
      } else if (IsBlank(c) || c == '\n' || c == '\r') {
        ++pos;
      } else {
        break;
      }
    }
    return pos;
  }

  std::string_view text_;
  bool seen_key_ = false;             // a top-level key came before this line
  std::size_t block_scalar_ = kNone;  // inside a block scalar deeper than this column
  std::size_t resume_ = kNone;        // the line after a value that ran onto other lines
  bool finished_ = false;             // read to the end without giving up
  std::size_t first_key_ = 0;         // where the first top-level key is
  std::optional<std::string> api_version_, kind_;
};

}  // namespace

std::optional<TypeHeader> ScanTypeHeader(std::string_view text) { return Scan(text).Run(); }

TypeScan ScanType(std::string_view text) {
  Scan scan(text);
  TypeScan out;
  out.type = scan.Run();
  out.plainly_not_an_object = scan.PlainlyNeither();
  out.first_key = scan.first_key();
  return out;
}

}  // namespace rollcall
