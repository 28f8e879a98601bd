#include "rollcall/chart_of_file.h"

#include <filesystem>
#include <set>

#include "rollcall/inputs.h"

namespace fs = std::filesystem;

namespace rollcall {
namespace {

// Whether `dir` holds an entry called `name`, of any type, as a directory walk
// sees a chart (directory_walk.h): a link is not followed.
bool Holds(const fs::path& dir, const char* name) {
  std::error_code error;
  return fs::exists(fs::symlink_status(dir / name, error));
}

bool EndsWith(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

// values.yaml, values-prod.yaml, values.dev.yml, and the schema helm checks the
// values against before it renders.
bool IsValuesFile(const std::string& name) {
  if (name == "values.schema.json") return true;
  return name.rfind("values", 0) == 0 && (EndsWith(name, ".yaml") || EndsWith(name, ".yml"));
}

// Whether `relative`, a path inside a chart directory, is a file helm template reads.
bool IsRenderedFile(const fs::path& relative) {
  auto part = relative.begin();
  if (part == relative.end()) return false;
  const std::string first = part->string();
  const bool only = std::next(part) == relative.end();
  if (first == "templates") return !only;
  return only && (first == "Chart.yaml" || IsValuesFile(first));
}

}  // namespace

std::string ChartOfFile(const std::string& file) {
  std::error_code error;
  const fs::path cwd = fs::current_path(error);
  if (error) return "";
  const fs::path path = fs::absolute(file, error).lexically_normal();
  if (error || path.filename().empty()) return "";
  // The nearest chart above the file, the last directory searched being the
  // working directory or the work tree's root (either may be the chart itself).
  fs::path chart;
  for (fs::path dir = path.parent_path();; dir = dir.parent_path()) {
    if (Holds(dir, "Chart.yaml")) {
      chart = dir;
      break;
    }
    if (dir == cwd || Holds(dir, ".git") || dir == dir.root_path() || dir.empty()) return "";
  }
  if (!IsRenderedFile(path.lexically_relative(chart))) return "";
  while (chart != cwd && !Holds(chart, ".git")) {
    const fs::path charts = chart.parent_path();
    if (charts.filename() != "charts" || !Holds(charts.parent_path(), "Chart.yaml")) break;
    chart = charts.parent_path();
  }
  return DisplayPath(chart.string());
}

std::vector<std::string> ChartsOfFiles(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  // Directories already listed, absolute and normalised ("chart" and "./chart/" are
  // one): a chart is rendered once, whether named or stood for by its files.
  std::set<fs::path> directories;
  auto first_time = [&directories](const std::string& directory) {
    std::error_code error;
    fs::path key = fs::absolute(directory, error).lexically_normal();
    if (key.filename().empty()) key = key.parent_path();
    return directories.insert(key).second;
  };
  for (const std::string& path : paths) {
    std::error_code error;
    if (path == "-") {
      out.push_back(path);
    } else if (fs::is_directory(path, error)) {
      if (first_time(path)) out.push_back(path);
    } else if (std::string chart = ChartOfFile(path); chart.empty()) {
      out.push_back(path);
    } else if (first_time(chart)) {
      out.push_back(std::move(chart));
    }
  }
  return out;
}

}  // namespace rollcall
