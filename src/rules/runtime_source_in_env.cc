#include "rules/checks.h"

namespace rollcall::rules {
namespace {

void Check(const Analysis& analysis, std::vector<Finding>& out) {
  for (const ReferenceCoverage& coverage : analysis.coverage()) {
    const Reference& reference = *coverage.reference;
    if (reference.via != ReadVia::kEnv && reference.via != ReadVia::kEnvFrom) continue;
    const Rotation* rotation = analysis.runtime().Find(reference.source());
    if (rotation == nullptr) continue;
    out.push_back(AtReference("runtime-source-in-env", coverage,
                              reference.source().Describe() + " is rotated at runtime by " +
                                  rotation->controller + ", but " + coverage.consumer->Describe() +
                                  " reads it into the environment: the rotation never reaches "
                                  "the process"));
  }
}

}  // namespace

Rule RuntimeSourceInEnv() {
  return {"runtime-source-in-env",
          Severity::kError,
          "A Secret rotated at runtime is read through env or envFrom.",
          "cert-manager, external-secrets and similar controllers rewrite the Secret after the "
          "deploy. Environment variables are fixed when the container starts, and no render-time "
          "hash can see the rotation, so the process keeps the old certificate or password.",
          "Mount the Secret as a volume without subPath and have the process reload it.",
          Check};
}

}  // namespace rollcall::rules
