#include "rollcall/object_type.h"

#include <string_view>

namespace rollcall {
namespace {
constexpr std::string_view kList = "List";
}  // namespace

bool IsListKind(std::string_view kind) {
  return kind.size() >= kList.size() && kind.substr(kind.size() - kList.size()) == kList;
}

ObjectType TypeOf(const Document& doc, const YamlNode& object) {
  ObjectType type{ScalarOr(Child(object, "apiVersion")), ScalarOr(Child(object, "kind"))};
  if (object.is(doc.root()) || !type.api_version.empty() || !type.kind.empty()) return type;
  std::string_view list_kind = doc.kind().view();
  if (IsListKind(list_kind)) list_kind.remove_suffix(kList.size());
  return {doc.api_version().str(), std::string(list_kind)};
}

bool IsList(const Document& doc) {
  return doc.shape() == Document::Shape::kObject && doc.has_tree() &&
         Child(doc.root(), "items").IsDefined();
}

}  // namespace rollcall
