#include "rules/checks.h"

namespace rollcall::rules {
namespace {

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
  for (const ReferenceCoverage& coverage : analysis.coverage()) {
    const Reference& reference = *coverage.reference;
    if (!reference.keys || reference.optional) continue;
    const Source* source = analysis.model().sources.Find(reference.source());
    if (source == nullptr) continue;
    for (const Name& key : *reference.keys) {
      if (source->entries.count(key.view()) > 0) continue;
      out.push_back(AtReference("missing-key", coverage,
                                reference.source().Describe() + " has no key \"" + key +
                                    "\", which " + coverage.consumer->Describe() + " reads" +
                                    KubeletRefusal(reference, key)));
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
