#include <map>

#include "rules/checks.h"

namespace rollcall::rules {
namespace {

// Documents of one input said one by one; past that, one finding counts the rest, so
// that a stream of a million values-like documents makes a few lines, not a million.
constexpr std::size_t kSaidPerInput = 5;

std::string Message(const Document& doc) {
  return doc.api_version().empty() && doc.kind().empty()
             ? "a mapping without apiVersion and kind is not a Kubernetes object (a values "
               "file?); skipped"
             : std::string("a mapping with ") + (doc.kind().empty() ? "an apiVersion" : "a kind") +
                   " and no " + (doc.kind().empty() ? "kind" : "apiVersion") +
                   " is not a Kubernetes object, and kubectl and Helm refuse to apply it (a "
                   "kustomization?); skipped";
}

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  struct Rest {
    std::size_t count = 0;
    Location first;  // where the first document not said one by one is
    std::size_t last_line = 0;
  };
  std::map<std::string, std::size_t> said;  // per input (origin)
  std::map<std::string, Rest> rest;
  for (const Document& doc : analysis.documents()) {
    if (doc.shape() != Document::Shape::kNotObject) continue;
    Location where = doc.Locate();
    if (said[where.origin]++ < kSaidPerInput) {
      out.push_back(At("not-an-object", where, "", Message(doc)));
      continue;
    }
    Rest& more = rest[where.origin];
    if (more.count++ == 0) more.first = where;
    more.last_line = where.line;
  }
  for (auto& [origin, more] : rest) {
    out.push_back(At("not-an-object", more.first, "",
                     "and " + std::to_string(more.count) + " more document" +
                         (more.count == 1 ? "" : "s") + " of this input, from here to line " +
                         std::to_string(more.last_line) +
                         ", that are not Kubernetes objects; skipped"));
  }
}

}  // namespace

Rule NotAnObject() {
  return {"not-an-object",
          Severity::kInfo,
          "A YAML document is not a Kubernetes object and is skipped.",
          "Helm values files and kustomizations often sit beside manifests. They are not "
          "rollcall's business, but a manifest that lost its kind would be skipped too, so "
          "rollcall says so (the first five of an input one by one, the rest counted in one "
          "finding).",
          "Nothing, if it is not a manifest; otherwise add apiVersion and kind.",
          Check};
}

}  // namespace rollcall::rules
