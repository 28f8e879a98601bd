// Byte edits that set or remove annotations on a pod template, whatever the shape
// the template is written in: block or flow mappings, JSON, missing metadata or
// annotations, CRLF, any indentation. Everything outside the edited entries is left
// as it was (design.md, decision 1).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rollcall/document.h"
#include "rollcall/edit.h"
#include "rollcall/node_shape.h"
#include "rollcall/template_hash.h"

namespace rollcall {

// What EditAnnotations and SetScalarValue read of a pod template or an object:
// its entries, its metadata's and its metadata.annotations'.
CapturedShape CaptureForEdit(const YamlNode& map);

struct AnnotationChange {
  std::vector<std::pair<std::string, std::string>> set;  // key → value, in this order
  std::vector<std::string> remove;                       // keys to delete where present
};

// Edits that make `pod_template`'s metadata.annotations hold every `set` entry with
// exactly that value and none of the `remove` keys. Returns no edits when the
// template already says so (which makes render idempotent). Throws InputError when
// the template is written in a way rollcall cannot edit safely (the annotations
// are a YAML alias, or rollcall's value is a block scalar). `pod_template` is
// captured by CaptureForEdit.
std::vector<Edit> EditAnnotations(const Document& doc, const NodeShape& pod_template,
                                  const AnnotationChange& change);

// The change render makes to a consumer's pod template: its hash and the sources
// in it set, or, where it reads nothing rollcall holds, both removed (what an
// earlier run left).
AnnotationChange ConfigHashChange(const std::optional<TemplateHash>& hash);

// Whether EditAnnotations edits `pod_template` without an error for both of
// ConfigHashChange's changes, whatever the hash. Its errors come from how the
// template is written, never from the values set: a consumer for which this holds
// can have its edits planned later without a check (facts.cc lets its capture go).
bool EditsEitherConfigHashChange(const Document& doc, const NodeShape& pod_template);

}  // namespace rollcall

namespace rollcall {

// Edits that make the value of `key` in the captured mapping `map` read `text`,
// written as given (for a Job's new name). No edits when it already does. Throws InputError
// when the key is missing or its value is not a scalar rollcall can replace.
std::vector<Edit> SetScalarValue(const Document& doc, const NodeShape& map, const std::string& key,
                                 const std::string& text);

}  // namespace rollcall
