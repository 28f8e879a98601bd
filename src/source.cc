// Sources: Secrets and ConfigMaps, decoded to the bytes a process reads.
#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "rollcall/base64.h"
#include "rollcall/consumer_kinds.h"
#include "rollcall/field_types.h"
#include "rollcall/input_error.h"
#include "rollcall/model.h"
#include "rollcall/object_type.h"
#include "rollcall/utf8.h"
#include "rollcall/yaml11.h"

namespace rollcall {

const char* SourceKindSlug(SourceKind kind) {
  return kind == SourceKind::kSecret ? "secret" : "configmap";
}

const char* SourceKindName(SourceKind kind) {
  return kind == SourceKind::kSecret ? "Secret" : "ConfigMap";
}

bool SourceId::operator<(const SourceId& other) const {
  if (kind != other.kind) return kind == SourceKind::kConfigMap;  // "configmap" < "secret"
  if (name_space != other.name_space) return name_space < other.name_space;
  return name < other.name;
}

bool SourceId::operator==(const SourceId& other) const {
  return kind == other.kind && name_space == other.name_space && name == other.name;
}

std::string SourceId::Describe() const {
  return std::string(SourceKindName(kind)) + " " + name_space + "/" + name;
}

void Source::DefinedIn(const Document& doc) {
  stream = &doc.stream();
  span = doc.span().index;
  // Only Helm 4's annotation is kept: a "# Source:" line, which template_path()
  // reads first, is read from the stream again when asked (Where).
  if (doc.Annotation(kHelm4FilenameAnnotation) != nullptr) {
    template_annotation = doc.template_path();
  }
}

Location Source::Where() const {
  if (stream == nullptr) return {};
  const DocumentSpan& defined_in = stream->documents()[span - 1];
  Location where = stream->Locate(defined_in, defined_in.begin + pos);
  if (where.source.empty()) where.source = template_annotation.str();
  return where;
}

std::string SourceId::Path() const {
  return std::string(SourceKindSlug(kind)) + "/" + name_space + "/" + name;
}

namespace {

// The API server refuses a Secret or ConfigMap whose values total more than this
// (MaxSecretSize). Checked as the entries are read: aliases can repeat one large
// value any number of times, and must not make rollcall hold or hash more than
// Kubernetes would accept.
constexpr std::size_t kMaxDataBytes = std::size_t{1} << 20;

// One object inside a document: the document itself, or an item of a List.
struct Object {
  const Document& doc;  // for locations
  YamlNode node;
  std::string description;  // "Secret ns/name", for messages
  SourceKind kind;
};

// A source's entries as they are read, the size of all its values kept within
// kMaxDataBytes.
struct EntryReader {
  const Object& object;
  SourceKind kind;
  // Each field's entries come sorted by key, a key once (JsonEntries). Their bytes
  // go one after the other into `text`, an entry being four offsets: a source of a
  // hundred thousand short entries took 96 bytes an entry in a std::map of strings,
  // most of what reading it cost beside its tree (docs/performance.md).
  struct Slot {
    std::uint32_t key, key_end, value, value_end;
  };
  std::string text;
  std::vector<Slot> slots;
  std::size_t earlier = 0;  // how many of `slots` the fields read before this one gave
  std::size_t total = 0;

  std::string_view Key(const Slot& slot) const {
    return std::string_view(text).substr(slot.key, slot.key_end - slot.key);
  }
  std::string_view Value(const Slot& slot) const {
    return std::string_view(text).substr(slot.value, slot.value_end - slot.value);
  }

  // The next field's entries, `count` of them, go over the earlier fields'
  // (stringData over data).
  void NextField(std::size_t count) {
    earlier = slots.size();
    slots.reserve(slots.size() + count);
  }

  // Sets `key` to `value`: a later field's value of a key replaces the earlier one.
  void Store(std::string_view key, std::string_view value) {
    auto before = slots.begin() + static_cast<std::ptrdiff_t>(earlier);
    auto found = std::lower_bound(slots.begin(), before, key, [&](const Slot& slot, auto wanted) {
      return Key(slot) < wanted;
    });
    const bool replaces = found != before && Key(*found) == key;
    total = total - (replaces ? Value(*found).size() : 0) + value.size();
    if (total > kMaxDataBytes) {
      throw InputError(object.doc.Locate(object.node.Mark()),
                       object.description + ": its values total more than " +
                           std::to_string(kMaxDataBytes) +
                           " bytes, which the API server refuses in a " + SourceKindName(kind));
    }
    // A replaced value's bytes stay in `text`, unread: the API server's 1 MiB bounds them.
    if (replaces) {
      std::tie(found->value, found->value_end) = Append(value);
      return;
    }
    Slot slot{};
    std::tie(slot.key, slot.key_end) = Append(key);
    std::tie(slot.value, slot.value_end) = Append(value);
    slots.push_back(slot);
  }

  // Appends `bytes` to `text`; where they begin and end there.
  std::pair<std::uint32_t, std::uint32_t> Append(std::string_view bytes) {
    const auto begin = static_cast<std::uint32_t>(text.size());
    text.append(bytes);
    return {begin, static_cast<std::uint32_t>(text.size())};
  }

  // All the fields' entries, sorted by key.
  SourceEntries Take() {
    std::inplace_merge(slots.begin(), slots.begin() + static_cast<std::ptrdiff_t>(earlier),
                       slots.end(),
                       [&](const Slot& left, const Slot& right) { return Key(left) < Key(right); });
    return {slots.size(), [&](std::size_t i) {
              return SourceEntries::Entry{Key(slots[i]), Value(slots[i])};
            }};
  }
};

// The API server's words for a bool or a number where `field` wants a string: a
// Secret's data and a ConfigMap's binaryData hold bytes ([]uint8), the others
// strings.
// "Secret ns/name: data.key", naming an entry in a message (never its value).
std::string EntryName(const Object& object, const char* field, std::string_view key) {
  return object.description + ": " + field + "." + std::string(key);
}

std::string NotAString(const Object& object, const char* field, std::string_view key,
                       ResolvedScalar::Type type) {
  const std::string kind = SourceKindName(object.kind);
  const std::string field_name(field);
  const bool bytes = field_name == "binaryData" || (kind == "Secret" && field_name == "data");
  return EntryName(object, field, key) +
         NotAStringMessage(type, kind, "v1", kind + "." + field_name, bytes ? "[]uint8" : "string");
}

// Calls `take(key, value_node)` for each entry of the mapping at `field`, checking
// that it is a mapping of scalars (the API server takes only strings there); the
// reader is told first that a field starts and how many entries it has.
template <typename Take>
void ForEachEntry(EntryReader& reader, const char* field, Take take) {
  const Object& object = reader.object;
  YamlNode map = Child(object.node, field);
  if (!map.IsDefined() || map.IsNull()) return;
  if (!map.IsMap()) {
    throw InputError(object.doc.Locate(map.Mark()),
                     object.description + ": " + field + " must be a mapping of keys to strings");
  }
  // The entries as Kubernetes reads them: keys as JSON keys (`on:` is "true"),
  // merge keys (<<: *base) expanded, the last duplicate winning (yaml11.h). A key
  // node is kept for each, to place messages at (a merged one's is where the merged
  // mapping wrote it).
  const JsonMapping entries = JsonEntries(map);
  reader.NextField(entries.size());
  for (const JsonMapping::Entry& entry : entries) {
    const std::string_view key = entry.key;
    const YamlNode& value = entry.value;
    if (!value.IsNull() && !value.IsScalar()) {
      throw InputError(object.doc.Locate(value.Mark()),
                       EntryName(object, field, key) + " must be a string, not a " +
                           (value.IsMap() ? "mapping" : "sequence"));
    }
    if (IsNonStringScalar(value)) {
      // yes, 0123, 1e3 unquoted: YAML 1.1 makes them a bool or a number, and the API
      // server refuses the object. Placed at the key: the value is never shown.
      throw InputError(object.doc.Locate(entry.key_node.Mark()),
                       NotAString(object, field, key, ResolveScalar(value).type));
    }
    take(key, value);
  }
}

// The string Kubernetes reads in a value node. A value tagged !!binary is base64
// that go-yaml decodes to bytes, and encoding/json then writes those bytes as a JSON
// string, each byte that is not UTF-8 replaced by U+FFFD; any other value is its
// text.
std::string ValueText(const Object& object, const char* field, std::string_view key,
                      const YamlNode& value) {
  if (!value.IsDefined() || !value.IsScalar() || value.Tag() != "tag:yaml.org,2002:binary") {
    // `!!null null` is null to go-yaml, an empty string in the object.
    if (ResolveScalar(value).type == ResolvedScalar::Type::kNull) return "";
    return ScalarOr(value);
  }
  std::optional<std::string> bytes = DecodeBase64(value.Scalar());
  if (!bytes) {
    throw InputError(object.doc.Locate(value.Mark()),
                     EntryName(object, field, key) +
                         " is tagged !!binary but is not base64 (yaml: !!binary value contains "
                         "invalid base64 data)");
  }
  std::string text;
  for (std::size_t i = 0; i < bytes->size();) {
    char32_t c = 0;
    std::size_t length = DecodeUtf8(*bytes, i, c);
    if (length == 0) {
      text += "\xEF\xBF\xBD";
      ++i;
    } else {
      text.append(*bytes, i, length);
      i += length;
    }
  }
  return text;
}

void ReadBase64Entries(EntryReader& reader, const char* field) {
  const Object& object = reader.object;
  ForEachEntry(reader, field, [&](std::string_view key, const YamlNode& value) {
    std::optional<std::string> decoded = DecodeBase64(ValueText(object, field, key, value));
    if (!decoded) {
      // Name the object and the key; the value may be a secret and is never shown.
      throw InputError(object.doc.Locate(value.Mark()),
                       EntryName(object, field, key) + " is not valid base64");
    }
    reader.Store(key, std::move(*decoded));
  });
}

void ReadStringEntries(EntryReader& reader, const char* field) {
  ForEachEntry(reader, field, [&](std::string_view key, const YamlNode& value) {
    reader.Store(key, ValueText(reader.object, field, key, value));
  });
}

// ValidateConfigMap refuses a key in both `data` and `binaryData`.
void RefuseKeysInDataAndBinaryData(const Document& doc, const YamlNode& node) {
  const YamlNode binary = Child(node, "binaryData");
  if (!binary.IsMap()) return;
  const std::map<std::string, YamlNode> binary_keys = JsonObject(binary);
  const YamlNode data = Child(node, "data");
  if (!data.IsMap()) return;
  for (const auto& [key, value] : JsonObject(data)) {
    if (binary_keys.count(key) == 0) continue;
    throw InputError(doc.Locate(value.Mark()),
                     doc.Describe() + ": data[" + key + "]: Invalid value: \"" + key +
                         "\": duplicate of key present in binaryData; the API server refuses "
                         "the ConfigMap");
  }
}

std::optional<Source> SourceOf(const Document& doc, const YamlNode& node,
                               const std::string& default_namespace) {
  const ObjectType type = TypeOf(doc, node);
  if (type.api_version != "v1") return std::nullopt;
  const std::string& kind = type.kind;
  if (kind != "Secret" && kind != "ConfigMap") return std::nullopt;
  YamlNode metadata = Child(node, "metadata");
  Source source;
  source.id.kind = kind == "Secret" ? SourceKind::kSecret : SourceKind::kConfigMap;
  source.id.name = ScalarOr(Child(metadata, "name"));
  source.id.name_space = ScalarOr(Child(metadata, "namespace"), default_namespace);
  if (source.id.name_space.empty()) source.id.name_space = default_namespace;
  // Decoded into the typed object before anything is stored: `immutable: "true"` is
  // refused as any field of the wrong type is.
  BoolField(doc, Child(node, "immutable"), "immutable");
  if (kind == "Secret") StringField(doc, Child(node, "type"), "type");
  Object object{doc, node, source.id.Describe(), source.id.kind};
  EntryReader reader{object, source.id.kind, {}, {}, 0, 0};
  if (source.id.kind == SourceKind::kSecret) {
    ReadBase64Entries(reader, "data");
    // The API server merges stringData over data; a key in both takes stringData.
    ReadStringEntries(reader, "stringData");
  } else {
    ReadStringEntries(reader, "data");
    ReadBase64Entries(reader, "binaryData");
    RefuseKeysInDataAndBinaryData(doc, node);
  }
  source.entries = reader.Take();
  source.pos = static_cast<std::uint32_t>(MarkPos(node.Mark()));
  return source;
}

}  // namespace

std::optional<Source> ExtractSource(const Document& doc, const std::string& default_namespace) {
  if (doc.shape() != Document::Shape::kObject) return std::nullopt;
  return SourceOf(doc, doc.root(), default_namespace);
}

std::vector<Source> ExtractStateSources(const Document& doc, const std::string& default_namespace) {
  std::vector<Source> sources;
  if (doc.shape() != Document::Shape::kObject) return sources;
  if (!IsList(doc)) {
    if (std::optional<Source> source = ExtractSource(doc, default_namespace)) {
      sources.push_back(std::move(*source));
    }
    return sources;
  }
  YamlNode items = Child(doc.root(), "items");
  if (!items.IsSequence()) return sources;
  for (const auto& item : items) {
    if (!item.IsMap()) continue;
    if (std::optional<Source> source = SourceOf(doc, item, default_namespace)) {
      sources.push_back(std::move(*source));
    }
  }
  return sources;
}

}  // namespace rollcall
