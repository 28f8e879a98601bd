// Stream splitting on arbitrary bytes: SplitDocuments and the line index must never
// crash, and the spans must tile the input exactly, so that splicing edits back into
// the bytes loses or repeats nothing.
#include <cstddef>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "rollcall/limits.h"
#include "rollcall/stream.h"
#include "rollcall/utf8.h"

using rollcall::fuzz::Check;

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  rollcall::Stream stream(bytes, "<fuzz>");
  const auto& docs = stream.documents();
  Check(!docs.empty(), "a stream has at least one document");
  std::size_t bom = std::string_view(bytes).substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  // A mark before JSON is refused with the mark inside the span, so that the error
  // points at it (stream.cc).
  const bool mark_refused =
      docs.front().problem == rollcall::DocumentSpan::SplitProblem::kByteOrderMarkBeforeJson;
  // A JSON stream whose first value JSON refuses is read as YAML from past the white
  // space kubectl's decoder skips (json_stream.h); render keeps those bytes.
  const bool past_white_space =
      docs.front().begin > 0 && rollcall::SkipGoSpace(bytes, 0) >= docs.front().begin;
  Check(docs.front().begin == (mark_refused ? 0 : bom) || past_white_space,
        "the first document starts at the stream (after a BOM, unless the BOM is refused; "
        "past white space, where JSON falls back to YAML)");
  Check(docs.back().end == size, "the last document ends at the end of the stream");
  for (std::size_t i = 0; i < docs.size(); ++i) {
    const rollcall::DocumentSpan& doc = docs[i];
    Check(doc.index == i + 1, "documents are numbered 1, 2, … in order");
    Check(doc.begin <= doc.end, "a span does not end before it begins");
    if (i > 0) Check(docs[i - 1].end == doc.begin, "each document starts where the last ended");
    if (doc.begin < doc.end) {
      rollcall::Location where = stream.Locate(doc, doc.begin);
      Check(where.line >= 1 && where.column >= 1, "locations are 1-based");
      Check(stream.lines().LineStart(where.line) + where.column - 1 == doc.begin,
            "line and column map back to the offset");
    }
    // The text checks run on every document before yaml-cpp would see it.
    rollcall::FindTextProblem(doc.Text(stream.bytes()), rollcall::Limits{});
  }
  return 0;
}
