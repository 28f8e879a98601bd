#include "rollcall/krm/function.h"

#include "rollcall/edit.h"
#include "rollcall/krm/field_path.h"
#include "rollcall/krm/item_stream.h"
#include "rollcall/krm/results.h"
#include "rollcall/lint.h"
#include "rollcall/yaml_text.h"

namespace rollcall {
namespace {

// Places in the item stream, told as places in the ResourceList's input: the file
// and document an item came from when its path annotation names one (the lines of
// the ResourceList are not the lines of that file), else the ResourceList's line.
class ItemLocator {
 public:
  ItemLocator(const Stream& stream, const ResourceList& list, const ItemStream& items)
      : stream_(stream), list_(list), items_(items) {}

  // The item a location in the item stream is in, or null.
  const ResourceListItem* ItemOf(const Location& where) const {
    if (where.document == 0 || where.document > list_.items.size()) return nullptr;
    return &list_.items[where.document - 1];
  }

  Location Relocate(const Location& where) const {
    const ResourceListItem* item = ItemOf(where);
    if (item == nullptr) return Location{stream_.origin(), 0, 0, 0};
    if (!item->path.empty()) {
      return Location{item->path, static_cast<std::size_t>(item->index.value_or(0)) + 1, 0, 0};
    }
    std::size_t line =
        where.line == 0 ? 0
                        : ResourceListLine(stream_, list_, items_, where.document - 1, where.line);
    return Location{stream_.origin(), 0, line, where.line == 0 ? 0 : where.column};
  }

  // The field the location points at, when it is the start of one.
  std::string FieldPath(const Location& where) const {
    const ResourceListItem* item = ItemOf(where);
    if (item == nullptr || where.line == 0 || where.column == 0) return "";
    std::size_t line = ResourceListLine(stream_, list_, items_, where.document - 1, where.line);
    // Marks are 0-based and relative to the ResourceList's document.
    std::size_t first_line = stream_.lines().LineOf(list_.envelope.span().begin);
    return FieldPathAt(item->node, line - first_line, where.column - 1);
  }

 private:
  const Stream& stream_;
  const ResourceList& list_;
  const ItemStream& items_;
};

KrmResult ResultFor(const Finding& finding, const ItemLocator& locator) {
  KrmResult result;
  result.message = finding.message;
  result.severity = finding.severity;
  result.rule = finding.rule;
  if (const ResourceListItem* item = locator.ItemOf(finding.where)) {
    result.api_version = item->api_version;
    result.kind = item->kind;
    result.name = item->name;
    result.name_space = item->name_space;
    result.field_path = locator.FieldPath(finding.where);
    result.file_path = item->path;
    if (!item->path.empty()) result.file_index = item->index.value_or(0);
  }
  return result;
}

// The edits that replace any `results` the input had with `results`.
std::vector<Edit> ResultsEdits(const Stream& stream, const ResourceList& list,
                               const std::vector<KrmResult>& results) {
  std::vector<Edit> edits;
  if (list.results_end > list.results_begin) {
    edits.push_back(Edit::Replace(list.results_begin, list.results_end, ""));
  }
  std::string_view bytes = stream.bytes();
  std::string line_break = LineBreakAt(bytes, list.envelope.span().begin);
  std::string text = ResultsYaml(results, line_break);
  if (text.empty()) return edits;
  if (list.end > 0 && bytes[list.end - 1] != '\n') text = line_break + text;
  edits.push_back(Edit::Insert(list.end, std::move(text)));
  return edits;
}

}  // namespace

KrmOutput RenderResourceList(const Stream& stream, const ResourceList& list,
                             const RenderOptions& options, bool strict) {
  ItemStream items = ItemsAsStream(stream, list);
  ItemLocator locator(stream, list, items);
  Stream item_stream(items.bytes, stream.origin());
  RenderResult rendered;
  try {
    rendered = Render(item_stream, options);
  } catch (const InputError& e) {
    throw InputError(locator.Relocate(e.where()), e.what());
  }
  std::vector<std::string> texts = ItemsFromStream(stream, list, rendered.output);

  KrmOutput out;
  out.summary = rendered.summary;
  out.stopped = StopsRender(rendered.findings, strict ? FailOn::kWarning : FailOn::kNever);
  std::vector<KrmResult> results;
  for (Finding& finding : rendered.findings) {
    results.push_back(ResultFor(finding, locator));
    finding.where = locator.Relocate(finding.where);
    out.findings.push_back(std::move(finding));
  }
  std::vector<Edit> edits = ResultsEdits(stream, list, results);
  for (std::size_t i = 0; i < list.items.size(); ++i) {
    const ResourceListItem& item = list.items[i];
    if (stream.bytes().compare(item.begin, item.end - item.begin, texts[i]) != 0) {
      edits.push_back(Edit::Replace(item.begin, item.end, std::move(texts[i])));
    }
  }
  out.resource_list = Splice(stream.bytes(), std::move(edits));
  return out;
}

std::string ResourceListWithError(const Stream& stream, const ResourceList& list,
                                  const InputError& error) {
  KrmResult result;
  result.message = error.Describe();
  result.severity = Severity::kError;
  return Splice(stream.bytes(), ResultsEdits(stream, list, {result}));
}

}  // namespace rollcall
