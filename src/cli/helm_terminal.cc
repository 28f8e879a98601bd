#include "cli/helm_terminal.h"

#include <unistd.h>

#include <cstdlib>
#include <string>

#include "cli/report_destination.h"

namespace rollcall::cli {
namespace {

// The file name of the parent's executable, "" when /proc does not say.
std::string ParentProgram() {
  const std::string link = "/proc/" + std::to_string(getppid()) + "/exe";
  std::string target(4096, '\0');
  ssize_t n = readlink(link.c_str(), target.data(), target.size());
  if (n <= 0 || static_cast<std::size_t>(n) >= target.size()) return "";
  target.resize(static_cast<std::size_t>(n));
  std::string::size_type slash = target.rfind('/');
  return slash == std::string::npos ? target : target.substr(slash + 1);
}

}  // namespace

HelmHost DetectHelmHost() {
  const char* plugin = std::getenv("HELM_PLUGIN_NAME");
  if (plugin != nullptr && *plugin != '\0') return HelmHost::kHelm4;
  // helm, helm3, helm-v3.17.2: what people name the binary.
  return ParentProgram().rfind("helm", 0) == 0 ? HelmHost::kHelm3 : HelmHost::kNone;
}

std::string HiddenHooksNote(HelmHost host, const std::vector<Finding>& findings) {
  if (host != HelmHost::kHelm3) return "";
  for (const Finding& finding : findings) {
    if (finding.rule != "unresolved-reference" && finding.rule != "unresolved-optional-reference") {
      continue;
    }
    return "note: Helm 3 gives a post-renderer no hooks: a source above that a hook of the "
           "chart defines (helm.sh/hook) is not in the input, and a change to it rolls "
           "nothing; helm rollcall and Helm 4 hash it (rollcall lint names such sources: "
           "helm3-hook-source)";
  }
  return "";
}

void EchoWhereHelmHides(HelmHost host, int exit_code, const std::string& lines) {
  if (host == HelmHost::kNone || lines.empty()) return;
  // Helm 3 shows the post-renderer's stderr when it fails: said once is enough.
  if (host == HelmHost::kHelm3 && exit_code != 0) return;
  // No terminal (CI, Argo CD): the write fails and nothing is said; --report is the way.
  WriteReportDestination("/dev/tty", lines);
}

}  // namespace rollcall::cli
