#include "rules/checks.h"

namespace rollcall::rules {
namespace {

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const ReferenceCoverage& coverage : analysis.coverage()) {
    const Reference& reference = *coverage.reference;
    const Rotation* rotation = analysis.runtime().Find(reference.source());
    if (rotation == nullptr) continue;
    for (const VolumeMount& mount : coverage.consumer->Mounts(reference)) {
      if (!mount.sub_path) continue;
      out.push_back(AtReference("runtime-source-subpath", coverage,
                                reference.source().Describe() + " is rotated at runtime by " +
                                    rotation->controller + ", but container " + mount.container +
                                    " mounts volume " + reference.volume() +
                                    " with subPath, which the kubelet never updates"));
    }
  }
}

}  // namespace

Rule RuntimeSourceSubPath() {
  return {"runtime-source-subpath",
          Severity::kError,
          "A Secret rotated at runtime is mounted with subPath.",
          "The kubelet updates Secret and ConfigMap volumes in place, except files mounted with "
          "subPath: those keep the content the container started with, so a rotation never "
          "arrives.",
          "Mount the whole volume (without subPath) at a directory and point the process at the "
          "file inside it.",
          Check};
}

}  // namespace rollcall::rules
