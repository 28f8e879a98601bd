// Which files of a directory lint and consumers read: its manifests (.yaml, .yml,
// .json) and Helm charts (a directory holding Chart.yaml, rendered whole), in name
// order, recursively, leaving out names that start with a dot (.git, .rollcall.yaml).
//
// The walk never follows a symbolic link: a committed `x.yaml -> ~/.kube/config` or
// `all -> /` reads nothing outside the tree. A link is left out with a note saying
// so (when it is named like a manifest, or leads to a directory). A path named on
// the command line is the user's, and is followed (inputs.h).
#pragma once

#include <string>
#include <vector>

namespace rollcall {

struct WalkEntry {
  enum class Kind { kManifest, kChart };
  Kind kind;
  std::string path;
};

// An entry the walk left out that a reader would expect read, and why.
struct SkippedEntry {
  std::string path;
  std::string why;
};

struct DirectoryWalk {
  std::vector<WalkEntry> entries;  // in the order to read them
  std::vector<SkippedEntry> skipped;
};

// Walks `directory` (itself a chart when it holds Chart.yaml). Throws InputError
// naming the directory or entry that cannot be read; never lets a filesystem error
// escape another way.
DirectoryWalk WalkDirectory(const std::string& directory);

// Whether `path` names a manifest by its extension: .yaml, .yml or .json.
bool IsManifestName(const std::string& path);

}  // namespace rollcall
