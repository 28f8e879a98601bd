#include "rules/checks.h"

namespace rollcall::rules {
namespace {

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const Document& doc : analysis.documents()) {
    if (doc.shape() != Document::Shape::kNotObject) continue;
    out.push_back(At("not-an-object", doc.Locate(), "",
                     "a mapping without apiVersion and kind is not a Kubernetes object "
                     "(a values file?); skipped"));
  }
}

}  // namespace

Rule NotAnObject() {
  return {"not-an-object",
          Severity::kInfo,
          "A YAML document is not a Kubernetes object and is skipped.",
          "Helm values files and kustomizations often sit beside manifests. They are not "
          "rollcall's business, but a manifest that lost its kind would be skipped too, so "
          "rollcall says so.",
          "Nothing, if it is not a manifest; otherwise add apiVersion and kind.",
          Check};
}

}  // namespace rollcall::rules
