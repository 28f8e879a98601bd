#include <map>
#include <vector>

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
  // Per input; only the documents said are located (locating each of a million
  // documents was most of the run).
  struct Tally {
    std::size_t said = 0;
    std::size_t more = 0;
    const Document* first_more = nullptr;
    const Document* last = nullptr;
  };
  std::map<const Stream*, Tally> tallies;
  std::vector<const Stream*> order;  // inputs in the order met
  for (const Document& doc : analysis.documents()) {
    if (doc.shape() != Document::Shape::kNotObject) continue;
    auto [entry, added] = tallies.try_emplace(&doc.stream());
    if (added) order.push_back(&doc.stream());
    Tally& tally = entry->second;
    if (tally.said < kSaidPerInput) {
      ++tally.said;
      out.push_back(At("not-an-object", doc.Locate(), "", Message(doc)));
      continue;
    }
    if (tally.more++ == 0) tally.first_more = &doc;
    tally.last = &doc;
  }
  for (const Stream* stream : order) {
    const Tally& tally = tallies[stream];
    if (tally.more == 0) continue;
    out.push_back(At("not-an-object", tally.first_more->Locate(), "",
                     "and " + std::to_string(tally.more) + " more document" +
                         (tally.more == 1 ? "" : "s") + " of this input, from here to line " +
                         std::to_string(tally.last->Locate().line) +
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
