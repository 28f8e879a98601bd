// Writing what a command produced: its result to stdout, the report to a file.
// Every failure is said on stderr: a deploy must never look successful because its
// output went nowhere (a full disk, a reader that went away).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rollcall/render.h"

namespace rollcall::cli {

// "rollcall: <message>\n", with `message` made Printable (printable.h): every line
// rollcall prints on stderr is made so, since names and file names in it come from
// the input and must neither forge a line nor drive the terminal.
std::string StderrLine(std::string_view message);
// Writes StderrLine("error: " + message) to stderr.
void PrintError(std::string_view message);

// "cannot write to standard output: <strerror(error)>" (no reason when `error` is 0).
std::string StdoutError(int error);

// Writes all of `bytes` to `fd`, retrying short writes; 0 or the errno that stopped it.
int WriteAll(int fd, std::string_view bytes);

// Writes `pieces` to file descriptor 1 in order, small ones gathered into larger
// writes. Returns "" when all went out, else why not ("cannot write to standard
// output: No space left on device"); a part of the output may have gone out.
// A closed pipe is EPIPE here only where SIGPIPE is ignored (IgnoreBrokenPipe).
std::string WriteStandardOutput(const std::vector<std::string_view>& pieces);

// Makes a write to a closed pipe fail with EPIPE instead of killing the process
// silently, so that render can say why its output did not arrive.
void IgnoreBrokenPipe();

// Writes a command's output: kExitOk, or kExitInput with "rollcall: error: …" on
// stderr when stdout failed.
int WriteOutput(std::string_view output);
// Writes `input` with the edits of a render `plan` spliced in, piece by piece, a
// run of edits at a time (render.h's ForEachEditRun): the plan already knows every
// edit can be made. Sets `error` to why stdout failed (else ""), and returns
// kExitOk or kExitInput as WriteOutput does.
int WriteOutput(std::string_view input, RenderPlan& plan, std::string& error);

// Why ReplaceFile would refuse `path` (see there), or "": checked before a run
// starts, so that a bad --report stops it before anything is written.
std::string ReplaceableFileProblem(const std::string& path, const std::string& what = "the report");

// Replaces the file at `path` with `content`: written to a new file in the same
// directory, then renamed over `path`, so a reader never sees half a report and a
// symbolic link at `path` (one committed in a repository, say) is never followed.
// Refuses a `path` that is a symbolic link or exists as anything but a regular
// file. Returns "" on success, else the reason, naming `path` as `what` (the files
// rollcall writes: the report, lint's baseline).
std::string ReplaceFile(const std::string& path, std::string_view content,
                        const std::string& what = "the report");

}  // namespace rollcall::cli
