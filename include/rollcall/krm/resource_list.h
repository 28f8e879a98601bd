// The ResourceList of the KRM Functions Specification (config.kubernetes.io/v1 and
// v1beta1), as byte spans: where each item is in the input, so that rollcall can
// edit the items' bytes and copy everything else as it came (design.md, decision 1).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rollcall/document.h"
#include "rollcall/limits.h"
#include "rollcall/stream.h"
#include "rollcall/yaml_tree.h"

namespace rollcall {

inline constexpr const char* kResourceListKind = "ResourceList";

// The annotations orchestrators put on each item to name the file it came from:
// kpt and kyaml set both spellings; `internal.` is the current one.
inline constexpr const char* kKrmPathAnnotation = "internal.config.kubernetes.io/path";
inline constexpr const char* kKrmIndexAnnotation = "internal.config.kubernetes.io/index";
inline constexpr const char* kKrmLegacyPathAnnotation = "config.kubernetes.io/path";
inline constexpr const char* kKrmLegacyIndexAnnotation = "config.kubernetes.io/index";

// One entry of `items`, written as a block sequence entry ("- apiVersion: …").
struct ResourceListItem {
  std::size_t begin = 0;  // start of the line holding the entry's '-'
  std::size_t end = 0;    // start of the next entry's '-' line, or the end of `items`
  std::size_t dash = 0;   // offset of the '-'
  YamlNode node;          // the item as parsed within the ResourceList
  std::string api_version, kind, name, name_space;  // as written ("" when absent)
  std::string path;                                 // the path annotation, or ""
  std::optional<long long> index;                   // the index annotation, if any
};

struct ResourceList {
  explicit ResourceList(Document parsed) : envelope(std::move(parsed)) {}

  Document envelope;  // the ResourceList itself, parsed as one document
  std::string api_version;
  std::vector<ResourceListItem> items;
  YamlNode function_config;  // undefined when the ResourceList has none
  // An existing top-level `results` entry [results_begin, results_end), dropped from
  // the output (results are the function's output, never its input); equal when none.
  std::size_t results_begin = 0, results_end = 0;
  std::size_t end = 0;  // end of the ResourceList's text: where rollcall's results go
};

// Reads the ResourceList in `stream` (the stream must outlive the result: the items'
// nodes belong to its parsed document). Throws InputError, naming the line, when the
// stream is not one ResourceList, or when its items are written in a way rollcall
// cannot edit as bytes (a flow sequence, as JSON writes it).
ResourceList ParseResourceList(const Stream& stream, const Limits& limits);

}  // namespace rollcall
