#include "rollcall/stream.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <optional>
#include <stdexcept>
#include <thread>

#include "rollcall/input_error.h"
#include "rollcall/json_document.h"
#include "rollcall/json_stream.h"
#include "rollcall/usable_cpus.h"
#include "rollcall/yaml_text.h"

namespace rollcall {
namespace {

constexpr std::string_view kSourcePrefix = "# Source: ";

std::string_view StripLineBreak(std::string_view line) {
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  return line;
}

// True when the line carries YAML content: not blank, not only a comment.
bool HasContent(std::string_view line) {
  std::size_t first = SkipBlanks(line, 0);
  return first < line.size() && line[first] != '#';
}

// What YAMLReader lets follow a "---": strings.TrimSpace of it (Go's Unicode white
// space) empty, or starting with "#".
bool SeparatorRestAllowed(std::string_view rest) {
  const std::size_t at = SkipGoSpace(rest, 0);
  return at == rest.size() || rest[at] == '#';
}

// Whether YAML reads the "---" line `line` as a document start: "---" followed by
// nothing, or by blanks and then nothing or a comment ("---#c" and "---" followed by
// a non-breaking space are text to YAML, though not to YAMLReader), or by a line
// break of YAML 1.1's ("---" U+0085), after which only blanks, more such breaks or
// a comment may follow on the line.
bool YamlReadsAsMarker(std::string_view line) {
  std::size_t at = 3;
  while (at < line.size() && (line[at] == ' ' || line[at] == '\t')) ++at;
  if (at == line.size() || (at > 3 && line[at] == '#')) return true;
  if (YamlUnicodeBreakLength(line, at) == 0) return false;
  while (at < line.size()) {
    if (const std::size_t length = YamlUnicodeBreakLength(line, at)) {
      at += length;
    } else if (line[at] == ' ' || line[at] == '\t') {
      ++at;
    } else {
      return line[at] == '#';
    }
  }
  return true;
}

// Whether `line` is a "%YAML" directive go-yaml's scanner takes: "%YAML", blanks,
// one or two digits, ".", one or two digits, then only blanks or a comment. (Other directives,
// which the scanner may refuse, are left to the refusal of a directive without its document.)
bool IsYamlVersionDirective(std::string_view line) {
  if (line.substr(0, 5) != "%YAML") return false;
  std::size_t at = SkipBlanks(line, 5);
  if (at == 5) return false;
  auto digits = [&] {
    const std::size_t from = at;
    while (at < line.size() && line[at] >= '0' && line[at] <= '9') ++at;
    return at > from && at - from <= 2;  // go-yaml: "found extremely long version number"
  };
  if (!digits() || at == line.size() || line[at] != '.') return false;
  ++at;
  if (!digits()) return false;
  const std::size_t rest = SkipBlanks(line, at);
  return rest == line.size() || (rest > at && line[rest] == '#');
}

}  // namespace

std::size_t SeparatorLineLength(std::string_view text) {
  if (text.substr(0, 3) != "---") return 0;
  std::size_t nl = text.find('\n');
  return nl == std::string_view::npos ? text.size() : nl + 1;
}

std::size_t DocumentContentStart(std::string_view text) {
  const std::size_t separator = SeparatorLineLength(text);
  if (separator > 0 && text.substr(separator, kUtf8Bom.size()) == kUtf8Bom) {
    return separator + kUtf8Bom.size();
  }
  return separator;
}

bool IsMarker(std::string_view line, std::string_view mark) {
  if (line.substr(0, 3) != mark) return false;
  return line.size() == 3 || line[3] == ' ' || line[3] == '\t';
}

namespace {

// Line breaks in `text`.
std::size_t CountLineBreaks(std::string_view text) {
  std::size_t count = 0;
  const char* at = text.data();
  const char* end = at + text.size();
  while (at < end) {
    const void* found = std::memchr(at, '\n', static_cast<std::size_t>(end - at));
    if (found == nullptr) break;
    ++count;
    at = static_cast<const char*>(found) + 1;
  }
  return count;
}

}  // namespace

LineIndex::LineIndex(std::string_view bytes) : bytes_(bytes) {
  if (bytes.size() > kMaxStreamBytes) {
    throw std::length_error("a stream over " + std::to_string(kMaxStreamBytes) + " bytes");
  }
  block_lines_.reserve(bytes.size() / kBlock + 1);
  std::size_t breaks = 0;
  for (std::size_t block = 0; block <= bytes.size(); block += kBlock) {
    block_lines_.push_back(static_cast<std::uint32_t>(breaks));
    breaks += CountLineBreaks(bytes.substr(block, kBlock));
  }
  total_breaks_ = breaks;
}

std::size_t LineIndex::LineOf(std::size_t offset) const {
  offset = std::min(offset, bytes_.size());
  std::size_t block = offset / kBlock;
  std::size_t begin = block * kBlock;
  return block_lines_[block] + CountLineBreaks(bytes_.substr(begin, offset - begin)) + 1;
}

std::size_t LineIndex::ColumnOf(std::size_t offset) const {
  offset = std::min(offset, bytes_.size());
  std::size_t previous = offset == 0 ? std::string_view::npos : bytes_.rfind('\n', offset - 1);
  return offset - (previous == std::string_view::npos ? 0 : previous + 1) + 1;
}

std::size_t LineIndex::LineStart(std::size_t line) const {
  // Past the last line: the last line's start.
  std::size_t breaks = std::min(line == 0 ? 0 : line - 1, total_breaks_);
  if (breaks == 0) return 0;
  // The block holding the line break that ends line `line - 1`: the last block
  // with fewer breaks before it.
  auto after = std::upper_bound(block_lines_.begin(), block_lines_.end(), breaks - 1);
  std::size_t block = static_cast<std::size_t>(after - block_lines_.begin()) - 1;
  std::size_t pos = block * kBlock;
  for (std::size_t left = breaks - block_lines_[block]; left > 0; --left) {
    pos = bytes_.find('\n', pos) + 1;
  }
  return pos;
}

std::string_view DocumentSpan::Source(std::string_view stream) const {
  // The lines before the document's content, as SplitDocuments reads them: the span's
  // "---" line (refused with more than a comment), then comments and blank lines up
  // to content or a "..." line.
  std::string_view text = Text(stream);
  if (problem == SplitProblem::kBadSeparator || problem == SplitProblem::kSeparatorNotAMarker ||
      json) {
    return {};  // JSON has no comments
  }             // JSON has no comments
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t nl = text.find('\n', pos);
    std::size_t next = nl == std::string_view::npos ? text.size() : nl + 1;
    std::string_view line = StripLineBreak(text.substr(pos, next - pos));
    if (pos == 0 && line.substr(0, 3) == "---") {
      // The separator that starts the span.
    } else if (IsMarker(line, "...") || HasContent(line)) {
      return {};
    } else if (line.size() > kSourcePrefix.size() &&
               line.substr(0, kSourcePrefix.size()) == kSourcePrefix) {
      return line.substr(kSourcePrefix.size());
    }
    pos = next;
  }
  return {};
}

const char* SplitProblemMessage(DocumentSpan::SplitProblem problem) {
  switch (problem) {
    case DocumentSpan::SplitProblem::kBadSeparator:
      return "invalid Yaml document separator: kubectl and Helm split a stream at lines that "
             "begin with \"---\", and refuse one followed by anything but blanks or a comment "
             "(what follows is not shown)";
    case DocumentSpan::SplitProblem::kEndBeforeContent:
      return "yaml: did not find expected node content: kubectl and Helm split a stream only at "
             "\"---\" lines, and read this piece as a document that ends (\"...\") before it "
             "starts";
    case DocumentSpan::SplitProblem::kDirective:
      return "yaml: did not find expected <document start>: kubectl and Helm split a stream at "
             "\"---\" lines, which leaves a YAML directive (%YAML, %TAG) without its document";
    case DocumentSpan::SplitProblem::kSeparatorNotAMarker:
      return "invalid YAML: kubectl and Helm give a \"---\" line that opens the stream, or "
             "follows another \"---\" line, to the YAML parser, which does not read this one as "
             "a document start (\"---\" must be followed by a blank before a comment; what "
             "follows is not shown)";
    case DocumentSpan::SplitProblem::kStrayByteOrderMark:
      return "invalid YAML: a byte-order mark (U+FEFF) starts a line inside a document: go-yaml, "
             "which kubectl and Helm read YAML with, takes it for the encoding's mark only where "
             "its input starts and reads it here as text (a key \"\\ufeffapiVersion\"); "
             "remove it";
    case DocumentSpan::SplitProblem::kByteOrderMarkBeforeJson:
      return "a byte-order mark before a stream that starts with '{': kubectl's file reader "
             "drops the mark and reads JSON values, Helm reads the bytes as they are, as YAML, "
             "and the two readings differ; remove the byte-order mark";
    case DocumentSpan::SplitProblem::kJsonSyntax:
      return "invalid JSON: kubectl and Helm read a stream that starts with '{' as JSON values "
             "one after another, and refuse it where the text stops being JSON after two of "
             "them (what is there is not shown)";
    case DocumentSpan::SplitProblem::kNone:
      break;
  }
  return "";
}

// How many pieces "---" lines can cut the stream into, at most: the vector of spans is
// made that size at once, not grown by doubling and shrunk by a copy (for a stream of
// a million small documents, 40 MB of spans had taken 80 at the peak).
std::size_t MostPieces(std::string_view bytes) {
  std::size_t pieces = 1;
  for (std::size_t at = bytes.find("\n---"); at != std::string_view::npos;
       at = bytes.find("\n---", at + 4)) {
    ++pieces;
  }
  return pieces + 1;  // the first line may be one too
}

namespace {

// Where a piece past `max_pieces` begins: said in `over_at`, or, without it, thrown.
void PastLastPiece(std::size_t begin, std::size_t* over_at) {
  if (over_at == nullptr) {
    throw std::length_error("more than " + std::to_string(kMaxDocuments) + " documents");
  }
  *over_at = begin;
}

// Appends to `docs` the YAML pieces of `bytes` from `start` on (SplitDocuments).
// Returns false when a piece past `max_pieces` began.
bool SplitYaml(std::string_view bytes, std::size_t start, std::size_t max_pieces,
               std::size_t* over_at, std::vector<DocumentSpan>& docs) {
  bool over = false;  // a piece past max_pieces began: the split stops there
  if (bytes.substr(start, kUtf8Bom.size()) == kUtf8Bom) start += kUtf8Bom.size();
  DocumentSpan current;
  current.begin = static_cast<std::uint32_t>(start);
  bool closed = false;  // a "..." line ended the current document
  auto finish = [&](std::size_t end) {
    if (docs.size() == max_pieces) {
      PastLastPiece(current.begin, over_at);
      over = true;
      return;
    }
    current.end = static_cast<std::uint32_t>(end);
    if (!closed) current.read_end = current.end;
    current.index = static_cast<std::uint32_t>(docs.size() + 1);
    docs.push_back(current);
    current = DocumentSpan{};
    current.begin = static_cast<std::uint32_t>(end);
    closed = false;
  };

  std::size_t pos = start;
  bool nothing_read = true;  // by YAMLReader since the last "---" line it dropped
  bool opened = false;       // the current piece starts with a "---" line go-yaml parses
  while (pos < bytes.size() && !over) {
    std::size_t nl = bytes.find('\n', pos);
    std::size_t next = nl == std::string_view::npos ? bytes.size() : nl + 1;
    std::string_view line = StripLineBreak(bytes.substr(pos, next - pos));
    const bool separator = line.substr(0, 3) == "---";
    // YAMLReader drops a "---" line that ends a piece, and keeps one it meets with
    // nothing read since the last (the stream's first line, the second of two): that
    // one go-yaml parses.
    const bool kept = separator && nothing_read;
    // go-yaml takes a byte-order mark for the encoding's only at the start of what
    // it is given (what follows a dropped "---" line); elsewhere it is text to it,
    // while libyaml skips it at the start of any line.
    if (!nothing_read && line.substr(0, kUtf8Bom.size()) == kUtf8Bom && !closed &&
        current.problem == DocumentSpan::SplitProblem::kNone) {
      current.problem = DocumentSpan::SplitProblem::kStrayByteOrderMark;
      current.empty = false;
    }
    nothing_read = separator && !kept;
    if (separator) {
      // YAMLReader: a line that begins with "---" ends the piece before it, and
      // refuses the stream unless only blanks or a comment follow ("---x",
      // "--- !!map", "--- {a: b}" are all refused). What came before is a document of
      // its own unless it is the stream's empty preamble.
      if (pos > current.begin || closed) finish(pos);
      opened = kept;
      if (!SeparatorRestAllowed(line.substr(3))) {
        current.problem = DocumentSpan::SplitProblem::kBadSeparator;
        current.empty = false;
      } else if (kept && !YamlReadsAsMarker(line)) {
        current.problem = DocumentSpan::SplitProblem::kSeparatorNotAMarker;
        current.empty = false;
      }
    } else if (closed) {
      // After "...": go-yaml reads only the piece's first document.
    } else if (IsMarker(line, "...")) {
      // After a "---" go-yaml parses, "..." ends an empty document; else nothing has
      // begun for it to end.
      if (current.empty && !opened && current.problem == DocumentSpan::SplitProblem::kNone) {
        current.problem = DocumentSpan::SplitProblem::kEndBeforeContent;
        current.empty = false;
      }
      current.read_end = static_cast<std::uint32_t>(pos);
      closed = true;
    } else if (!current.empty) {
      // Content seen: only the lines above and a directive can change anything now.
      if (!line.empty() && line[0] == '%') {
        // A directive after content ends the document as "..." does (go-yaml: an
        // implicit document end), and belongs to the next one, which kubectl never
        // reads in this piece.
        current.read_end = static_cast<std::uint32_t>(pos);
        closed = true;
      }
    } else if (opened && IsYamlVersionDirective(line)) {
      // After a "---" go-yaml parses, a directive before any content ends an empty
      // document (an implicit end; the directive belongs to the next document, which
      // kubectl never reads in this piece).
      current.read_end = static_cast<std::uint32_t>(pos);
      closed = true;
    } else if (HasContent(line.substr(0, kUtf8Bom.size()) == kUtf8Bom ? line.substr(kUtf8Bom.size())
                                                                      : line)) {
      if (line[0] == '%' && current.problem == DocumentSpan::SplitProblem::kNone) {
        current.problem = DocumentSpan::SplitProblem::kDirective;
      }
      current.empty = false;
    } else if (line.substr(0, SkipBlanks(line, 0)).find('\t') != std::string_view::npos) {
      // A tab among a blank line's blanks: go-yaml refuses a document of nothing
      // else ("found character that cannot start any token"), so it is parsed.
      current.empty = false;
    }
    pos = next;
  }
  if (!over && (bytes.size() > current.begin || docs.empty())) finish(bytes.size());
  return !over;
}

// Only what YAML skips before a document's content: spaces and line breaks (a tab
// there starts no token to go-yaml, and Go's other white space is text to YAML).
bool OnlyYamlSpace(std::string_view text) {
  return text.find_first_not_of(" \r\n") == std::string_view::npos;
}

// Whether YAML, reading on past a flow collection that ends at `end`, and kubectl's
// reader, reading YAML past the JSON value there, both find nothing up to the first
// "---" line, or to the end: blanks and comments on the value's own line, spaces and
// comments on the lines after (a tab starting a line is no token to go-yaml).
bool NothingReadUntilSeparator(std::string_view bytes, std::size_t end) {
  for (std::size_t pos = end; pos < bytes.size();) {
    const std::size_t next = NextLineStart(bytes, pos);
    const std::string_view line = StripLineBreak(bytes.substr(pos, next - pos));
    if (pos != end && line.substr(0, 3) == "---") return true;
    const std::size_t first = pos == end ? SkipBlanks(line, 0) : line.find_first_not_of(' ');
    if (first != std::string_view::npos && first < line.size() && line[first] != '#') return false;
    pos = next;
  }
  return true;
}

// What go-yaml is given of each piece in `docs` from the `from`th on that holds more
// than comments: its text past an opening "---" line and a byte-order mark after it
// (DocumentContentStart). No value when a piece is one kubectl or Helm refuses.
std::optional<std::vector<std::string_view>> ReadPieces(std::string_view bytes,
                                                        const std::vector<DocumentSpan>& docs,
                                                        std::size_t from) {
  std::vector<std::string_view> out;
  for (std::size_t i = from; i < docs.size(); ++i) {
    if (docs[i].problem != DocumentSpan::SplitProblem::kNone) return std::nullopt;
    if (docs[i].empty) continue;
    const std::string_view text = docs[i].ReadText(bytes);
    out.push_back(text.substr(DocumentContentStart(text)));
  }
  return out;
}

// Whether YAML reads the text of the JSON value `value` as JSON does: its escapes are
// ones YAML reads alike and its characters ones go-yaml takes as they are.
bool JsonValueReadsAsYaml(std::string_view bytes, const JsonStreamCut::Value& value) {
  bool in_string = false;
  for (std::size_t i = value.begin; i < value.end; ++i) {
    const char c = bytes[i];
    if (c == '"') in_string = !in_string;
    if (!in_string && (c == '-' || (c >= '0' && c <= '9'))) {
      // A number past float64's range: JSON's decoder refuses it, YAML reads text.
      const std::size_t end = std::min(bytes.find_first_not_of("+-.0123456789eE", i), value.end);
      if (IsJsonNumberOverflow(bytes.substr(i, end - i))) return false;
      i = end - 1;
      continue;
    }
    if (c == '\\') {
      // YAML reads JSON's escapes alike, but "\/" (go-yaml refuses it) and surrogates
      // (libyaml refuses them; JSON pairs them).
      const char next = i + 1 < value.end ? bytes[i + 1] : '\0';
      if (next == '/') return false;
      if (next == 'u' && i + 2 < value.end && (bytes[i + 2] == 'd' || bytes[i + 2] == 'D') &&
          i + 3 < value.end &&
          std::string_view("89abAB").find(bytes[i + 3]) != std::string_view::npos) {
        return false;
      }
      ++i;
      continue;
    }
    if (c == '\n' || c == '\r' || c == '\t' || (c >= 0x20 && c < 0x7F)) continue;
    // Beyond ASCII, go-yaml folds U+0085 as a line break and refuses the C1 controls,
    // U+FFFE and U+FFFF, all of which JSON takes as text; DEL and the C0 controls are
    // refused above for the same reason.
    char32_t decoded = 0;
    const std::size_t length = DecodeUtf8(bytes, i, decoded);
    if (length == 0 || decoded < 0xA0 || decoded == 0xFFFE || decoded == 0xFFFF) return false;
    i += length - 1;
  }
  return true;
}

// Whether a stream kubectl would read as JSON without its byte-order mark holds what
// Helm, which reads it with the mark and so as YAML, reads alike: no JSON at all; JSON
// the decoder fails on at once (kubectl then reads YAML too); or one value YAML reads
// as JSON does, with nothing read after it before the next document (the value is
// then the first document's text to Helm), and the same documents after. Where YAML
// would refuse what JSON reads (a key and its ':' on two lines), rollcall's YAML
// reading refuses it too.
bool JsonReadsAsYaml(std::string_view bytes) {
  if (!IsJsonStream(bytes)) return true;
  if (!OnlyYamlSpace(bytes.substr(0, bytes.find('{')))) return false;
  const JsonStreamCut cut = CutJsonStream(bytes, 2);
  if (cut.error_at != JsonStreamCut::kNone || cut.values.size() > 1) return false;
  if (cut.values.empty()) return cut.yaml_from != JsonStreamCut::kNone;
  const JsonStreamCut::Value& value = cut.values.front();
  if (!JsonValueReadsAsYaml(bytes, value) || !NothingReadUntilSeparator(bytes, value.end)) {
    return false;
  }
  // Helm's first piece is the value's text; kubectl reads YAML past the value, and
  // keeps the "---" lines Helm drops until a piece ends for both. Each must give
  // go-yaml the same pieces.
  std::vector<DocumentSpan> helm;
  std::vector<DocumentSpan> kubectl;
  std::size_t over = SIZE_MAX;
  SplitYaml(bytes, 0, kMaxDocuments, &over, helm);
  if (cut.yaml_from != JsonStreamCut::kNone) {
    SplitYaml(bytes, cut.yaml_from, kMaxDocuments, &over, kubectl);
  }
  const auto helm_pieces = ReadPieces(bytes, helm, 1);
  return helm_pieces && helm_pieces == ReadPieces(bytes, kubectl, 0);
}
// Appends the pieces of a JSON stream (json_stream.h): a span for each value, from
// the end of the one before, then the YAML the decoder falls back to, or a span
// for the piece kubectl refuses. Returns false when a piece past `max_pieces` began.
bool SplitJson(std::string_view bytes, std::size_t max_pieces, std::size_t* over_at,
               std::vector<DocumentSpan>& docs) {
  const JsonStreamCut cut = CutJsonStream(bytes, max_pieces + 1);
  std::size_t begin = 0;
  auto add = [&](std::size_t read_end, DocumentSpan::SplitProblem problem) {
    if (docs.size() == max_pieces) {
      PastLastPiece(begin, over_at);
      return false;
    }
    DocumentSpan span;
    span.index = static_cast<std::uint32_t>(docs.size() + 1);
    span.json = true;
    span.empty = false;
    span.problem = problem;
    span.begin = static_cast<std::uint32_t>(begin);
    span.end = span.read_end = static_cast<std::uint32_t>(read_end);
    docs.push_back(span);
    begin = read_end;
    return true;
  };
  for (const JsonStreamCut::Value& value : cut.values) {
    if (!add(value.end, DocumentSpan::SplitProblem::kNone)) return false;
  }
  if (cut.error_at != JsonStreamCut::kNone) {
    return add(bytes.size(), DocumentSpan::SplitProblem::kJsonSyntax);
  }
  const std::size_t yaml_from =
      cut.yaml_from == JsonStreamCut::kNone ? bytes.size() : cut.yaml_from;
  // The white space up to the YAML (or the stream's end) is the last value's, and so
  // is a byte-order mark opening the YAML, which go-yaml takes for the encoding's.
  if (!docs.empty()) {
    const bool mark = bytes.substr(yaml_from, kUtf8Bom.size()) == kUtf8Bom;
    docs.back().end = static_cast<std::uint32_t>(yaml_from + (mark ? kUtf8Bom.size() : 0));
  }
  return yaml_from == bytes.size() || SplitYaml(bytes, yaml_from, max_pieces, over_at, docs);
}

}  // namespace

std::vector<DocumentSpan> SplitDocuments(std::string_view bytes, std::size_t max_pieces,
                                         std::size_t* over_at) {
  std::vector<DocumentSpan> docs;
  max_pieces = over_at == nullptr ? kMaxDocuments : std::min(max_pieces, kMaxDocuments);
  docs.reserve(std::min(MostPieces(bytes), max_pieces));
  if (bytes.substr(0, kUtf8Bom.size()) == kUtf8Bom &&
      !JsonReadsAsYaml(bytes.substr(kUtf8Bom.size()))) {
    // kubectl's file reader drops the mark and reads JSON; Helm gives the bytes as
    // they are to the decoder, which reads YAML: one stream, two readings.
    DocumentSpan span;
    span.index = 1;
    span.empty = false;
    span.problem = DocumentSpan::SplitProblem::kByteOrderMarkBeforeJson;
    span.end = span.read_end = static_cast<std::uint32_t>(bytes.size());
    docs.push_back(span);
  } else if (IsJsonStream(bytes)) {
    SplitJson(bytes, max_pieces, over_at, docs);
  } else {
    SplitYaml(bytes, 0, max_pieces, over_at, docs);
  }
  // Kept for the whole run: room left over (pieces that were empty preambles) is
  // given back, unless that costs a copy for little.
  if (docs.capacity() - docs.size() > docs.size() / 8) docs.shrink_to_fit();
  return docs;
}

Stream::Stream(InputBytes bytes, std::string origin, std::size_t max_documents)
    : bytes_(std::move(bytes)), origin_(std::move(origin)) {
  max_documents = std::min(max_documents, kMaxDocuments);
  const std::size_t over_at = IndexAndSplit(max_documents);
  if (over_at == SIZE_MAX) return;
  DocumentSpan past;  // the piece past the limit, only to be located
  past.index = static_cast<std::uint32_t>(max_documents + 1);
  past.begin = past.end = past.read_end = static_cast<std::uint32_t>(over_at);
  throw InputError(Locate(past, over_at),
                   "more than " + std::to_string(max_documents) +
                       " documents (pieces between \"---\" lines) in one stream: refused, as "
                       "each costs memory for the whole run; --max-documents raises the limit");
}

std::size_t Stream::IndexAndSplit(std::size_t max_documents) {
  std::size_t over = SIZE_MAX;
  auto split = [&] { documents_ = SplitDocuments(bytes(), max_documents, &over); };
  // Indexing the lines and splitting the documents each read every byte, before
  // anything can run in parallel: on a large stream they run side by side.
  constexpr std::size_t kSideBySide = std::size_t{1} << 20;
  if (bytes().size() < kSideBySide || UsableCpus() < 2) {
    lines_ = LineIndex(bytes());
    split();
    return over;
  }
  std::exception_ptr failed;
  std::thread indexer([&] {
    try {
      lines_ = LineIndex(bytes());
    } catch (...) {
      failed = std::current_exception();
    }
  });
  try {
    split();
  } catch (...) {
    indexer.join();
    throw;
  }
  indexer.join();
  if (failed) std::rethrow_exception(failed);
  return over;
}

Location Stream::Locate(const DocumentSpan& doc, std::size_t offset) const {
  Location where;
  where.origin = origin_;
  where.source = doc.Source(bytes());
  where.document = doc.index;
  where.line = lines_.LineOf(offset);
  where.column = lines_.ColumnOf(offset);
  return where;
}

}  // namespace rollcall
