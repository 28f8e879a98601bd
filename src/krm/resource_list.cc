#include "rollcall/krm/resource_list.h"

#include <cerrno>
#include <cstdlib>
#include <set>

#include "rollcall/input_error.h"
#include "rollcall/yaml_text.h"

namespace rollcall {
namespace {

constexpr const char* kApiVersionV1 = "config.kubernetes.io/v1";
constexpr const char* kApiVersionV1Beta1 = "config.kubernetes.io/v1beta1";

// The one document holding the ResourceList; blank documents around it do not count.
const DocumentSpan& OnlyDocument(const Stream& stream) {
  const DocumentSpan* found = nullptr;
  for (const DocumentSpan& span : stream.documents()) {
    if (span.empty) continue;
    if (found != nullptr) {
      throw InputError(stream.Locate(span, span.begin),
                       "a second document: a KRM function reads exactly one ResourceList");
    }
    found = &span;
  }
  if (found == nullptr) {
    throw InputError(Location{stream.origin(), 0, 0, 0}, "no ResourceList: the input is empty");
  }
  return *found;
}

// The '-' of the block sequence entry whose content starts at `content`: the entry
// indicator, possibly on a line of its own above the content.
std::size_t DashBefore(std::string_view bytes, std::size_t content) {
  std::size_t pos = content;
  while (pos > 0) {
    char c = bytes[pos - 1];
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') break;
    --pos;
  }
  if (pos == 0 || bytes[pos - 1] != '-' || !OnlySpacesBefore(bytes, pos - 1))
    return std::string::npos;
  return pos - 1;
}

// The value of the first of `keys` present in the item's annotations.
std::string Annotation(const YamlNode& item, const char* key, const char* legacy_key) {
  YamlNode annotations = Child(Child(item, "metadata"), "annotations");
  std::string value = ScalarOr(Child(annotations, key));
  return value.empty() ? ScalarOr(Child(annotations, legacy_key)) : value;
}

std::optional<long long> ParseIndex(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  long long value = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || value < 0) return std::nullopt;
  return value;
}

ResourceListItem ReadItem(const Document& envelope, const YamlNode& node, std::size_t number) {
  std::string_view bytes = envelope.stream().bytes();
  Location where = envelope.Locate(node.Mark());
  if (!node.IsMap()) {
    throw InputError(where, "item " + std::to_string(number) + " is not a mapping");
  }
  ResourceListItem item;
  item.node = node;
  item.dash = DashBefore(bytes, envelope.Offset(node.Mark()));
  if (item.dash == std::string::npos) {
    throw InputError(where, "cannot find the '-' of item " + std::to_string(number) +
                                " (rollcall krm edits items written as \"- key: value\" entries)");
  }
  item.begin = LineStartOf(bytes, item.dash);
  YamlNode metadata = Child(node, "metadata");
  item.api_version = ScalarOr(Child(node, "apiVersion"));
  item.kind = ScalarOr(Child(node, "kind"));
  item.name = ScalarOr(Child(metadata, "name"));
  item.name_space = ScalarOr(Child(metadata, "namespace"));
  item.path = Annotation(node, kKrmPathAnnotation, kKrmLegacyPathAnnotation);
  item.index = ParseIndex(Annotation(node, kKrmIndexAnnotation, kKrmLegacyIndexAnnotation));
  return item;
}

// Where the top-level entry after `key` starts (its line), or the document's end.
std::size_t EntryEnd(const Document& envelope, const std::string& key) {
  bool after = false;
  for (const auto& entry : envelope.root()) {
    if (after) return LineStartOf(envelope.stream().bytes(), envelope.Offset(entry.first.Mark()));
    after = entry.first.Scalar() == key;
  }
  return envelope.span().end;
}

std::size_t EntryBegin(const Document& envelope, const std::string& key) {
  for (const auto& entry : envelope.root()) {
    if (entry.first.Scalar() == key) {
      return LineStartOf(envelope.stream().bytes(), envelope.Offset(entry.first.Mark()));
    }
  }
  return envelope.span().end;
}

// The spans of the entries are found by key: each key must be there once.
void RefuseDuplicateKeys(const Document& envelope) {
  std::set<std::string> seen;
  for (const auto& entry : envelope.root()) {
    const std::string key(entry.first.Scalar());
    if (!seen.insert(key).second) {
      throw InputError(envelope.Locate(entry.first.Mark()),
                       "the ResourceList has '" + key + "' twice");
    }
  }
}

}  // namespace

ResourceList ParseResourceList(const Stream& stream, const Limits& limits) {
  ResourceList list(ParseDocument(stream, OnlyDocument(stream), limits));
  const Document& envelope = list.envelope;
  const YamlNode& root = envelope.root();
  list.api_version = envelope.api_version();
  if (envelope.kind() != kResourceListKind ||
      (list.api_version != kApiVersionV1 && list.api_version != kApiVersionV1Beta1)) {
    throw InputError(envelope.Locate(),
                     "not a ResourceList: rollcall krm reads a ResourceList (apiVersion " +
                         std::string(kApiVersionV1) + " or " + kApiVersionV1Beta1 +
                         ") on stdin, or a plain stream when given a config file");
  }
  if (root.Style() == YamlStyle::kFlow) {
    throw InputError(envelope.Locate(),
                     "the ResourceList is written as JSON or in flow style; rollcall krm edits "
                     "the block-style YAML that kpt and kustomize send");
  }
  RefuseDuplicateKeys(envelope);
  list.function_config = Child(root, "functionConfig");
  YamlNode items = Child(root, "items");
  if (items.IsDefined() && !items.IsNull() && !items.IsSequence()) {
    throw InputError(envelope.Locate(items.Mark()), "items is not a sequence");
  }
  if (items.IsSequence() && items.size() > 0 && items.Style() == YamlStyle::kFlow) {
    throw InputError(
        envelope.Locate(items.Mark()),
        "items are written as a flow sequence (JSON); rollcall krm edits items "
        "written in block style (\"- apiVersion: …\"), as kpt and kustomize send them");
  }
  std::size_t number = 0;
  for (const YamlNode& node : items) {
    ResourceListItem item = ReadItem(envelope, node, ++number);
    // An alias ("- *name") has the start mark of the node it repeats, so its own
    // place is unknown: the error points at `items`.
    if (!list.items.empty() && item.dash <= list.items.back().dash) {
      throw InputError(envelope.Locate(items.Mark()),
                       "item " + std::to_string(number) +
                           " is an alias of an earlier item; rollcall krm edits each item's "
                           "own text");
    }
    list.items.push_back(std::move(item));
  }
  for (std::size_t i = 0; i < list.items.size(); ++i) {
    list.items[i].end =
        i + 1 < list.items.size() ? list.items[i + 1].begin : EntryEnd(envelope, "items");
  }
  list.end = envelope.span().end;
  if (Child(root, "results").IsDefined()) {
    list.results_begin = EntryBegin(envelope, "results");
    list.results_end = EntryEnd(envelope, "results");
  } else {
    list.results_begin = list.results_end = list.end;
  }
  return list;
}

}  // namespace rollcall
