#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "rollcall/node_shape.h"
#include "rollcall/yaml_refusals.h"
#include "rules/checks.h"

namespace rollcall::rules {
namespace {

// Where the keys of a document's references are written, read again from its text
// (its tree went with the analysis): built once for a document with a finding and in
// one walk of its nodes, so that findings cost the document's size once, whatever
// their number.
class KeyPlaces {
 public:
  explicit KeyPlaces(const Document& doc)
      : tree_(ParseTree(doc.span().Text(doc.stream().bytes())).tree) {
    if (tree_ == nullptr) return;
    std::vector<YamlNode> stack = {tree_->root()};
    while (!stack.empty()) {
      const YamlNode node = stack.back();
      stack.pop_back();
      if (node.IsMap()) Index(node);
      if (!node.IsMap() && !node.IsSequence()) continue;
      for (const auto& entry : node) {
        // A sequence's entry is the item itself; a mapping's, its key and value.
        stack.push_back(node.IsMap() ? entry.second : static_cast<const YamlNode&>(entry));
      }
    }
  }

  // Where `key` is written for the reference whose source's name starts at `pos`: the
  // `key:` of its secretKeyRef or configMapKeyRef, or its volume's item naming it.
  std::optional<std::size_t> Find(std::size_t pos, const std::string& key) const {
    auto mapping = mapping_of_value_.find(pos);
    if (mapping == mapping_of_value_.end()) return std::nullopt;
    auto written = keys_.find({mapping->second, key});
    if (written == keys_.end()) return std::nullopt;
    return written->second;
  }

 private:
  // Records the mapping of each of `map`'s scalar values, and where its `key` and its
  // items' keys are written.
  void Index(const YamlNode& map) {
    for (const auto& entry : map) {
      if (entry.second.IsScalar()) {
        mapping_of_value_.emplace(MarkPos(entry.second.Mark()), map.index());
      }
    }
    Record(map.index(), Child(map, "key"));
    const YamlNode items = Child(map, "items");
    if (!items.IsSequence()) return;
    for (const auto& item : items) Record(map.index(), Child(item, "key"));
  }
  void Record(std::uint32_t map, const YamlNode& key) {
    if (key.IsScalar())
      keys_.emplace(std::make_pair(map, std::string(key.Scalar())), MarkPos(key.Mark()));
  }

  std::unique_ptr<YamlTree> tree_;
  std::unordered_map<std::size_t, std::uint32_t> mapping_of_value_;    // value start → mapping
  std::map<std::pair<std::uint32_t, std::string>, std::size_t> keys_;  // (mapping, key) → start
};

// What happens, in the kubelet's own words (pkg/kubelet/kubelet_pods.go for env,
// pkg/volume/secret and configmap for volumes), so that the finding reads as what
// `kubectl describe pod` would show after the deploy.
std::string KubeletRefusal(const Reference& reference, const Name& key) {
  const SourceId source = reference.source();
  const bool secret = source.kind == SourceKind::kSecret;
  if (reference.via == ReadVia::kEnv) {
    return ": the container would fail to start (CreateContainerConfigError: couldn't find key " +
           key.str() + " in " + SourceKindName(source.kind) + " " + source.name_space.str() + "/" +
           source.name.str() + ")";
  }
  return std::string(
             ": the volume would fail to mount and the pod would not start (FailedMount: ") +
         (secret ? "references non-existent secret key: "
                 : "configmap references non-existent config key: ") +
         key.str() + ")";
}

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  std::map<const Document*, std::unique_ptr<KeyPlaces>> places;  // read when first asked
  for (const ReferenceCoverage& coverage : analysis.coverage()) {
    const Reference& reference = *coverage.reference;
    if (!reference.keys || reference.optional) continue;
    const Source* source = analysis.model().sources.Find(reference.source());
    if (source == nullptr) continue;
    for (const Name& key : *reference.keys) {
      if (source->entries.count(key.view()) > 0) continue;
      Finding finding = AtReference("missing-key", coverage,
                                    reference.source().Describe() + " has no key \"" + key +
                                        "\", which " + coverage.consumer->Describe() + " reads" +
                                        KubeletRefusal(reference, key));
      // Where the key is written; where the reference is when the document does not
      // read again or holds neither.
      const Document* doc = coverage.consumer->document;
      std::unique_ptr<KeyPlaces>& read = places[doc];
      if (!read) read = std::make_unique<KeyPlaces>(*doc);
      if (std::optional<std::size_t> at = read->Find(reference.pos, key.str())) {
        finding.where = doc->LocateAt(*at);
      }
      finding.cited = key.str();  // what a chart's template or values file writes there
      out.push_back(std::move(finding));
    }
  }
}

}  // namespace

Rule MissingKey() {
  return {"missing-key", Severity::kError,
          "A reference reads a key its source (in the input) does not have.",
          "A secretKeyRef, configMapKeyRef or volume item naming a key that is not there keeps "
          "the pod from starting, unless the reference is optional.",
          "Add the key to the source, fix the key name, or set optional: true if the process "
          "copes without it.",
          Check,
          // The pod cannot start with the source as it is: a deploy that "succeeds" would
          // leave the workload failing, so render stops it, as Helm stops on its own errors.
          /*stops_render=*/true};
}

}  // namespace rollcall::rules
