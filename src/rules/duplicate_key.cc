#include "rules/checks.h"

namespace rollcall::rules {
namespace {

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const Document& doc : analysis.documents()) {
    if (doc.shape() != Document::Shape::kObject) continue;
    std::string object = ObjectName(doc, analysis.options().default_namespace);
    for (const auto& duplicate : doc.duplicate_keys()) {
      out.push_back(At("duplicate-key", doc.LocateAt(duplicate.pos), object,
                       "key \"" + duplicate.key +
                           "\" appears again in this mapping (first at line " +
                           std::to_string(doc.LocateAt(duplicate.first_pos).line) +
                           "); Kubernetes applies the last one and silently drops the first"));
    }
  }
}

}  // namespace

Rule DuplicateKey() {
  return {"duplicate-key",
          Severity::kError,
          "A mapping in an object rollcall reads has the same key twice.",
          "YAML forbids it, yet most tools accept it and disagree on which value wins. "
          "Kubernetes applies the last one, so the first (often the one a reviewer reads) has "
          "no effect. Checked in the objects rollcall parses: Secrets, ConfigMaps, workloads, "
          "objects that declare a rotation or carry rollcall.dev/ annotations; the others (CRDs, "
          "Services, RBAC) get only the text checks, to keep rollcall cheap inside helm upgrade.",
          "Delete one of the two entries.",
          Check};
}

}  // namespace rollcall::rules
