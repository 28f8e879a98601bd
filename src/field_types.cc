#include "rollcall/field_types.h"

#include "rollcall/input_error.h"
#include "rollcall/object_type.h"
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
  for (const char* strings : {"labels", "annotations"}) {
    const std::string path = field + "." + strings;
    YamlNode map = MapField(doc, Child(metadata, strings), path);
    if (!map.IsDefined()) continue;
    for (const auto& entry : JsonObject(map)) StringField(doc, entry.second, path);
  }
}

void CheckObjectFields(const Document& doc, const YamlNode& object, const std::string& prefix) {
  YamlNode api_version = Child(object, "apiVersion");
  YamlNode kind = Child(object, "kind");
  // An item of a typed List is an object with the List's type (object_type.h).
  const bool typed_item = !object.is(doc.root()) && !api_version.IsDefined() && !kind.IsDefined() &&
                          !TypeOf(doc, object).kind.empty();
  if ((!api_version.IsDefined() || !kind.IsDefined()) && !typed_item) return;
  StringField(doc, api_version, prefix + "apiVersion");
  StringField(doc, kind, prefix + "kind");
  YamlNode metadata = Child(object, "metadata");
  StringField(doc, Child(metadata, "name"), prefix + "metadata.name");
  StringField(doc, Child(metadata, "namespace"), prefix + "metadata.namespace");
  CheckMetadataField(doc, metadata, prefix + "metadata");
}

void CheckListItem(const Document& doc, const YamlNode& item) {
  if (IsNullOrAbsent(item)) {
    // Decoded as an object of nothing: no kind, or in a typed List no name.
    throw InputError(doc.Locate(item.Mark()),
                     doc.Describe() +
                         ": an item of a List that is null, which kubectl reads as "
                         "an object without a kind or a name and refuses to apply "
                         "(Object 'Kind' is missing); remove it");
  }
  YamlNode object = MapField(doc, item, "items");
  if (!object.IsDefined()) return;
  const ObjectType type = TypeOf(doc, object);
  for (const std::string* field : {&type.api_version, &type.kind}) {
    if (!field->empty()) continue;
    const char* name = field == &type.kind ? "kind" : "apiVersion";
    throw InputError(doc.Locate(object.Mark()),
                     doc.Describe() + ": Object '" + name +
                         "' is missing: an item of a List without its " + name +
                         " (kubectl gives it the List's only when both are missing and the "
                         "List's kind names its items, as SecretList does), which kubectl and "
                         "Helm refuse to apply");
  }
  if (type.kind == "List" || Child(object, "items").IsSequence()) {
    // kubectl applies a List's items, and finds no resource for a List among them
    // (an item with items of its own is one: "is not a list: no Items field").
    throw InputError(doc.Locate(object.Mark()),
                     doc.Describe() +
                         ": a List inside a List, which kubectl and Helm refuse to "
                         "apply (no matches for kind \"List\" in version \"" +
                         type.api_version + "\"); write its items in the outer List");
  }
  CheckObjectFields(doc, object, "items.");
}

}  // namespace rollcall
