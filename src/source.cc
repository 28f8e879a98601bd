// Sources: Secrets and ConfigMaps, decoded to the bytes a process reads.
#include <optional>

#include "rollcall/base64.h"
#include "rollcall/input_error.h"
#include "rollcall/model.h"

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

namespace {

// Calls `take(key, value_node)` for each entry of the mapping at `field`, checking
// that it is a mapping of scalars (the API server takes only strings there).
template <typename Take>
void ForEachEntry(const Document& doc, const char* field, Take take) {
  YAML::Node map = Child(doc.root(), field);
  if (!map.IsDefined() || map.IsNull()) return;
  if (!map.IsMap()) {
    throw InputError(doc.Locate(map.Mark()),
                     doc.Describe() + ": " + field + " must be a mapping of keys to strings");
  }
  for (const auto& entry : map) {
    const YAML::Node& value = entry.second;
    std::string key = ScalarOr(entry.first);
    if (!value.IsNull() && !value.IsScalar()) {
      throw InputError(doc.Locate(value.Mark()), doc.Describe() + ": " + field + "." + key +
                                                     " must be a string, not a " +
                                                     (value.IsMap() ? "mapping" : "sequence"));
    }
    take(key, value);
  }
}

void ReadBase64Entries(const Document& doc, const char* field, Source& source) {
  ForEachEntry(doc, field, [&](const std::string& key, const YAML::Node& value) {
    std::optional<std::string> decoded = DecodeBase64(ScalarOr(value));
    if (!decoded) {
      // Name the object and the key; the value may be a secret and is never shown.
      throw InputError(doc.Locate(value.Mark()),
                       doc.Describe() + ": " + field + "." + key + " is not valid base64");
    }
    source.entries[key] = std::move(*decoded);
  });
}

void ReadStringEntries(const Document& doc, const char* field, Source& source) {
  ForEachEntry(doc, field, [&](const std::string& key, const YAML::Node& value) {
    source.entries[key] = ScalarOr(value);
  });
}

}  // namespace

std::optional<Source> ExtractSource(const Document& doc, const std::string& default_namespace) {
  if (doc.shape() != Document::Shape::kObject || doc.api_version() != "v1") return std::nullopt;
  Source source;
  if (doc.kind() == "Secret") {
    source.id.kind = SourceKind::kSecret;
    ReadBase64Entries(doc, "data", source);
    // The API server merges stringData over data; a key in both takes stringData.
    ReadStringEntries(doc, "stringData", source);
  } else if (doc.kind() == "ConfigMap") {
    source.id.kind = SourceKind::kConfigMap;
    ReadStringEntries(doc, "data", source);
    ReadBase64Entries(doc, "binaryData", source);
  } else {
    return std::nullopt;
  }
  source.id.name = doc.name();
  source.id.name_space =
      doc.declared_namespace().empty() ? default_namespace : doc.declared_namespace();
  source.where = doc.Locate();
  return source;
}

}  // namespace rollcall
