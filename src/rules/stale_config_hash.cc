#include "rollcall/document.h"
#include "rollcall/template_hash.h"
#include "rules/checks.h"

namespace rollcall::rules {
namespace {

// Only a hash rollcall can recompute here is judged: a keyed hash needs the key, and
// a consumer whose sources are not all in the input (a pre-commit run over the changed
// files only) would differ for want of content, not because the content changed.
void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const Consumer& consumer : analysis.model().consumers) {
    // Render leaves these byte for byte, whatever they carry.
    if (LeftAsWritten(consumer)) continue;
    std::string written = WrittenConfigHash(consumer);
    if (written.rfind("sha256:", 0) != 0) continue;
    std::optional<TemplateHash> now = ComputeTemplateHash(consumer, analysis.model(), std::nullopt);
    const NodeShape* sources = consumer.TemplateAnnotation(kConfigSourcesAnnotation);
    if (!now || now->sources != (sources ? sources->scalar : "") || now->hash == written) {
      continue;
    }
    const NodeShape* hash = consumer.TemplateAnnotation(kConfigHashAnnotation);
    out.push_back(
        At("stale-config-hash", consumer.document->LocateAt(hash->pos), consumer.Describe(),
           consumer.Describe() + " carries the config hash of older content of " + now->sources +
               ": these manifests were not rendered again after the change, so "
               "applying them rolls nothing"));
  }
}

}  // namespace

Rule StaleConfigHash() {
  Rule rule{"stale-config-hash",
            Severity::kError,
            "A pod template carries a config hash that is not the hash of what it reads now.",
            "Where rendered manifests are committed (Argo CD or Flux reading plain YAML), a Secret "
            "or ConfigMap edited without rendering again keeps the old hash on its consumers: the "
            "apply changes the source, the pod template stays the same, nothing rolls, and the "
            "process keeps the old value. Checked only for sha256 hashes whose listed sources "
            "are all in the input. render does not report it: its output carries the current hash.",
            "Render the manifests again (rollcall render < file > file.new) and commit the result.",
            Check};
  rule.render_repairs = true;
  return rule;
}

}  // namespace rollcall::rules
