#include <map>
#include <set>
#include <utility>

#include "rules/checks.h"

namespace rollcall::rules {
namespace {

// The Secrets and ConfigMaps of the input that are Helm hooks, with their hook phases.
std::map<SourceId, std::string> HookSources(const Analysis& analysis) {
  std::map<SourceId, std::string> out;
  const Name default_namespace(analysis.options().default_namespace);
  for (const Document& doc : analysis.documents()) {
    const WrittenValue* hook = doc.Annotation("helm.sh/hook");
    if (hook == nullptr) continue;
    SourceId id;
    if (doc.kind() == "Secret") {
      id.kind = SourceKind::kSecret;
    } else if (doc.kind() == "ConfigMap") {
      id.kind = SourceKind::kConfigMap;
    } else {
      continue;
    }
    id.name_space = doc.NamespaceOr(default_namespace);
    id.name = doc.name();
    out.emplace(id, hook->text);
  }
  return out;
}

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  const std::map<SourceId, std::string> hooks = HookSources(analysis);
  if (hooks.empty()) return;
  // One finding per consumer and source: the fix is the same for every reference.
  std::set<std::pair<const Consumer*, SourceId>> seen;
  for (const ReferenceCoverage& coverage : analysis.coverage()) {
    const Consumer& consumer = *coverage.consumer;
    // A hook reading a hook: Helm 3 hides both from the post-renderer alike.
    if (consumer.document != nullptr && consumer.document->IsHook()) continue;
    const SourceId source = coverage.reference->source();
    auto hook = hooks.find(source);
    if (hook == hooks.end() || !seen.emplace(&consumer, source).second) continue;
    out.push_back(AtReference(
        "helm3-hook-source", coverage,
        consumer.Describe() + " reads " + source.Describe() +
            ", a Helm hook (helm.sh/hook: " + hook->second +
            "): Helm 3 gives a post-renderer no hooks, so under helm upgrade --post-renderer "
            "rollcall its content is not hashed and a change to it rolls nothing; deploy with "
            "helm rollcall, which passes rollcall the hooks, or with Helm 4"));
  }
}

}  // namespace

Rule Helm3HookSource() {
  return {"helm3-hook-source", Severity::kWarning,
          "A workload reads a Secret or ConfigMap that is a Helm hook, which Helm 3 never shows "
          "a post-renderer.",
          "Charts make some sources hooks (pre-install,pre-upgrade) so that a setup Job can read "
          "them first. Helm 3 passes a post-renderer only the release's plain objects, so with "
          "helm install|upgrade --post-renderer rollcall the hook's content is not in the hash of "
          "the workloads that read it: a password change rolls nothing. Helm 4, the pipe and "
          "helm rollcall (which gives rollcall the hooks under Helm 3) hash it.",
          "Deploy with helm rollcall or Helm 4's post-renderer plugin. If every deploy already "
          "does, turn the rule off in .rollcall.yaml (rules: {helm3-hook-source: off}).",
          Check,
          /*stops_render=*/false,
          /*render_repairs=*/false,
          // render sees a hook only where it is hashed (Helm 4, the pipe, helm rollcall):
          // there the finding would be wrong; under bare Helm 3 render cannot see it.
          /*lint_only=*/true};
}

}  // namespace rollcall::rules
