// Findings on the terminal when Helm hides them. Helm 3 shows a post-renderer's stderr
// only when it fails, and Helm 4 never shows a plugin's: a render run by Helm, with no
// --report, that found something would be silent on a deploy that "succeeded". So
// render run by Helm writes its lines to the user's controlling terminal too, when it
// has one (an interactive helm; never in CI, where lint and --report are the ways).
#pragma once

#include <string>
#include <vector>

#include "rollcall/finding.h"

namespace rollcall::cli {

// Who hides render's stderr: nobody, Helm 3 (on success only) or Helm 4 (always).
enum class HelmHost { kNone, kHelm3, kHelm4 };

// kHelm4 when Helm 4 runs rollcall as its post-renderer plugin (it sets
// HELM_PLUGIN_NAME), kHelm3 when the parent process is a helm otherwise, else kNone.
HelmHost DetectHelmHost();

// Under Helm 3, which gives a post-renderer no hooks, a note for findings of sources
// not in the input: one a hook of the chart defines is missing for that reason
// ("note: …", one line); "" otherwise.
std::string HiddenHooksNote(HelmHost host, const std::vector<Finding>& findings);

// Writes `lines` (already made printable) to the controlling terminal when render,
// run by `host`, ended with `exit_code` and Helm will not show its stderr; does nothing
// when there is no terminal.
void EchoWhereHelmHides(HelmHost host, int exit_code, const std::string& lines);

}  // namespace rollcall::cli
