#include "rollcall/markers.h"

#include <re2/re2.h>

#include <algorithm>

#include "rollcall/comment_scan.h"
#include "rollcall/yaml_text.h"

namespace rollcall {
namespace {

MarkerValue WithReason(MarkerKind kind, std::string_view rest, const char* name) {
  MarkerValue value;
  rest = TrimBlanks(rest);
  if (rest.empty() || rest.front() != ':' || TrimBlanks(rest.substr(1)).empty()) {
    value.problem =
        std::string("\"") + name + "\" needs a reason: SECRET-VERSION: " + name + ": <why>";
    return value;
  }
  value.kind = kind;
  value.reason = std::string(TrimBlanks(rest.substr(1)));
  return value;
}

}  // namespace

const char* MarkerKindName(MarkerKind kind) {
  switch (kind) {
    case MarkerKind::kPending:
      return "pending";
    case MarkerKind::kStatic:
      return "static";
    case MarkerKind::kReloads:
      return "reloads";
    case MarkerKind::kChecksum:
      return "checksum";
    case MarkerKind::kMalformed:
      return "malformed";
  }
  return "?";
}

MarkerValue ParseMarkerValue(std::string_view text) {
  text = TrimBlanks(text);
  std::string_view word = text.substr(0, text.find_first_of(": \t"));
  std::string_view rest = text.substr(word.size());
  if (word == "pending" || word == "checksum") {
    MarkerValue value;
    if (!TrimBlanks(rest).empty()) {
      value.problem = "\"" + std::string(word) + "\" takes nothing after it";
      return value;
    }
    value.kind = word == "pending" ? MarkerKind::kPending : MarkerKind::kChecksum;
    return value;
  }
  if (word == "static") return WithReason(MarkerKind::kStatic, rest, "static");
  if (word == "reloads") return WithReason(MarkerKind::kReloads, rest, "reloads");
  MarkerValue value;
  value.problem = text.empty() ? std::string("the value is empty")
                               : "unknown value \"" + std::string(text) + "\"";
  value.problem += "; use pending, static: <reason>, reloads: <reason> or checksum";
  return value;
}

std::vector<Marker> ScanMarkers(std::string_view text, const LineIndex& lines,
                                const std::string& origin) {
  std::vector<Marker> markers;
  if (!MayHoldMarkers(text)) return markers;
  // A comment's text only (comment_scan.h): inside a quoted or block scalar the same
  // text is a value's.
  static const RE2 kMarker(R"(#[^\n]*?\bSECRET-VERSION:([^\n]*))");
  for (const std::size_t hash : FindCommentStarts(text)) {
    const std::size_t end = std::min(text.find('\n', hash), text.size());
    re2::StringPiece value;
    if (!RE2::FullMatch(re2::StringPiece(text.data() + hash, end - hash), kMarker, &value)) {
      continue;
    }
    Marker marker;
    marker.text = std::string(TrimBlanks(std::string_view(value.data(), value.size())));
    marker.value = ParseMarkerValue(marker.text);
    marker.line = lines.LineOf(hash);
    std::size_t line_start = lines.LineStart(marker.line);
    marker.trailing = std::any_of(text.begin() + static_cast<std::ptrdiff_t>(line_start),
                                  text.begin() + static_cast<std::ptrdiff_t>(hash),
                                  [](char c) { return c != ' ' && c != '\t'; });
    marker.where = Location{origin, 0, marker.line, hash - line_start + 1};
    markers.push_back(std::move(marker));
  }
  return markers;
}

bool MarkerBinds(const Marker& marker, const std::vector<std::uint32_t>& reference_lines) {
  std::size_t target = marker.trailing ? marker.line : marker.line + 1;
  return std::find(reference_lines.begin(), reference_lines.end(), target) != reference_lines.end();
}

}  // namespace rollcall
