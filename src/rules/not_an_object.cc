#include <map>
#include <vector>

#include "rules/checks.h"

namespace rollcall::rules {
namespace {

// Documents of one input said one by one; past that, one finding counts the rest, so
// that a stream of a million values-like documents makes a few lines, not a million.
// ParseStream keeps a record of at least these (the rest may be only counted).
constexpr std::size_t kSaidPerInput = kRecordedNotObjects;

std::string Message(const Document& doc) {
  return doc.api_version().empty() && doc.kind().empty()
             ? "a mapping without apiVersion and kind is not a Kubernetes object (a values "
               "file?); skipped"
             : std::string("a mapping with ") + (doc.kind().empty() ? "an apiVersion" : "a kind") +
                   " and no " + (doc.kind().empty() ? "kind" : "apiVersion") +
                   " is not a Kubernetes object, and kubectl and Helm refuse to apply it (a "
                   "kustomization?); skipped";
}

// The not-objects of one input past the ones said.
struct Tally {
  std::size_t said = 0;
  std::size_t more = 0;
  const Document* first_more = nullptr;
  const Document* last = nullptr;

  // `count` more documents, the first and the last of them given.
  void Add(std::size_t count, const Document* first, const Document* latest) {
    if (more == 0 || first->span().index < first_more->span().index) first_more = first;
    if (more == 0 || latest->span().index > last->span().index) last = latest;
    more += count;
  }
};

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  // Per input; only the documents said are located (locating each of a million
  // documents was most of the run).
  std::map<const Stream*, Tally> tallies;
  std::vector<const Stream*> order;  // inputs in the order met
  auto tally_of = [&](const Stream& stream) -> Tally& {
    auto [entry, added] = tallies.try_emplace(&stream);
    if (added) order.push_back(&stream);
    return entry->second;
  };
  for (const Document& doc : analysis.documents()) {
    if (doc.shape() != Document::Shape::kNotObject) continue;
    Tally& tally = tally_of(doc.stream());
    if (tally.said < kSaidPerInput) {
      ++tally.said;
      out.push_back(At("not-an-object", doc.Locate(), "", Message(doc)));
      continue;
    }
    tally.Add(1, &doc, &doc);
  }
  // Those only counted come after the first kSaidPerInput of their input, among the
  // records past those.
  for (const CountedNotObjects& counted : analysis.counted_not_objects()) {
    if (counted.count() == 0) continue;
    tally_of(counted.first()->stream()).Add(counted.count(), counted.first(), counted.last());
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
