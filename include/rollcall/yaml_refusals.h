// What Kubernetes' YAML reader refuses. Helm, kubectl and the API server read YAML
// with go-yaml v2, a port of libyaml, then check what go-yaml's decoder and
// sigs.k8s.io/yaml's conversion to JSON refuse (a `!!int` on text that is not an
// integer, a null key, a float JSON cannot hold). rollcall must not hash, annotate
// or report on a document the apply would refuse, so every document it reads goes
// through libyaml's parser, with go-yaml's own differences from libyaml 0.2.5 and
// its decoder's checks on top (docs/yaml.md, "What rollcall refuses"); the same
// pass builds the document's tree (yaml_tree.h).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "rollcall/yaml_tree.h"

namespace rollcall {

struct YamlRefusal {
  std::size_t offset = 0;  // in the document's text
  std::string message;     // never quotes the document's bytes
};

// The first thing in `document` (one piece of a stream, as SplitDocuments cuts it;
// only its first YAML document is read, as go-yaml reads it) that Kubernetes'
// YAML reader refuses:
//  - what libyaml's parser refuses, in its words ("did not find expected key");
//  - the escape "\/" in a double-quoted scalar (YAML 1.2; libyaml 0.2.5 takes it,
//    go-yaml v2 does not);
//  - a core tag its scalar does not fit (`!!int abc`, `!!null x`), a `!!binary`
//    that is not base64;
//  - a mapping key that is null (`~:`, `{~: x}`) or a mapping or a sequence, or
//    `.nan` (not refused by Kubernetes, but read at random: see the .cc);
//  - a merge key (`<<`) whose value is not a mapping or a sequence of mappings;
//  - an alias of an anchor not defined before it, or inside the node it names;
//  - a value that resolves to .inf or .nan, which JSON cannot hold.
// The text must be UTF-8 (FindTextProblem checks that first). With `builder`, the
// document's nodes go to it as they are read (the tree is whole only when nothing
// is refused). With `json`, `document` is JsonForYamlParser's copy of that JSON
// value (json_document.h), and each string's value is read from `json`.
std::optional<YamlRefusal> FindYamlRefusal(std::string_view document,
                                           YamlTreeBuilder* builder = nullptr,
                                           std::string_view json = {});

// A document read into its tree by that same pass: the tree, or, when Kubernetes
// refuses the document, the refusal and no tree.
struct ParsedTree {
  std::unique_ptr<YamlTree> tree;
  std::optional<YamlRefusal> refusal;
};
ParsedTree ParseTree(std::string_view document, std::string_view json = {});

}  // namespace rollcall
