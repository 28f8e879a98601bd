// An object's apiVersion and kind as kubectl reads them, for a document and for an
// item of a List alike.
#pragma once

#include <string>
#include <string_view>

#include "rollcall/document.h"
#include "rollcall/yaml_tree.h"

namespace rollcall {

struct ObjectType {
  std::string api_version;
  std::string kind;
};

// Whether `kind` names a List: `List`, or a typed one such as `SecretList`.
bool IsListKind(std::string_view kind);

// The type of `object`, the root of `doc` or an item of the List `doc` is. An item
// written without both apiVersion and kind has the List's apiVersion and its kind
// without "List": apimachinery's List decoding gives the items of a typed list
// (`SecretList`) their type so, as the API server writes them without one.
ObjectType TypeOf(const Document& doc, const YamlNode& object);

// Whether kubectl reads `doc` as a List: an object with an `items` field, whatever its
// kind and whatever the field holds (null is a List of nothing). Only its items are
// applied, none of its own fields.
bool IsList(const Document& doc);

}  // namespace rollcall
