// Bounds checked before the YAML parser sees a byte. Every reader of the tree
// recurses once per nesting level, so a hostile "[[[[…" would overflow the stack;
// the check here estimates the nesting depth of a document from its text alone,
// erring high.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "rollcall/stream.h"

namespace rollcall {

struct Limits {
  std::size_t max_input_bytes = std::size_t{256} << 20;  // 256 MiB
  std::size_t max_depth = 512;  // Kubernetes objects, CRD schemas included, stay far below
  // The API server takes at most 3 MiB per object: a bigger document could only cost
  // time before the apply refuses it anyway.
  std::size_t max_document_bytes = std::size_t{8} << 20;  // 8 MiB
  std::size_t max_documents = kDefaultMaxDocuments;       // stream.h says why
};

// The limits for what `kubectl get` prints: one List of every object asked for (all
// the workloads of a namespace, every Secret named). Its size is held to the input
// limit, each object in it to the API server's own 3 MiB; the per-document limit,
// which is about one object, would refuse the List of a large namespace (2,000
// Deployments and their pods print 9 MB). Held below 4 GiB, where a document's
// offsets stop fitting in 32 bits.
Limits ListOutputLimits(Limits limits);

// What the text of one document shows wrong before any parser sees it.
struct TextProblem {
  enum class Kind {
    kTooLarge,
    kInvalidCharacter,
    kTooDeep,
    kUnterminatedQuote,
    kTabIndentation,
    kMissingColon,
    kMisplacedIndicator,
  };
  Kind kind = Kind::kTooDeep;
  std::size_t offset = 0;  // relative to the document's text
  std::string message;
};

// Scans a document's text before it is parsed, for the first of:
//  - a document larger than `limits.max_document_bytes`;
//  - bytes that are not UTF-8, or characters YAML does not allow (NUL and other
//    control characters): Kubernetes' YAML reader refuses them;
//  - nesting deeper than `limits.max_depth` (indentation levels, compact "- - -"
//    entries and flow brackets, outside quotes, comments and block scalars; the
//    estimate errs high);
//  - a quoted scalar that never closes;
//  - what Kubernetes refuses and yaml-cpp, rollcall's first parser, accepted: a tab
//    indenting a mapping entry, a line continuing a block mapping without a ':', a
//    ',' starting a value outside a flow collection. Named here by line, in
//    rollcall's words, before libyaml's parse would refuse them in its own.
std::optional<TextProblem> FindTextProblem(std::string_view text, const Limits& limits);

// What go-yaml's scanner refuses on `line`, which it reads past a document's end (the
// rest of the line after a flow collection that is the whole document, to tell whether
// that collection is a key): a character YAML does not allow, the escape "\/" in a
// double-quoted scalar.
std::optional<TextProblem> FindLookAheadProblem(std::string_view line);

// A document larger than `limits.max_document_bytes` (FindTextProblem's first check).
std::optional<TextProblem> FindOversizedDocument(std::string_view text, const Limits& limits);

// The message for nesting deeper than `max_depth`.
std::string TooDeepMessage(std::size_t max_depth);

// The first byte that is not valid UTF-8 or starts a character outside YAML's
// printable set (tab, line feed, carriage return, U+0020–U+007E, U+0085,
// U+00A0–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF), if any.
std::optional<TextProblem> FindInvalidCharacter(std::string_view text);

// The offset where `max_depth` is exceeded, if it is (FindTextProblem's depth part).
std::optional<std::size_t> FindExcessiveNesting(std::string_view text, std::size_t max_depth);

}  // namespace rollcall
