#include "rules/checks.h"

namespace rollcall::rules {
namespace {

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const Document& doc : analysis.documents()) {
    if (doc.shape() != Document::Shape::kNotObject) continue;
    std::string message =
        doc.api_version().empty() && doc.kind().empty()
            ? "a mapping without apiVersion and kind is not a Kubernetes object (a values "
              "file?); skipped"
            : std::string("a mapping with ") + (doc.kind().empty() ? "an apiVersion" : "a kind") +
                  " and no " + (doc.kind().empty() ? "kind" : "apiVersion") +
                  " is not a Kubernetes object, and kubectl and Helm refuse to apply it (a "
                  "kustomization?); skipped";
    out.push_back(At("not-an-object", doc.Locate(), "", message));
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
