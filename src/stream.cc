#include "rollcall/stream.h"

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <thread>

namespace rollcall {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";
constexpr std::string_view kSourcePrefix = "# Source: ";

std::string_view StripLineBreak(std::string_view line) {
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  return line;
}

// True when the line carries YAML content: not blank, not only a comment.
bool HasContent(std::string_view line) {
  auto first = line.find_first_not_of(" \t");
  return first != std::string_view::npos && line[first] != '#';
}

}  // namespace

bool IsMarker(std::string_view line, std::string_view mark) {
  if (line.substr(0, 3) != mark) return false;
  return line.size() == 3 || line[3] == ' ' || line[3] == '\t';
}

LineIndex::LineIndex(std::string_view bytes) {
  if (bytes.size() > kMaxStreamBytes) {
    throw std::length_error("a stream over " + std::to_string(kMaxStreamBytes) + " bytes");
  }
  starts_.push_back(0);
  for (std::size_t at = bytes.find('\n'); at != std::string_view::npos;
       at = bytes.find('\n', at + 1)) {
    starts_.push_back(static_cast<std::uint32_t>(at + 1));
  }
  starts_.shrink_to_fit();  // kept for the whole run
}

std::size_t LineIndex::LineOf(std::size_t offset) const {
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  return static_cast<std::size_t>(it - starts_.begin());
}

std::size_t LineIndex::ColumnOf(std::size_t offset) const {
  return offset - starts_[LineOf(offset) - 1] + 1;
}

std::size_t LineIndex::LineStart(std::size_t line) const {
  return starts_[std::min(line, starts_.size()) - 1];
}

std::vector<DocumentSpan> SplitDocuments(std::string_view bytes) {
  std::vector<DocumentSpan> docs;
  std::size_t start = bytes.substr(0, kBom.size()) == kBom ? kBom.size() : 0;
  DocumentSpan current;
  current.begin = start;
  bool closed = false;  // a "..." line ended the current document
  auto finish = [&](std::size_t end) {
    current.end = end;
    current.index = docs.size() + 1;
    docs.push_back(current);
    current = DocumentSpan{};
    current.begin = end;
    closed = false;
  };

  std::size_t pos = start;
  while (pos < bytes.size()) {
    std::size_t nl = bytes.find('\n', pos);
    std::size_t next = nl == std::string_view::npos ? bytes.size() : nl + 1;
    std::string_view line = StripLineBreak(bytes.substr(pos, next - pos));
    if (IsMarker(line, "---")) {
      // A marker starts a document; what came before it is a document of its own
      // unless it is the stream's empty preamble.
      if (pos > current.begin || closed) finish(pos);
      if (HasContent(line.substr(3))) current.empty = false;
    } else if (IsMarker(line, "...")) {
      closed = true;
    } else if (closed && HasContent(line)) {
      // A bare document after "...": it starts here.
      finish(pos);
      current.empty = false;
    } else if (HasContent(line)) {
      current.empty = false;
    } else if (current.empty && current.source.empty() &&
               line.substr(0, kSourcePrefix.size()) == kSourcePrefix) {
      current.source = std::string(line.substr(kSourcePrefix.size()));
    }
    pos = next;
  }
  if (bytes.size() > current.begin || docs.empty()) finish(bytes.size());
  return docs;
}

Stream::Stream(std::string bytes, std::string origin)
    : bytes_(std::move(bytes)), origin_(std::move(origin)) {
  // Indexing the lines and splitting the documents each read every byte, before
  // anything can run in parallel: on a large stream they run side by side.
  constexpr std::size_t kSideBySide = std::size_t{1} << 20;
  if (bytes_.size() < kSideBySide || std::thread::hardware_concurrency() < 2) {
    lines_ = LineIndex(bytes_);
    documents_ = SplitDocuments(bytes_);
    return;
  }
  std::exception_ptr failed;
  std::thread indexer([&] {
    try {
      lines_ = LineIndex(bytes_);
    } catch (...) {
      failed = std::current_exception();
    }
  });
  try {
    documents_ = SplitDocuments(bytes_);
  } catch (...) {
    indexer.join();
    throw;
  }
  indexer.join();
  if (failed) std::rethrow_exception(failed);
}

Location Stream::Locate(const DocumentSpan& doc, std::size_t offset) const {
  Location where;
  where.origin = doc.source.empty() ? origin_ : doc.source;
  where.document = doc.index;
  where.line = lines_.LineOf(offset);
  where.column = lines_.ColumnOf(offset);
  return where;
}

}  // namespace rollcall
