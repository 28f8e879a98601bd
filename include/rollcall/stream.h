// The input stream cut into documents, before any YAML parser sees a byte.
//
// rollcall splits on document markers itself, as kubectl's stream reader does, and
// hands the YAML parser one document at a time (design.md, decision 2; yaml-cpp's
// LoadAll, which rollcall first used, hung on some malformed streams). Each document keeps its byte
// span in the original input so that edits can be spliced back into the bytes as they came.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rollcall/input_bytes.h"
#include "rollcall/location.h"
#include "rollcall/utf8.h"

namespace rollcall {

// The largest stream rollcall reads: --max-input-bytes may not exceed it.
inline constexpr std::size_t kMaxStreamBytes = 0xFFFFFFFF;

// Maps byte offsets in the stream to 1-based line and column numbers.
//
// It keeps the line number at every 4 KiB of the bytes and counts line breaks
// from there: a stream's lines would take 4 bytes each (a large stream has millions),
// the blocks take 4 bytes per 4 KiB, and a lookup reads at most one block forward
// (ColumnOf reads back to its line's start). The bytes must outlive the index.
class LineIndex {
 public:
  LineIndex() = default;
  explicit LineIndex(std::string_view bytes);
  std::size_t LineOf(std::size_t offset) const;    // 1-based
  std::size_t ColumnOf(std::size_t offset) const;  // 1-based, in bytes
  std::size_t LineStart(std::size_t line) const;   // offset of a 1-based line

 private:
  static constexpr std::size_t kBlock = 4096;
  std::string_view bytes_;
  // block_lines_[i]: the line breaks before offset i * kBlock. 32 bits: streams are
  // at most kMaxStreamBytes.
  std::vector<std::uint32_t> block_lines_;
  std::size_t total_breaks_ = 0;
};

// One document of the stream: a byte span that starts at its "---" line (or at the
// start of the stream) and ends where the next document's "---" line starts.
// 16 bytes, 32-bit offsets (streams are at most kMaxStreamBytes) and the index, the
// flags and the problem in one more word: a span is kept for every document of the
// stream for the whole run, and for a stream of tiny documents the spans are most
// of the memory (docs/performance.md).
struct DocumentSpan {
  // Why kubectl and Helm would refuse this piece of the stream (SplitDocuments),
  // raised by the document's text checks.
  enum class SplitProblem : std::uint8_t {
    kNone,
    kBadSeparator,             // a line starting with "---" and more than a comment
    kEndBeforeContent,         // a "..." line before any content
    kDirective,                // %YAML or %TAG: split off from its document
    kJsonSyntax,               // a JSON stream that stops being JSON after two values
    kSeparatorNotAMarker,      // a "---" line go-yaml parses ("---#c" opening the stream)
    kStrayByteOrderMark,       // a line starting with U+FEFF where go-yaml reads it as text
    kByteOrderMarkBeforeJson,  // U+FEFF, then JSON: kubectl and Helm read it differently
  };

  DocumentSpan() : index(0), json(false), empty(true), problem(SplitProblem::kNone) {}

  std::uint32_t index : 27;  // 1-based position in the stream (kMaxDocuments)
  bool json : 1;             // a value of a JSON stream (json_stream.h), not YAML
  bool empty : 1;            // nothing but markers, comments and blank lines
  SplitProblem problem : 3;
  std::uint32_t begin = 0;  // offset of the first byte (after a UTF-8 BOM for document 1)
  std::uint32_t end = 0;    // offset one past the last byte
  // Offset where what Kubernetes reads of the piece ends: the start of a "..." line
  // or a directive that ends its document (go-yaml reads a piece's first document
  // only), else `end`.
  std::uint32_t read_end = 0;

  // Path from Helm 3's "# Source: <path>" comment, if any: the first one among the
  // comments before the document's content, read from `stream` (the bytes
  // SplitDocuments read) when asked, not kept in every span.
  std::string_view Source(std::string_view stream) const;
  std::string_view Text(std::string_view stream) const { return stream.substr(begin, end - begin); }
  // The part of Text that Kubernetes reads: up to a "..." line ending the document.
  std::string_view ReadText(std::string_view stream) const {
    return stream.substr(begin, read_end - begin);
  }
};

// How many documents (pieces of the stream between "---" lines, empty ones too) a
// stream may hold by default (Limits::max_documents, --max-documents): each keeps a
// 16-byte span for the whole run, and a stream of millions of tiny documents took more
// memory than twice its size (docs/performance.md). No chart renders a thousandth of
// it.
inline constexpr std::size_t kDefaultMaxDocuments = 1'000'000;
// The most a stream can hold at all, whatever --max-documents says: a span's index
// has 27 bits. A 256 MiB stream (the default --max-input-bytes) holds at most 67
// million, four bytes each ("---" and a line break).
inline constexpr std::size_t kMaxDocuments = (std::size_t{1} << 27) - 1;

class Stream {
 public:
  // `origin` names the input in messages ("<stdin>" or a file path). Throws
  // InputError, at the line where it starts, on the document past `max_documents`.
  Stream(InputBytes bytes, std::string origin, std::size_t max_documents = kDefaultMaxDocuments);
  Stream(std::string bytes, std::string origin, std::size_t max_documents = kDefaultMaxDocuments)
      : Stream(InputBytes(std::move(bytes)), std::move(origin), max_documents) {}
  // Documents and the line index point into it.
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  std::string_view bytes() const { return bytes_.view(); }
  const std::string& origin() const { return origin_; }
  const std::vector<DocumentSpan>& documents() const { return documents_; }
  const LineIndex& lines() const { return lines_; }

  // Location of an absolute byte offset inside document `doc`, named after the
  // document's own origin when Helm recorded one.
  Location Locate(const DocumentSpan& doc, std::size_t offset) const;

 private:
  // Fills lines_ and documents_, stopping at the document past `max_documents`;
  // returns where that document starts, or SIZE_MAX when there is none.
  std::size_t IndexAndSplit(std::size_t max_documents);

  InputBytes bytes_;
  std::string origin_;
  LineIndex lines_;
  std::vector<DocumentSpan> documents_;
};

// True when `line` (without its line break) is a marker made of `mark` followed by
// nothing, a space or a tab: "---", "--- !!map", "...".
bool IsMarker(std::string_view line, std::string_view mark);

// The length of a piece's "---" line with its line break, 0 when `text` does not start
// with one. kubectl's reader drops that line, and reads a piece whose "---" is followed
// by a comment without a space ("---#c") or by Unicode white space, which libyaml would
// not take for a document start: rollcall checks, scans and parses a piece without it.
std::size_t SeparatorLineLength(std::string_view text);

// Where kubectl's reading of a piece starts: past its "---" line and past a byte-order
// mark opening what follows it, which go-yaml takes for the encoding's mark (the
// piece's first bytes once the reader dropped the line).
std::size_t DocumentContentStart(std::string_view text);

// Splits `bytes` into document spans as kubectl and Helm split a stream. A JSON
// stream (json_stream.h) is cut into its values, each a span marked `json`, and the
// YAML the decoder may fall back to after the first is split as below. A YAML stream
// is split as apimachinery's YAMLReader splits it, then go-yaml reads the first
// document of each piece: at lines that begin with "---" followed by nothing but blanks or a
// comment. A line that begins with "---" and holds anything else, a piece that
// starts with "..." or with a directive is kept as a span marked with the problem
// kubectl would refuse it for. What follows a "..." line in a piece, up to the
// next "---", is never applied by Kubernetes: it stays in the span, after the
// document's end, where neither the parser nor the kind scan reads it. Exposed for
// tests and the fuzzer. With `over_at`, the split stops at the piece past
// `max_pieces` (at most kMaxDocuments) and puts the offset where it starts there;
// else `over_at` stays as it was, and a piece past kMaxDocuments throws
// std::length_error.
std::vector<DocumentSpan> SplitDocuments(std::string_view bytes, std::size_t max_pieces = SIZE_MAX,
                                         std::size_t* over_at = nullptr);

// The message for a span's split problem, as kubectl words it and why.
const char* SplitProblemMessage(DocumentSpan::SplitProblem problem);

}  // namespace rollcall
