// The fields rollcall reads, as the API server decodes them. It decodes an object's
// JSON into typed Go structs and refuses the whole object when a field holds the
// wrong JSON type: `name: 0123` (a number to YAML 1.1), `optional: 'true'` (a
// string), `env: x` where a list belongs. rollcall reads those fields through these
// functions, which refuse the same objects with the API server's words (naming the
// field's path, never its value), so that nothing is hashed or reported of an
// object that will not be applied. A null or absent field is what Go decodes it
// to: the zero value.
#pragma once

#include <string>

#include "rollcall/document.h"
#include "rollcall/yaml_tree.h"

namespace rollcall {

// `field` is the field's path in the object, "spec.template.spec.containers.env";
// each throws InputError at `node`.

// A string field: ScalarOr's text, "" for null or absent.
std::string StringField(const Document& doc, const YamlNode& node, const std::string& field);

// A bool field (`optional: yes` is true; absent or null is false).
bool BoolField(const Document& doc, const YamlNode& node, const std::string& field);

// A field holding an object: `node` when it is a mapping, an undefined node when it
// is null or absent.
YamlNode MapField(const Document& doc, const YamlNode& node, const std::string& field);

// A field holding a list: `node` when it is a sequence, an undefined node when it is
// null or absent.
YamlNode ListField(const Document& doc, const YamlNode& node, const std::string& field);

// A metadata field (an object's, or a pod template's): a mapping whose annotations
// are a mapping of strings; the name and namespace are the caller's to read.
void CheckMetadataField(const Document& doc, const YamlNode& node, const std::string& field);

// The fields every object has (apiVersion, kind, metadata with its name, namespace
// and annotations), when `object` is one to the API server (apiVersion and kind
// both given; anything else is no object to it). `prefix` is "" for a document's
// root, "items." for an item of a List.
void CheckObjectFields(const Document& doc, const YamlNode& object, const std::string& prefix);

// An item of a List (`item` is one element of its items): an object, with an
// apiVersion and a kind (kubectl refuses an item without them, "Object 'Kind' is
// missing"), checked as CheckObjectFields checks one.
void CheckListItem(const Document& doc, const YamlNode& item);

}  // namespace rollcall
