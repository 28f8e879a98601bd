#include <map>

#include "rules/checks.h"

namespace rollcall::rules {
namespace {

void Walk(const Document& doc, const YAML::Node& node, const std::string& object,
          std::vector<Finding>& out) {
  if (node.IsSequence()) {
    for (const auto& item : node) Walk(doc, item, object, out);
    return;
  }
  if (!node.IsMap()) return;
  std::map<std::string, YAML::Mark> seen;
  for (const auto& entry : node) {
    // An alias revisits its anchor's node; walking it again would repeat findings.
    if (doc.Offset(entry.second.Mark()) >= doc.Offset(entry.first.Mark())) {
      Walk(doc, entry.second, object, out);
    }
    if (!entry.first.IsScalar()) continue;
    auto [it, inserted] = seen.emplace(entry.first.Scalar(), entry.first.Mark());
    if (inserted) continue;
    out.push_back(At("duplicate-key", doc.Locate(entry.first.Mark()), object,
                     "key \"" + entry.first.Scalar() +
                         "\" appears again in this mapping (first "
                         "at line " +
                         std::to_string(doc.Locate(it->second).line) +
                         "); Kubernetes applies the last one and silently drops the first"));
  }
}

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const Document& doc : analysis.documents()) {
    if (doc.shape() != Document::Shape::kObject) continue;
    Walk(doc, doc.root(), ObjectName(doc, analysis.options().default_namespace), out);
  }
}

}  // namespace

Rule DuplicateKey() {
  return {"duplicate-key",
          Severity::kError,
          "A mapping in a manifest has the same key twice.",
          "YAML forbids it, yet most tools accept it and disagree on which value wins. "
          "Kubernetes applies the last one, so the first (often the one a reviewer reads) has "
          "no effect.",
          "Delete one of the two entries.",
          Check};
}

}  // namespace rollcall::rules
