// SECRET-VERSION markers: comments that say how a change to a source reaches the
// process, read from the comments of the raw text (comment_scan.h) with RE2, so they
// are found in plain manifests, rendered Helm output and chart templates alike.
//
//   # SECRET-VERSION: pending            the rollout mechanism is still missing
//   # SECRET-VERSION: static: <reason>   no roll needed, and why
//   # SECRET-VERSION: reloads: <reason>  the process re-reads the mounted file
//   # SECRET-VERSION: checksum           asserts the reference is hashed
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rollcall/location.h"
#include "rollcall/stream.h"

namespace rollcall {

// The annotation that carries a marker value for every reference of a workload.
inline constexpr const char* kSecretVersionAnnotation = "rollcall.dev/secret-version";

enum class MarkerKind { kPending, kStatic, kReloads, kChecksum, kMalformed };
const char* MarkerKindName(MarkerKind kind);  // "pending", "static", …

struct MarkerValue {
  MarkerKind kind = MarkerKind::kMalformed;
  std::string reason;   // static, reloads: the reason given
  std::string problem;  // malformed: what is wrong with it
};

// Every marker contains this text.
inline constexpr std::string_view kMarkerText = "SECRET-VERSION:";

// Whether `text` may hold a marker: most streams have none, and a search for the
// text is many times faster than the marker expression.
inline bool MayHoldMarkers(std::string_view text) {
  return text.find(kMarkerText) != std::string_view::npos;
}

// Parses "pending", "static: <reason>", "reloads: <reason>", "checksum".
MarkerValue ParseMarkerValue(std::string_view text);

struct Marker {
  MarkerValue value;
  std::string text;       // the value as written, for messages
  std::size_t line = 0;   // 1-based line in the stream
  bool trailing = false;  // after content on the same line (else a comment-only line)
  Location where;
};

// Every marker in `text` (a stream, or a template file that does not parse),
// located by line; `origin` names the text in locations.
std::vector<Marker> ScanMarkers(std::string_view text, const LineIndex& lines,
                                const std::string& origin);

// True when `marker` binds to a reference occupying `reference_lines`: a trailing
// marker on one of those lines, or a comment-only marker on the line directly above
// one of them.
bool MarkerBinds(const Marker& marker, const std::vector<std::uint32_t>& reference_lines);

}  // namespace rollcall
