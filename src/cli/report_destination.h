// Where render's --report goes: a regular file (replaced whole, never through a
// symbolic link), standard error (`-`, /dev/stderr), or a terminal (/dev/tty) or
// /dev/null that already exists. A post-renderer's stderr is hidden when the deploy
// succeeds (Helm 3) or always (Helm 4, Argo CD on success), so a person who wants the
// findings on their screen names the terminal; nothing else that is not a regular
// file is written to.
#pragma once

#include <string>
#include <string_view>

namespace rollcall::cli {

// True for the names of standard error: "-", "/dev/stderr", "/dev/fd/2".
bool IsStandardErrorName(const std::string& path);

// Why the report cannot go to `path`, or "": checked before a run starts, so that a
// bad --report stops it before anything is written. Standard output is refused: the
// manifests go there.
std::string ReportDestinationProblem(const std::string& path);

// Writes `content` to the report destination `path`: "" on success, else why not.
std::string WriteReportDestination(const std::string& path, std::string_view content);

}  // namespace rollcall::cli
