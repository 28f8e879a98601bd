#include "rollcall/inputs.h"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <memory>
#include <optional>
#include <sstream>

#include "rollcall/directory_walk.h"
#include "rollcall/input_error.h"
#include "rollcall/location.h"
#include "rollcall/object_names.h"
#include "rollcall/process.h"
#include "rollcall/regular_file.h"
#include "rollcall/yaml_text.h"

namespace fs = std::filesystem;

namespace rollcall {
namespace {

// The name in a chart's Chart.yaml: the first part of every "# Source:" path.
std::string ChartName(const fs::path& directory, std::size_t max_bytes) {
  RegularFileRead how = RegularFileRead::Input("the chart's Chart.yaml", max_bytes);
  fs::path file = directory / "Chart.yaml";
  std::istringstream in(ReadRegularFile(file.string(), DisplayPath(file.string()), how));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("name:", 0) == 0) {
      std::string name = line.substr(5);
      name.erase(0, name.find_first_not_of(" \t\"'"));
      name.erase(name.find_last_not_of(" \t\r\"'") + 1);
      return name;
    }
  }
  return directory.filename().string();
}

// A chart directory as helm template gets it: absolute as given, else "./" before it.
std::string ChartPath(const fs::path& directory) {
  std::string path = directory.string();
  if (directory.is_absolute() || path.rfind("./", 0) == 0) return path;
  return "./" + path;
}

// Appends `from` to `to`, moved whole when `to` is empty: appending a million
// records one by one kept the old and the new arrays and `from` alive at once.
template <typename Container>
void MoveAppend(Container& to, Container from) {
  if (to.empty()) {
    to = std::move(from);
  } else {
    for (auto& element : from) to.push_back(std::move(element));
  }
}

class Loader {
 public:
  Loader(const InputOptions& options, Inputs& inputs) : options_(options), inputs_(inputs) {}

  // A path from the command line: the user's, so a symbolic link is followed.
  void Load(const std::string& path) {
    KeepGoing([&] { LoadPath(path); });
  }

 private:
  // Runs `load`; with keep_going, an InputError it throws becomes a finding.
  template <typename Load>
  void KeepGoing(Load load) {
    if (!options_.keep_going) return load();
    try {
      load();
    } catch (const InputError& error) {
      Finding finding;
      finding.rule = "input-error";
      finding.severity = Severity::kError;
      finding.where = error.where();
      finding.message = std::string(error.what()) + "; the other inputs were analysed without it";
      inputs_.findings.push_back(std::move(finding));
      inputs_.errors.push_back(error);
    }
  }

  void LoadPath(const std::string& path) {
    if (path == "-") {
      AddStream(options_.standard_input(options_.limits.max_input_bytes), kStandardInput);
      return;
    }
    std::error_code error;
    fs::file_status status = fs::status(path, error);
    if (status.type() == fs::file_type::not_found) {
      throw InputError(Location{path, 0, 0, 0}, "no such file or directory");
    }
    if (error) throw InputError(Location{path, 0, 0, 0}, "cannot read it: " + error.message());
    if (fs::is_directory(status)) {
      LoadDirectory(path);
    } else {
      LoadFile(path, /*named_by_user=*/true);
    }
  }

  void LoadDirectory(const std::string& directory) {
    DirectoryWalk walk = WalkDirectory(directory);
    for (const WalkEntry& entry : walk.entries) {
      KeepGoing([&] {
        if (entry.kind == WalkEntry::Kind::kChart) {
          LoadChart(entry.path);
        } else {
          LoadFile(entry.path, /*named_by_user=*/false);
        }
      });
    }
    for (SkippedEntry& skipped : walk.skipped) inputs_.skipped.push_back(std::move(skipped));
  }

  // A file named on the command line is followed if it is a link. One met in a
  // walk is read only as itself: the walk left links out, and O_NOFOLLOW keeps a
  // link that replaced the file since from being followed.
  void LoadFile(const std::string& path, bool named_by_user) {
    std::string origin = DisplayPath(path);
    RegularFileRead how = RegularFileRead::Input("", options_.limits.max_input_bytes);
    how.follow_symlink = named_by_user;
    if (named_by_user) how.not_regular_hint = " (\"-\" reads a stream from standard input)";
    AddStream(ReadRegularFileBytes(path, origin, how), origin);
  }

  void AddStream(InputBytes bytes, const std::string& origin) {
    auto stream = std::make_unique<Stream>(std::move(bytes), origin, options_.limits.max_documents);
    std::vector<Document> parsed;
    CountedNotObjects counted;
    SourceDefinitions defined;  // the stream's, kept only once all of it has parsed
    try {
      parsed = ParseStream(*stream, options_.limits, options_.parses, FactReader(options_.facts),
                           &counted, SourceTaker(&defined, options_.facts));
    } catch (const InputError& error) {
      if (stream->bytes().find("{{") == std::string::npos) throw;
      // A chart template: not YAML until rendered, but its markers count.
      for (Marker& marker : ScanMarkers(stream->bytes(), stream->lines(), origin)) {
        inputs_.loose_markers.push_back(std::move(marker));
      }
      Finding note;
      note.rule = "template-not-analysed";
      note.where = Location{origin, 0, 0, 0};
      note.message = "a template, not YAML (" + std::string(error.what()) +
                     "); only its SECRET-VERSION markers were read";
      inputs_.findings.push_back(std::move(note));
      inputs_.streams.push_back(std::move(stream));
      return;
    }
    MoveAppend(inputs_.documents, std::move(parsed));
    if (counted.count() > 0) inputs_.counted_not_objects.push_back(std::move(counted));
    MoveAppend(inputs_.defined_sources, std::move(defined));
    inputs_.streams.push_back(std::move(stream));
  }

  void LoadChart(const fs::path& directory) {
    std::string origin = DisplayPath(directory.string());
    std::string name = ChartName(directory, options_.limits.max_input_bytes);
    if (!ProgramExists(options_.helm)) {
      throw InputError(Location{origin, 0, 0, 0},
                       "is a Helm chart, and rendering it needs helm, but \"" + options_.helm +
                           "\" was not found (use --helm or $HELM_BIN)");
    }
    if (std::optional<std::string> problem = NamespaceNameProblem(options_.name_space)) {
      throw InputError(Location{origin, 0, 0, 0}, *problem);
    }
    // Every value joined to its flag and every positional argument after "--", the
    // chart as a path that starts with '/' or "./": neither a directory's name nor
    // anything else from the tree can read as an option (a directory named
    // "--post-renderer=sh" would have made helm pipe the chart through sh), nor as a
    // chart reference helm would fetch from a repository.
    std::vector<std::string> argv = {options_.helm, "template",
                                     "--namespace=" + options_.name_space};
    for (const std::string& file : options_.values_files) argv.push_back("--values=" + file);
    for (const std::string& value : options_.set_values) argv.push_back("--set=" + value);
    std::error_code error;  // the working directory gone: the path as given
    fs::path absolute = fs::absolute(directory, error).lexically_normal();
    if (absolute.filename().empty()) absolute = absolute.parent_path();  // "chart/"
    argv.insert(argv.end(), {"--",
                             options_.release.empty() ? ReleaseNameFor(absolute.filename().string())
                                                      : options_.release,
                             ChartPath(directory)});
    ProcessOutput rendered = RunProgram(argv, options_.limits.max_input_bytes, origin);
    if (rendered.exit_code != 0) {
      std::string error = rendered.ErrorText();
      // Helm's words for the dependencies of Chart.yaml that charts/ does not hold.
      constexpr std::string_view kMissing = "missing in charts/ directory: ";
      const std::size_t named = error.find(kMissing);
      const bool missing = named != std::string::npos;
      std::string todo = missing ? "; run `helm dependency build " + origin + "` first" : "";
      if (missing && options_.missing_dependencies_warn) {
        Finding finding;
        finding.rule = "chart-dependencies-missing";
        finding.severity = Severity::kWarning;
        finding.where = Location{origin, 0, 0, 0};
        std::string names = error.substr(named + kMissing.size());
        names = names.substr(0, names.find('\n'));
        finding.message =
            "not linted: the dependencies of its Chart.yaml are not in its charts/ directory (" +
            names + ")" + todo;
        inputs_.findings.push_back(std::move(finding));
        return;
      }
      throw InputError(Location{origin, 0, 0, 0}, "helm template failed (exit " +
                                                      std::to_string(rendered.exit_code) +
                                                      "): " + error + todo);
    }
    try {
      AddStream(InputBytes(std::move(rendered.out)), origin);
    } catch (const InputError& error) {
      // The rendered stream's lines are in no file: name the chart and the template.
      std::string from = error.where().source.empty() ? "" : " in " + error.where().source;
      throw InputError(Location{origin, 0, 0, 0},
                       "helm template wrote what is not valid YAML" + from + ": " + error.what());
    }
    inputs_.charts.push_back(RenderedChart{name, directory.string(), inputs_.streams.back().get(),
                                           options_.limits.max_input_bytes, options_.values_files});
  }

  const InputOptions& options_;
  Inputs& inputs_;
};

}  // namespace

Inputs LoadInputs(const std::vector<std::string>& paths, const InputOptions& options) {
  Inputs inputs;
  Loader loader(options, inputs);
  for (const std::string& path : paths) loader.Load(path);
  return inputs;
}

namespace {

[[noreturn]] void OverLimit(std::size_t max_bytes) {
  throw InputError(Location{kStandardInput, 0, 0, 0}, "input is larger than the limit of " +
                                                          std::to_string(max_bytes) +
                                                          " bytes (--max-input-bytes)");
}

}  // namespace

InputBytes ReadStandardInput(std::size_t max_bytes) {
  // A byte more than the limit: one read into it says the input is over.
  InputBytes bytes = InputBytes::Growable(max_bytes + 1);
  if (int error = bytes.ReadFrom(STDIN_FILENO)) {
    throw InputError(Location{kStandardInput, 0, 0, 0},
                     std::string("cannot read standard input: ") + std::strerror(error));
  }
  if (bytes.size() > max_bytes) OverLimit(max_bytes);
  return bytes;
}

std::string DisplayPath(const std::string& path) {
  std::error_code error;
  fs::path absolute = fs::absolute(path, error);
  if (error) return path;
  fs::path relative = absolute.lexically_normal().lexically_relative(fs::current_path(error));
  if (error || relative.empty() || relative.string().rfind("..", 0) == 0) return path;
  return relative.string();
}

}  // namespace rollcall
