#include "rollcall/field_types.h"

#include "rollcall/input_error.h"
#include "rollcall/yaml11.h"

namespace rollcall {
namespace {

// How encoding/json names the JSON type of a node.
const char* JsonTypeOf(const YamlNode& node) {
  if (node.IsMap()) return "object";
  if (node.IsSequence()) return "array";
  return JsonTypeName(ResolveScalar(node).type);
}

bool IsNullOrAbsent(const YamlNode& node) {
  return !node.IsDefined() || ResolveScalar(node).type == ResolvedScalar::Type::kNull;
}

[[noreturn]] void RefuseShape(const Document& doc, const YamlNode& node, const std::string& field,
                              const char* wanted) {
  const char* type = JsonTypeOf(node);
  throw InputError(doc.Locate(node.Mark()),
                   doc.Describe() + ": " + field + " is " +
                       (type[0] == 'o' || type[0] == 'a' ? "an " : "a ") + type +
                       " to Kubernetes, where " + wanted +
                       " belongs. The API server refuses the object: \"" + doc.kind() +
                       " in version \\\"" + doc.api_version() + "\\\" cannot be handled as a " +
                       doc.kind() + ": json: cannot unmarshal " + type + " into Go struct field " +
                       doc.kind() + "." + field + "\"");
}

}  // namespace

std::string StringField(const Document& doc, const YamlNode& node, const std::string& field) {
  if (IsNonStringScalar(node)) {
    throw InputError(doc.Locate(node.Mark()),
                     doc.Describe() + ": " + field +
                         NotAStringMessage(ResolveScalar(node).type, doc.kind(), doc.api_version(),
                                           doc.kind() + "." + field, "string"));
  }
  if (node.IsMap() || node.IsSequence()) RefuseShape(doc, node, field, "a string");
  return ScalarOr(node);
}

bool BoolField(const Document& doc, const YamlNode& node, const std::string& field) {
  if (IsNullOrAbsent(node)) return false;
  if (node.IsScalar()) {
    ResolvedScalar value = ResolveScalar(node);
    if (value.type == ResolvedScalar::Type::kBool) return value.boolean;
    throw InputError(
        doc.Locate(node.Mark()),
        doc.Describe() + ": " + field +
            NotABoolMessage(value.type, doc.kind(), doc.api_version(), doc.kind() + "." + field));
  }
  RefuseShape(doc, node, field, "true or false");
}

YamlNode MapField(const Document& doc, const YamlNode& node, const std::string& field) {
  if (IsNullOrAbsent(node)) return YamlNode();
  if (!node.IsMap()) RefuseShape(doc, node, field, "a mapping");
  return node;
}

YamlNode ListField(const Document& doc, const YamlNode& node, const std::string& field) {
  if (IsNullOrAbsent(node)) return YamlNode();
  if (!node.IsSequence()) RefuseShape(doc, node, field, "a list");
  return node;
}

void CheckMetadataField(const Document& doc, const YamlNode& node, const std::string& field) {
  YamlNode metadata = MapField(doc, node, field);
  YamlNode annotations = MapField(doc, Child(metadata, "annotations"), field + ".annotations");
  if (!annotations.IsDefined()) return;
  for (const auto& entry : JsonObject(annotations)) {
    StringField(doc, entry.second, field + ".annotations");
  }
}

void CheckObjectFields(const Document& doc, const YamlNode& object, const std::string& prefix) {
  YamlNode api_version = Child(object, "apiVersion");
  YamlNode kind = Child(object, "kind");
  if (!api_version.IsDefined() || !kind.IsDefined()) return;
  StringField(doc, api_version, prefix + "apiVersion");
  StringField(doc, kind, prefix + "kind");
  YamlNode metadata = Child(object, "metadata");
  StringField(doc, Child(metadata, "name"), prefix + "metadata.name");
  StringField(doc, Child(metadata, "namespace"), prefix + "metadata.namespace");
  CheckMetadataField(doc, metadata, prefix + "metadata");
}

void CheckListItem(const Document& doc, const YamlNode& item) {
  YamlNode object = MapField(doc, item, "items");
  if (!object.IsDefined()) return;
  for (const char* field : {"apiVersion", "kind"}) {
    if (!ScalarOr(Child(object, field)).empty()) continue;
    throw InputError(doc.Locate(object.Mark()), doc.Describe() + ": Object '" + field +
                                                    "' is missing: an item of a List "
                                                    "without its " +
                                                    field +
                                                    ", which kubectl and Helm refuse to apply");
  }
  CheckObjectFields(doc, object, "items.");
}

}  // namespace rollcall
