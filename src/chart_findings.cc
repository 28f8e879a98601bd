#include "rollcall/chart_findings.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <utility>

#include "rollcall/input_error.h"
#include "rollcall/line_alignment.h"
#include "rollcall/regular_file.h"
#include "rollcall/yaml_text.h"

namespace fs = std::filesystem;

namespace rollcall {
namespace {

// The lines of `text`, as written.
std::vector<std::string> SplitLines(std::string_view text) {
  std::vector<std::string> lines;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) lines.push_back(std::move(line));
  return lines;
}

// `lines` without the blanks around each: what the alignment compares.
std::vector<std::string> Trimmed(const std::vector<std::string>& lines) {
  std::vector<std::string> trimmed;
  trimmed.reserve(lines.size());
  for (const std::string& line : lines) trimmed.emplace_back(TrimBlanks(line));
  return trimmed;
}

// The lines of a chart file, as written; none when it cannot be read (the finding
// then names the file without a line).
std::vector<std::string> ReadLines(const std::string& path, std::size_t max_bytes) {
  RegularFileRead how;
  how.max_bytes = max_bytes;
  try {
    return SplitLines(ReadRegularFile(path, path, how));
  } catch (const InputError&) {
    return {};
  }
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

// How many bytes of values files one chart's findings may search for the names they
// cite, all together: past it, a finding names its template without a line.
constexpr std::size_t kValuesScanBytes = std::size_t{64} << 20;

// A chart's values files, read once, and where each cited name is in them: the last
// -f first (it wins in Helm), then the chart's values.yaml. A comment line does not
// count.
class ValuesIndex {
 public:
  explicit ValuesIndex(const RenderedChart& chart) {
    std::vector<std::string> paths(chart.values_files.rbegin(), chart.values_files.rend());
    paths.push_back((fs::path(chart.directory) / "values.yaml").string());
    for (std::string& path : paths) {
      std::vector<std::string> lines = ReadLines(path, chart.max_bytes);
      files_.push_back({std::move(path), std::move(lines)});
    }
  }

  std::optional<Location> Find(const std::string& name) {
    auto [at, added] = found_.try_emplace(name);
    if (added) at->second = Search(name);
    return at->second;
  }

 private:
  struct File {
    std::string path;
    std::vector<std::string> lines;
  };

  std::optional<Location> Search(const std::string& name) {
    for (const File& file : files_) {
      for (std::size_t i = 0; i < file.lines.size(); ++i) {
        std::string_view line = file.lines[i];
        if (line.size() + 1 > scan_budget_) return std::nullopt;
        scan_budget_ -= line.size() + 1;
        if (TrimBlanks(line).rfind('#', 0) == 0) continue;
        std::size_t column = WordColumn(line, name);
        if (column == std::string_view::npos) continue;
        Location where;
        where.origin = DisplayPath(fs::path(file.path).lexically_normal().string());
        where.line = i + 1;
        where.column = column + 1;
        return where;
      }
    }
    return std::nullopt;
  }

  std::vector<File> files_;
  std::map<std::string, std::optional<Location>> found_;
  std::size_t scan_budget_ = kValuesScanBytes;
};

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

namespace {

// How many bytes of template lines one rendered document's findings may test with
// TemplateLineProduces, all findings together: past it, a finding's line is only
// the one its alignment proves or guesses.
constexpr std::size_t kProducingScanBytes = std::size_t{16} << 20;

// The rendered document that holds line `line` of the stream, trimmed line by line
// and aligned with one template's lines.
class AlignedDocument {
 public:
  AlignedDocument(const Stream& stream, const DocumentSpan& span,
                  const std::vector<std::string>& template_lines)
      : first_(stream.lines().LineOf(span.begin)),
        rendered_(Trimmed(SplitLines(span.Text(stream.bytes())))),
        template_lines_(template_lines),
        alignment_(rendered_, template_lines) {}

  // The 1-based template line proven to have produced stream line `line`, or 0.
  std::size_t TemplateLineOf(std::size_t line) {
    if (line < first_ || line - first_ >= rendered_.size()) return 0;
    const std::size_t target = line - first_;
    const std::size_t m = template_lines_.size();
    if (alignment_.MatchOf(target) != LineAlignment::kNone) {
      return alignment_.MatchOf(target) + 1;  // the same text: proven
    }
    // The shared lines nearest the target on each side bound where its template
    // line is; between them, the template lines whose actions can stand for the
    // rendered text: the one at the same distance from the shared line before
    // wins, else the only one.
    const std::size_t before = alignment_.MatchedBefore(target);
    const std::size_t after = alignment_.MatchedAfter(target);
    const std::size_t low = before == LineAlignment::kNone ? 0 : alignment_.MatchOf(before) + 1;
    const std::size_t high = after == LineAlignment::kNone ? m : alignment_.MatchOf(after);
    const std::size_t guess =
        before == LineAlignment::kNone ? target : alignment_.MatchOf(before) + (target - before);
    const std::string& rendered = rendered_[target];
    if (guess >= low && guess < high && TemplateLineProduces(template_lines_[guess], rendered)) {
      return guess + 1;
    }
    std::size_t only = LineAlignment::kNone;
    for (std::size_t j = low; j < high; ++j) {
      const std::size_t cost = template_lines_[j].size() + 1;
      if (cost > scan_budget_) return 0;
      scan_budget_ -= cost;
      if (!TemplateLineProduces(template_lines_[j], rendered)) continue;
      if (only != LineAlignment::kNone) return 0;
      only = j;
    }
    return only == LineAlignment::kNone ? 0 : only + 1;
  }

 private:
  std::size_t first_;
  std::vector<std::string> rendered_;
  const std::vector<std::string>& template_lines_;
  LineAlignment alignment_;
  std::size_t scan_budget_ = kProducingScanBytes;
};

// The document of `stream` holding line `line`, or null.
const DocumentSpan* DocumentAt(const Stream& stream, std::size_t line) {
  const std::size_t offset = stream.lines().LineStart(line);
  const std::vector<DocumentSpan>& docs = stream.documents();
  auto after =
      std::upper_bound(docs.begin(), docs.end(), offset,
                       [](std::size_t at, const DocumentSpan& doc) { return at < doc.begin; });
  if (after == docs.begin()) return nullptr;
  const DocumentSpan& doc = *(after - 1);
  return offset < doc.end ? &doc : nullptr;
}

// A template file, read once however many findings cite it: as written (for the
// column) and trimmed (for the alignment), and aligned once per rendered document.
struct TemplateFile {
  std::vector<std::string> raw;
  std::vector<std::string> trimmed;
  std::map<const DocumentSpan*, std::unique_ptr<AlignedDocument>> documents;
};

}  // namespace

std::size_t TemplateLine(const Stream& stream, std::size_t line,
                         const std::vector<std::string>& template_lines) {
  const DocumentSpan* span = DocumentAt(stream, line);
  if (span == nullptr || template_lines.empty()) return 0;
  return AlignedDocument(stream, *span, template_lines).TemplateLineOf(line);
}

void MapToTemplates(const Inputs& inputs, std::vector<Finding>& findings) {
  // Per chart: its template files by path, its values files.
  std::vector<std::map<std::string, TemplateFile>> templates(inputs.charts.size());
  std::vector<std::unique_ptr<ValuesIndex>> values(inputs.charts.size());
  for (Finding& finding : findings) {
    for (std::size_t c = 0; c < inputs.charts.size(); ++c) {
      const RenderedChart& chart = inputs.charts[c];
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
      std::size_t line = 0;
      TemplateFile* read = nullptr;
      if (rendered_line > 0) {
        auto [at, added] = templates[c].try_emplace(file.string());
        read = &at->second;
        if (added) {
          read->raw = ReadLines(file.string(), chart.max_bytes);
          read->trimmed = Trimmed(read->raw);
        }
        const DocumentSpan* span = DocumentAt(*chart.stream, rendered_line);
        if (span != nullptr && !read->trimmed.empty()) {
          std::unique_ptr<AlignedDocument>& aligned = read->documents[span];
          if (!aligned) {
            aligned = std::make_unique<AlignedDocument>(*chart.stream, *span, read->trimmed);
          }
          line = aligned->TemplateLineOf(rendered_line);
        }
      }
      std::optional<Location> in_values;
      if (line == 0 && !finding.cited.empty()) {
        if (!values[c]) values[c] = std::make_unique<ValuesIndex>(chart);
        in_values = values[c]->Find(finding.cited);
      }
      if (in_values) {
        in_values->source = finding.where.source;
        finding.where = std::move(*in_values);
        break;
      }
      finding.where.origin = DisplayPath(file.lexically_normal().string());
      finding.where.source.clear();
      finding.where.line = line;
      if (line > 0) {
        finding.where.column = TemplateColumn(*chart.stream, rendered_line, column,
                                              read->raw[line - 1], finding.cited);
      }
      break;
    }
  }
}

}  // namespace rollcall
