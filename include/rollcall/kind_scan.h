// Reading a document's apiVersion and kind from its text, before (and often
// instead of) a parse. Render builds no tree for documents of kinds it
// neither edits nor reads (docs/performance.md), so the scan must never name a
// kind the parser would not: whenever the text is not plainly a mapping with both
// keys at its top level, it gives up and the document is parsed.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rollcall {

struct TypeHeader {
  std::string api_version;
  std::string kind;
};

// The top-level `apiVersion` and `kind` of one document's text (a DocumentSpan's
// text: markers, "# Source:" and other comments included), in block style or as a
// flow mapping / JSON object. Keys may be quoted; values must be plain or quoted
// scalars on one line, without tags, anchors or aliases. Of duplicate keys the
// last wins, as Child() reads them. nullopt when either key is missing or empty
// (the document is then not an object, which the parse reports) or when the scan
// is unsure: a root that is not a block or flow mapping, a multi-line quoted
// scalar or flow collection inside a block document, a merge key, a complex key,
// an escape in a double-quoted value, a null value.
std::optional<TypeHeader> ScanTypeHeader(std::string_view text);

// What the same scan tells of a document: its type as above, or that the text is
// plainly a mapping (read to its end without giving up) with neither apiVersion nor
// kind at its top level, which is not a Kubernetes object (a values file), and where
// its first key is (the tree's mark for the root).
struct TypeScan {
  std::optional<TypeHeader> type;
  bool plainly_not_an_object = false;
  std::size_t first_key = 0;
};
TypeScan ScanType(std::string_view text);

}  // namespace rollcall
