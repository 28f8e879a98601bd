#include <algorithm>

#include "rules/checks.h"

namespace rollcall::rules {
namespace {

// A volume of a runtime-rotated source that only init containers mount: they run once,
// when a pod starts, and what they copy out of it (a keystore, a config file) keeps
// the content of that moment, however the kubelet updates the volume later.
void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const ReferenceCoverage& coverage : analysis.coverage()) {
    const Reference& reference = *coverage.reference;
    if (!reference.IsVolumeRead()) continue;
    const Rotation* rotation = analysis.runtime().Find(reference.source());
    if (rotation == nullptr) continue;
    const std::vector<VolumeMount> mounts = coverage.consumer->Mounts(reference);
    if (mounts.empty() || !std::all_of(mounts.begin(), mounts.end(),
                                       [](const VolumeMount& m) { return m.run_once; })) {
      continue;
    }
    std::string containers;
    for (const VolumeMount& mount : mounts) {
      containers += (containers.empty() ? "" : ", ") + mount.container.str();
    }
    out.push_back(AtReference(
        "runtime-source-in-init-container", coverage,
        reference.source().Describe() + " is rotated at runtime by " + rotation->controller +
            ", but " + coverage.consumer->Describe() + " mounts volume " + reference.volume() +
            " only in init container" + (mounts.size() == 1 ? " " : "s ") + containers +
            ", which runs once when a pod starts: the rotation never reaches the process"));
  }
}

}  // namespace

Rule RuntimeSourceInInitContainer() {
  return {"runtime-source-in-init-container",
          Severity::kError,
          "A Secret rotated at runtime is mounted only by init containers.",
          "An init container runs to completion before the pod's containers start, once per "
          "pod. Charts use one to copy a certificate into a keystore or a config file; the "
          "kubelet updates the volume when cert-manager renews the Secret, but nothing copies "
          "it again, so the process keeps the old certificate until the pod is replaced.",
          "Mount the volume in the container that uses it and have the process reload it, or "
          "redo the copy in a sidecar (an init container with restartPolicy: Always).",
          Check};
}

}  // namespace rollcall::rules
