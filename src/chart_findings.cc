#include "rollcall/chart_findings.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <sstream>
#include <utility>

#include "rollcall/input_error.h"
#include "rollcall/regular_file.h"
#include "rollcall/yaml_text.h"

namespace fs = std::filesystem;

namespace rollcall {
namespace {

// The lines of a chart file, as written; none when it cannot be read (the finding
// then names the file without a line).
std::vector<std::string> ReadLines(const std::string& path, std::size_t max_bytes) {
  RegularFileRead how;
  how.max_bytes = max_bytes;
  std::vector<std::string> lines;
  std::istringstream in;
  try {
    in.str(ReadRegularFile(path, path, how));
  } catch (const InputError&) {
    return lines;
  }
  for (std::string line; std::getline(in, line);) {
    lines.push_back(std::move(line));
  }
  return lines;
}

bool IsNameByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

// The 0-based column where `name` stands as a whole word in `line`, or npos.
std::size_t WordColumn(std::string_view line, std::string_view name) {
  for (std::size_t at = line.find(name); at != std::string_view::npos;
       at = line.find(name, at + 1)) {
    bool starts = at == 0 || !IsNameByte(line[at - 1]);
    bool ends = at + name.size() == line.size() || !IsNameByte(line[at + name.size()]);
    if (starts && ends) return at;
  }
  return std::string_view::npos;
}

// Where a values file holds `name`: the last -f first (it wins in Helm), then the
// chart's values.yaml. A comment line does not count.
std::optional<Location> ValuesLine(const RenderedChart& chart, const std::string& name) {
  std::vector<std::string> files(chart.values_files.rbegin(), chart.values_files.rend());
  files.push_back((fs::path(chart.directory) / "values.yaml").string());
  for (const std::string& file : files) {
    std::vector<std::string> lines = ReadLines(file, chart.max_bytes);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      std::string_view line = lines[i];
      if (TrimBlanks(line).rfind('#', 0) == 0) continue;
      std::size_t column = WordColumn(line, name);
      if (column == std::string_view::npos) continue;
      Location where;
      where.origin = DisplayPath(fs::path(file).lexically_normal().string());
      where.line = i + 1;
      where.column = column + 1;
      return where;
    }
  }
  return std::nullopt;
}

// The column in template line `text` of what is at `column` of the stream's line
// `line`: the same place when both read the same but for their indentation (a
// chart's nindent), else where the cited name is, else 0.
std::size_t TemplateColumn(const Stream& stream, std::size_t line, std::size_t column,
                           std::string_view text, const std::string& cited) {
  std::string_view bytes = stream.bytes();
  std::size_t start = stream.lines().LineStart(line);
  std::string_view rendered = bytes.substr(start, bytes.find('\n', start) - start);
  std::size_t rendered_indent = std::min(rendered.find_first_not_of(" \t"), rendered.size());
  std::size_t indent = std::min(text.find_first_not_of(" \t"), text.size());
  if (TrimBlanks(rendered) == TrimBlanks(text) && column > rendered_indent) {
    return column - rendered_indent + indent;
  }
  std::size_t at = cited.empty() ? std::string_view::npos : WordColumn(text, cited);
  return at == std::string_view::npos ? 0 : at + 1;
}

// A template line's literal parts, around its {{ … }} actions; nullopt when an
// action is not closed on the line.
std::optional<std::vector<std::string_view>> LiteralParts(std::string_view line) {
  std::vector<std::string_view> parts;
  for (;;) {
    std::size_t open = line.find("{{");
    parts.push_back(line.substr(0, open));
    if (open == std::string_view::npos) return parts;
    std::size_t close = line.find("}}", open + 2);
    if (close == std::string_view::npos) return std::nullopt;
    line.remove_prefix(close + 2);
  }
}

}  // namespace

bool TemplateLineProduces(std::string_view template_line, std::string_view rendered) {
  if (template_line == rendered) return !rendered.empty();
  std::optional<std::vector<std::string_view>> parts = LiteralParts(template_line);
  if (!parts || parts->size() < 2) return false;
  bool letter = std::any_of(parts->begin(), parts->end(), [](std::string_view part) {
    return std::any_of(part.begin(), part.end(),
                       [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); });
  });
  if (!letter) return false;
  // "{{-" and "-}}" trim blanks beside them: compare without the blanks at the joins.
  std::string_view first = parts->front();
  std::string_view last = parts->back();
  while (!first.empty() && (first.back() == ' ' || first.back() == '\t')) first.remove_suffix(1);
  while (!last.empty() && (last.front() == ' ' || last.front() == '\t')) last.remove_prefix(1);
  if (rendered.substr(0, first.size()) != first) return false;
  std::size_t at = first.size();
  for (std::size_t k = 1; k + 1 < parts->size(); ++k) {
    std::string_view middle = TrimBlanks((*parts)[k]);
    if (middle.empty()) continue;
    at = rendered.find(middle, at);
    if (at == std::string_view::npos) return false;
    at += middle.size();
  }
  return rendered.size() >= at + last.size() &&
         rendered.substr(rendered.size() - last.size()) == last;
}

std::size_t TemplateLine(const Stream& stream, std::size_t line,
                         const std::vector<std::string>& template_lines) {
  const DocumentSpan* span = nullptr;
  std::size_t offset = stream.lines().LineStart(line);
  for (const DocumentSpan& doc : stream.documents()) {
    if (doc.begin <= offset && offset < doc.end) span = &doc;
  }
  if (span == nullptr || template_lines.empty()) return 0;
  std::size_t first = stream.lines().LineOf(span->begin);
  std::vector<std::string> rendered;
  std::istringstream text{std::string(span->Text(stream.bytes()))};
  for (std::string row; std::getline(text, row);) rendered.push_back(std::string(TrimBlanks(row)));
  const std::size_t n = rendered.size();
  const std::size_t m = template_lines.size();
  if (line < first || line - first >= n) return 0;
  const std::size_t target = line - first;
  // lcs[i][j]: longest common subsequence of rendered[i..] and template_lines[j..],
  // counting only lines that are equal and not blank.
  std::vector<std::vector<std::uint32_t>> lcs(n + 1, std::vector<std::uint32_t>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;) {
      lcs[i][j] = !rendered[i].empty() && rendered[i] == template_lines[j]
                      ? lcs[i + 1][j + 1] + 1
                      : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  // The shared lines nearest the target on each side bound where its template line is.
  std::optional<std::pair<std::size_t, std::size_t>> before;
  std::optional<std::pair<std::size_t, std::size_t>> after;
  for (std::size_t i = 0, j = 0; i < n && j < m;) {
    if (!rendered[i].empty() && rendered[i] == template_lines[j] &&
        lcs[i][j] == lcs[i + 1][j + 1] + 1) {
      if (i == target) return j + 1;  // the same text: proven
      if (i < target) before = {i, j};
      if (i > target) {
        after = {i, j};
        break;
      }
      ++i;
      ++j;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
      ++i;
    } else {
      ++j;
    }
  }
  // Between them, the template lines whose actions can stand for the rendered text;
  // the one at the same distance from the shared line before wins, else the only one.
  std::size_t low = before ? before->second + 1 : 0;
  std::size_t high = after ? after->second : m;
  std::size_t guess = before ? before->second + (target - before->first) : target;
  std::vector<std::size_t> producing;
  for (std::size_t j = low; j < high; ++j) {
    if (TemplateLineProduces(template_lines[j], rendered[target])) producing.push_back(j);
  }
  if (std::find(producing.begin(), producing.end(), guess) != producing.end()) return guess + 1;
  return producing.size() == 1 ? producing.front() + 1 : 0;
}

void MapToTemplates(const Inputs& inputs, std::vector<Finding>& findings) {
  for (Finding& finding : findings) {
    for (const RenderedChart& chart : inputs.charts) {
      if (finding.where.origin != chart.stream->origin()) continue;
      // The stream's lines are no file's: whatever is cited below, not them.
      const std::size_t rendered_line = finding.where.line;
      const std::size_t column = finding.where.column;
      finding.where.document = 0;
      finding.where.line = 0;
      finding.where.column = 0;
      const std::string prefix = chart.name + "/";
      if (finding.where.source.rfind(prefix, 0) != 0) break;
      // "# Source:" is text the chart can write: only a file inside the chart is
      // opened, never "chart/../../etc/passwd".
      fs::path relative = fs::path(finding.where.source.substr(prefix.size())).lexically_normal();
      if (relative.empty() || relative.is_absolute() || *relative.begin() == "..") break;
      fs::path file = fs::path(chart.directory) / relative;
      // Read once: trimmed for the alignment, as written for the column.
      std::vector<std::string> raw;
      std::size_t line = 0;
      if (rendered_line > 0) {
        raw = ReadLines(file.string(), chart.max_bytes);
        std::vector<std::string> trimmed;
        trimmed.reserve(raw.size());
        for (const std::string& text : raw) trimmed.emplace_back(TrimBlanks(text));
        line = TemplateLine(*chart.stream, rendered_line, trimmed);
      }
      std::optional<Location> values;
      if (line == 0 && !finding.cited.empty()) values = ValuesLine(chart, finding.cited);
      if (values) {
        values->source = finding.where.source;
        finding.where = std::move(*values);
        break;
      }
      finding.where.origin = DisplayPath(file.lexically_normal().string());
      finding.where.source.clear();
      finding.where.line = line;
      if (line > 0) {
        finding.where.column =
            line <= raw.size()
                ? TemplateColumn(*chart.stream, rendered_line, column, raw[line - 1], finding.cited)
                : 0;
      }
      break;
    }
  }
}

}  // namespace rollcall
