#include "rollcall/krm/item_stream.h"

#include <algorithm>

#include "rollcall/input_error.h"

namespace rollcall {
namespace {

constexpr std::string_view kSeparator = "---\n";

// Item `item`'s text as a document: its '-' a space, a line break at the end.
std::string ItemDocument(const Stream& stream, const ResourceListItem& item) {
  std::string text(stream.bytes().substr(item.begin, item.end - item.begin));
  text[item.dash - item.begin] = ' ';
  if (text.back() != '\n') text += '\n';
  return text;
}

}  // namespace

ItemStream ItemsAsStream(const Stream& stream, const ResourceList& list) {
  ItemStream out;
  std::size_t line = 1;
  for (const ResourceListItem& item : list.items) {
    out.bytes += kSeparator;
    out.first_line.push_back(++line);
    std::string text = ItemDocument(stream, item);
    line += static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    out.bytes += text;
  }
  return out;
}

std::vector<std::string> ItemsFromStream(const Stream& stream, const ResourceList& list,
                                         const std::string& rendered) {
  std::vector<DocumentSpan> spans = SplitDocuments(rendered);
  spans.erase(std::remove_if(spans.begin(), spans.end(),
                             [](const DocumentSpan& span) { return span.empty; }),
              spans.end());
  auto misaligned = [&stream](const ResourceListItem& item) {
    return InputError(stream.Locate(DocumentSpan{}, item.begin),
                      "rollcall cannot take this item apart from the others after rendering "
                      "(does it hold a line starting with \"---\" or \"...\"?)");
  };
  if (spans.size() != list.items.size()) {
    throw misaligned(list.items.empty() ? ResourceListItem{} : list.items.front());
  }
  std::vector<std::string> texts;
  for (std::size_t i = 0; i < spans.size(); ++i) {
    const ResourceListItem& item = list.items[i];
    std::string_view text = spans[i].Text(rendered);
    std::string original = ItemDocument(stream, item);
    std::size_t dash = item.dash - item.begin;
    // Render edits only inside the item's mapping, never the line's indentation.
    if (text.substr(0, kSeparator.size()) != kSeparator ||
        text.substr(kSeparator.size(), dash + 1) !=
            std::string_view(original).substr(0, dash + 1)) {
      throw misaligned(item);
    }
    std::string back(text.substr(kSeparator.size()));
    back[dash] = '-';
    if (stream.bytes()[item.end - 1] != '\n' && !back.empty() && back.back() == '\n') {
      back.pop_back();
    }
    texts.push_back(std::move(back));
  }
  return texts;
}

std::size_t ResourceListLine(const Stream& stream, const ResourceList& list,
                             const ItemStream& items, std::size_t item, std::size_t line) {
  return stream.lines().LineOf(list.items[item].begin) + (line - items.first_line[item]);
}

}  // namespace rollcall
