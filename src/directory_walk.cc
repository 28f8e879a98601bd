#include "rollcall/directory_walk.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "rollcall/input_error.h"
#include "rollcall/inputs.h"

namespace fs = std::filesystem;

namespace rollcall {
namespace {

// Only the std::error_code overloads of std::filesystem are called here: the
// throwing ones end the process on an entry that vanished, a loop or an
// unreadable directory, since nothing above catches filesystem_error.
[[noreturn]] void Unreadable(const fs::path& path, const char* what, const std::error_code& error) {
  throw InputError(Location{DisplayPath(path.string()), 0, 0, 0},
                   std::string("cannot read ") + what + ": " + error.message());
}

// The type of `path` itself (a link is a link), or not_found. An error is reported
// as `what` at `unreadable`.
fs::file_type TypeOf(const fs::path& path, const fs::path& unreadable, const char* what) {
  std::error_code error;
  fs::file_status status = fs::symlink_status(path, error);
  if (status.type() == fs::file_type::not_found) return fs::file_type::not_found;
  if (error) Unreadable(unreadable, what, error);
  return status.type();
}

// Whether a link leads to a directory; a dangling link or a loop does not.
bool LeadsToDirectory(const fs::path& link) {
  std::error_code error;
  return fs::is_directory(fs::status(link, error)) && !error;
}

class Walker {
 public:
  explicit Walker(DirectoryWalk& out) : out_(out) {}

  void Walk(const fs::path& directory) {
    // A Chart.yaml that cannot be looked at means the directory cannot be searched.
    if (TypeOf(directory / "Chart.yaml", directory, "the directory") != fs::file_type::not_found) {
      out_.entries.push_back(WalkEntry{WalkEntry::Kind::kChart, directory.string()});
      return;
    }
    std::vector<fs::path> names;
    std::error_code error;
    for (fs::directory_iterator it(directory, error), end; !error && it != end;
         it.increment(error)) {
      std::string name = it->path().filename().string();
      if (!name.empty() && name[0] == '.') continue;  // .git and friends
      names.push_back(it->path());
    }
    if (error) Unreadable(directory, "the directory", error);
    std::sort(names.begin(), names.end());
    for (const fs::path& path : names) Visit(path);
  }

 private:
  void Visit(const fs::path& path) {
    switch (TypeOf(path, path, "the directory entry")) {
      case fs::file_type::directory:
        Walk(path);
        return;
      case fs::file_type::symlink:
        if (IsManifestName(path.string())) {
          Skip(path, "a symbolic link, which a directory walk does not follow");
        } else if (LeadsToDirectory(path)) {
          Skip(path, "a symbolic link to a directory, which a directory walk does not follow");
        }
        return;
      case fs::file_type::not_found:  // gone since the directory was listed
        Unreadable(path, "the directory entry",
                   std::make_error_code(std::errc::no_such_file_or_directory));
      default:
        // Regular files, and the special files that reading refuses with a message
        // (a named pipe called x.yaml is an error, not a hang).
        if (IsManifestName(path.string())) {
          out_.entries.push_back(WalkEntry{WalkEntry::Kind::kManifest, path.string()});
        }
        return;
    }
  }

  void Skip(const fs::path& path, const std::string& why) {
    out_.skipped.push_back(SkippedEntry{DisplayPath(path.string()), why});
  }

  DirectoryWalk& out_;
};

}  // namespace

bool IsManifestName(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

DirectoryWalk WalkDirectory(const std::string& directory) {
  DirectoryWalk out;
  Walker(out).Walk(directory);
  return out;
}

}  // namespace rollcall
