#include "rollcall/annotate.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <optional>

#include "rollcall/input_error.h"
#include "rollcall/utf8.h"
#include "rollcall/yaml_text.h"

namespace rollcall {
namespace {

constexpr std::size_t kNoPos = std::string_view::npos;

// A small mapping to write into the document: leaves are strings.
struct Tree {
  std::string key;
  std::string value;  // a leaf when children is empty
  std::vector<Tree> children;
};

// A string as a double-quoted scalar: valid JSON and valid YAML, and never read
// as a bool, number or null.
// `value` as a double-quoted YAML scalar that go-yaml reads back as the same string:
// JSON's quoting (control characters below U+0020 escaped), and escaped besides what
// go-yaml (YAML 1.1) would not read back as written: DEL and the C1 controls, which
// it refuses, U+0085, U+2028 and U+2029, which it folds as line breaks, and U+FEFF.
std::string Quote(const std::string& value) {
  std::string json = nlohmann::json(value).dump();
  std::string out;
  out.reserve(json.size());
  for (std::size_t i = 0; i < json.size();) {
    char32_t c = 0;
    std::size_t length = DecodeUtf8(json, i, c);
    if (length == 0) length = 1;  // not reached: the input passed the text checks
    const bool escape =
        c == 0x7F || (c >= 0x80 && c <= 0x9F) || c == 0x2028 || c == 0x2029 || c == 0xFEFF;
    if (escape) {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += "\\u";
      for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(c >> shift) & 0xF];
    } else {
      out.append(json, i, length);
    }
    i += length;
  }
  return out;
}

std::string RenderFlow(const std::vector<Tree>& entries) {
  std::string out;
  for (const Tree& entry : entries) {
    if (!out.empty()) out += ", ";
    out += Quote(entry.key) + ": ";
    out += entry.children.empty() ? Quote(entry.value) : "{" + RenderFlow(entry.children) + "}";
  }
  return out;
}

// Lines at `column`, each ended by `nl`.
std::string RenderBlock(const std::vector<Tree>& entries, std::size_t column, std::size_t unit,
                        const std::string& nl) {
  std::string out;
  for (const Tree& entry : entries) {
    out += std::string(column, ' ') + entry.key + ":";
    if (entry.children.empty()) {
      out += " " + Quote(entry.value) + nl;
    } else {
      out += nl + RenderBlock(entry.children, column + unit, unit, nl);
    }
  }
  return out;
}

// A mapping entry of a captured template (node_shape.h).
struct Entry {
  const NodeShape& key;
  const NodeShape& value;
};

class AnnotationEditor {
 public:
  AnnotationEditor(const Document& doc, const AnnotationChange& change)
      : doc_(doc), text_(doc.stream().bytes()), change_(change) {}

  // Writes `text` as the value of `key` in `map` (rollcall's renames).
  std::vector<Edit> SetScalar(const NodeShape& map, const std::string& key,
                              const std::string& text) {
    std::optional<Entry> entry = Find(map, key);
    if (!entry) throw InputError(doc_.LocateAt(map.pos), doc_.Describe() + ": no " + key);
    // A Kubernetes name is written plain; anything else (a name Kubernetes would
    // refuse, such as " ") is quoted, so that it reads back as the same string.
    bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '.' || c == '_';
    }) && std::isalnum(static_cast<unsigned char>(text[0])) != 0;
    SetValueText(map, *entry, plain ? text : Quote(text));
    return std::move(edits_);
  }

  std::vector<Edit> Run(const NodeShape& pod_template) {
    RefuseMergeKey(pod_template, "");
    std::optional<Entry> metadata = Find(pod_template, "metadata");
    if (!metadata) {
      if (!change_.set.empty()) {
        Tree annotations{"annotations", "", Leaves()};
        InsertEntries(pod_template, {Tree{"metadata", "", {annotations}}}, {&pod_template});
      }
      return std::move(edits_);
    }
    CheckEditable(pod_template, *metadata, "metadata");
    if (metadata->value.IsNull()) {
      if (!change_.set.empty()) {
        FillNull(pod_template, *metadata, {Tree{"annotations", "", Leaves()}});
      }
      return std::move(edits_);
    }
    if (!metadata->value.IsMap()) Fail(metadata->value, "metadata must be a mapping");
    RefuseMergeKey(metadata->value, "metadata ");
    std::optional<Entry> annotations = Find(metadata->value, "annotations");
    if (!annotations) {
      if (!change_.set.empty()) {
        InsertEntries(metadata->value, {Tree{"annotations", "", Leaves()}},
                      {&metadata->value, &pod_template});
      }
      return std::move(edits_);
    }
    CheckEditable(metadata->value, *annotations, "metadata.annotations");
    if (annotations->value.IsNull()) {
      if (!change_.set.empty()) FillNull(metadata->value, *annotations, Leaves());
      return std::move(edits_);
    }
    if (!annotations->value.IsMap()) Fail(annotations->value, "annotations must be a mapping");
    RefuseMergeKey(annotations->value, "metadata.annotations ");
    if (RemoveEmptiedBlock(pod_template, *metadata, *annotations)) return std::move(edits_);
    EditMap(annotations->value, {&annotations->value, &metadata->value, &pod_template});
    return std::move(edits_);
  }

 private:
  [[noreturn]] void Fail(const NodeShape& node, const std::string& what) const {
    throw InputError(doc_.LocateAt(node.pos), doc_.Describe() + ": pod template " + what);
  }

  std::size_t At(const NodeShape& node) const { return doc_.span().begin + node.pos; }

  bool IsFlow(const NodeShape& map) const {
    std::size_t pos = SkipProperties(text_, At(map));
    return pos < text_.size() && text_[pos] == '{';
  }

  std::string LineBreak(std::size_t pos) const { return LineBreakAt(text_, pos); }

  std::vector<Tree> Leaves() const {
    std::vector<Tree> out;
    for (const auto& [key, value] : change_.set) out.push_back(Tree{key, value, {}});
    return out;
  }

  // The entry for `key`; the last one when duplicated, as Kubernetes reads it.
  static std::optional<Entry> Find(const NodeShape& map, const std::string& key) {
    std::optional<ShapeEntry> found = FindEntry(map, key);
    if (!found) return std::nullopt;
    return Entry{found->first, found->second};
  }

  static std::size_t CountKey(const NodeShape& map, const std::string& key) {
    std::size_t count = 0;
    for (const auto& item : map.entries())
      count += item.first.IsScalar() && item.first.scalar == key;
    return count;
  }

  static std::string KeyText(const NodeShape& key) {
    return key.IsScalar() ? key.scalar.str() : "";
  }

  // A merge key (<<: *base) on the way to the annotations: go-yaml writes the merged
  // entries where the key stands, over the ones before it, so an entry rollcall adds
  // or edits next to it may be replaced by a merged one (a whole metadata, say) and
  // Kubernetes would read something else than rollcall reported. Refused, naming
  // the line, rather than guessed at.
  void RefuseMergeKey(const NodeShape& map, const std::string& what) const {
    for (const auto& entry : map.entries()) {
      if (entry.first.IsScalar() && entry.first.scalar == "<<") {
        Fail(entry.first, what +
                              "holds a merge key (<<); rollcall cannot add its annotations "
                              "there without changing what Kubernetes reads: write the "
                              "merged entries out");
      }
    }
  }

  // An edit inside an alias or inside an anchored node that is aliased elsewhere
  // would change every place that shares it. Read from the bytes after the key's
  // colon, not from the node: an alias of an anchor defined twice, or of a null,
  // carries the marks of whichever definition the parser resolved it to, and a null
  // is filled in place just as a mapping is edited.
  void CheckEditable(const NodeShape& map, const Entry& entry, const std::string& what) const {
    std::size_t colon = ColonAfterKey(text_, At(entry.key), IsFlow(map));
    if (colon == kNoPos) Fail(entry.key, what + " is written in a form rollcall cannot edit");
    std::size_t value = ValueStartAfter(text_, colon);
    if ((value < text_.size() && text_[value] == '*') ||
        (!entry.value.IsNull() && At(entry.value) < At(entry.key))) {
      Fail(entry.key, what + " is a YAML alias; rollcall would change every place that uses it");
    }
    std::string anchor = AnchorAt(text_, value);
    std::string_view doc_text = doc_.span().Text(text_);
    if (!anchor.empty() && doc_text.find("*" + anchor) != std::string_view::npos) {
      Fail(entry.key, what + " is anchored as &" + anchor +
                          " and aliased elsewhere; rollcall would change every place that uses it");
    }
  }

  // Spaces one nesting level adds, read from the first block mapping found under
  // one of `maps`; 2 when the document shows none.
  std::size_t IndentUnit(const std::vector<const NodeShape*>& maps) const {
    for (const NodeShape* map : maps) {
      if (!map->IsMap() || IsFlow(*map)) continue;
      for (const auto& [key, child] : map->entries()) {
        if (!child.IsMap() || child.size == 0 || IsFlow(child) || At(child) < At(key)) {
          continue;
        }
        std::size_t key_column = key.column;
        std::size_t child_column = child.column;
        if (child_column > key_column) return child_column - key_column;
      }
    }
    return 2;
  }

  // Adds new entries to an existing mapping, before its first entry.
  void InsertEntries(const NodeShape& map, const std::vector<Tree>& entries,
                     const std::vector<const NodeShape*>& unit_hints) {
    if (IsFlow(map)) {
      std::size_t brace = SkipProperties(text_, At(map));
      if (!map.entries().empty()) {
        std::size_t first = At(map.entries().front().first);
        if (text_.find('\n', brace) < first && OnlySpacesBefore(text_, first)) {
          // One entry a line (pretty-printed JSON): new entries get lines of their own.
          std::string indent(first - LineStartOf(text_, first), ' ');
          std::string lines;
          for (const Tree& entry : entries) {
            lines += indent + RenderFlow({entry}) + "," + LineBreak(first);
          }
          edits_.push_back(Edit::Insert(LineStartOf(text_, first), lines));
          return;
        }
      }
      std::string text = RenderFlow(entries);
      if (map.size > 0) text += ", ";
      edits_.push_back(Edit::Insert(brace + 1, text));
      return;
    }
    if (map.entries().empty())
      Fail(map, "mapping has no entries rollcall can place annotations by");
    const NodeShape& first_key = map.entries().front().first;
    std::size_t pos = At(first_key);
    std::size_t column = first_key.column;
    std::string block = RenderBlock(entries, column, IndentUnit(unit_hints), LineBreak(pos));
    if (OnlySpacesBefore(text_, pos)) {
      edits_.push_back(Edit::Insert(LineStartOf(text_, pos), block));
      return;
    }
    // The first key follows "- " or the like: insert at the key itself, so the
    // original key moves down a line and keeps its column.
    edits_.push_back(Edit::Insert(pos, block.substr(column) + std::string(column, ' ')));
  }

  // Gives a key whose value is null ("key:", "key: ~") a flow mapping as value.
  void FillNull(const NodeShape& map, const Entry& entry, const std::vector<Tree>& entries) {
    std::string text = "{" + RenderFlow(entries) + "}";
    SetValueText(map, entry, text);
  }

  // Writes `text` as the value of an existing entry, unless it is already there.
  void SetValueText(const NodeShape& map, const Entry& entry, const std::string& text) {
    bool flow = IsFlow(map);
    std::size_t colon = ColonAfterKey(text_, At(entry.key), flow);
    if (colon == kNoPos) Fail(entry.key, "entry is written in a form rollcall cannot edit");
    std::size_t value = colon + 1;
    while (value < text_.size() && (text_[value] == ' ' || text_[value] == '\t')) ++value;
    const std::size_t content = SkipProperties(text_, value);
    if (entry.value.IsNull() && text_.find('!', value) < content) {
      // A tagged null (`!!null ~`, `!!null`): the tag goes with it, or it would
      // tag the mapping written in its place.
      std::size_t end =
          IsExplicitNullAt(text_, content) ? ScalarEnd(text_, content, flow) : content;
      while (end > value && (text_[end - 1] == ' ' || text_[end - 1] == '\t')) --end;
      if (end == kNoPos) Fail(entry.value, "value is written in a form rollcall cannot edit");
      edits_.push_back(Edit::Replace(value, end, text));
      return;
    }
    bool empty_null = entry.value.IsNull() && !IsExplicitNullAt(text_, value);
    if (empty_null) {
      // After any anchor or tag the empty value carries ("name: &a"), which belong to it.
      std::size_t after = SkipProperties(text_, value);
      while (after > value && (text_[after - 1] == ' ' || text_[after - 1] == '\t')) --after;
      edits_.push_back(Edit::Insert(after > value ? after : colon + 1, " " + text));
      return;
    }
    // The value's anchor or tag stays; only the scalar after it is replaced.
    std::size_t begin = SkipProperties(text_, At(entry.value));
    std::size_t end = ScalarEnd(text_, begin, flow);
    if (!entry.value.IsScalar() && !entry.value.IsNull()) end = kNoPos;
    if (end == kNoPos) {
      Fail(entry.value, "annotation " + KeyText(entry.key) +
                            " is written in a form rollcall cannot replace; write it as a"
                            " quoted string or remove it");
    }
    if (text_.compare(begin, end - begin, text) != 0) {
      edits_.push_back(Edit::Replace(begin, end, text));
    }
  }

  // One past the end of an entry's value (for a null, of its colon), or npos.
  std::size_t EntryEnd(const Entry& entry, bool flow) const {
    if (entry.value.IsNull() && !IsExplicitNullAt(text_, At(entry.value))) {
      std::size_t colon = ColonAfterKey(text_, At(entry.key), flow);
      return colon == kNoPos ? kNoPos : colon + 1;
    }
    if (!entry.value.IsScalar() && !entry.value.IsNull()) return kNoPos;
    return ScalarEnd(text_, At(entry.value), flow);
  }

  // The bytes to delete for removing the entries flagged in `removed`: whole lines
  // in a block mapping; in a flow mapping each entry with the separator after it,
  // or, for entries after the last one kept, with the separator before them.
  std::vector<Edit> Deletions(const NodeShape& map, const std::vector<bool>& removed) const {
    std::vector<Entry> items;
    for (const auto& [key, value] : map.entries()) items.push_back(Entry{key, value});
    bool flow = IsFlow(map);
    std::vector<Edit> deletions;
    std::optional<std::size_t> last_kept;
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (!removed[i]) last_kept = i;
    }
    std::optional<std::size_t> previous_kept;
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (!removed[i]) {
        previous_kept = i;
        continue;
      }
      const Entry& entry = items[i];
      std::size_t end = EntryEnd(entry, flow);
      if (end == kNoPos || (!flow && !OnlySpacesBefore(text_, At(entry.key)))) {
        Fail(entry.key, "annotation " + KeyText(entry.key) + " cannot be removed safely");
      }
      if (!flow) {
        deletions.push_back(
            Edit::Replace(LineStartOf(text_, At(entry.key)), NextLineStart(text_, end), ""));
      } else if ((last_kept && *last_kept > i) || (!previous_kept && i + 1 < items.size())) {
        deletions.push_back(Edit::Replace(At(entry.key), At(items[i + 1].key), ""));
      } else if (previous_kept) {
        std::size_t kept_end = EntryEnd(items[*previous_kept], flow);
        if (kept_end == kNoPos) {
          Fail(entry.key, "annotation " + KeyText(entry.key) + " cannot be removed safely");
        }
        deletions.push_back(Edit::Replace(kept_end, end, ""));
      } else {
        deletions.push_back(Edit::Replace(At(entry.key), end, ""));
      }
    }
    return deletions;
  }

  // When a removal empties a block `annotations:` mapping, takes the key away too
  // (and `metadata:` when nothing else is in it), so that a template rollcall once
  // annotated reads as it did before. Returns false when this does not apply.
  bool RemoveEmptiedBlock(const NodeShape& pod_template, const Entry& metadata,
                          const Entry& annotations) {
    const NodeShape& map = annotations.value;
    if (!change_.set.empty() || map.entries().empty() || IsFlow(map) || IsFlow(metadata.value)) {
      return false;
    }
    for (const auto& item : map.entries()) {
      std::string key = KeyText(item.first);
      if (std::find(change_.remove.begin(), change_.remove.end(), key) == change_.remove.end()) {
        return false;
      }
    }
    const auto& [last_key, last_value] = map.entries().back();
    std::size_t end = EntryEnd(Entry{last_key, last_value}, false);
    bool whole_metadata = metadata.value.size == 1;
    const Entry& owner = whole_metadata ? metadata : annotations;
    // With the key written twice, removing the last one would make the other count.
    if (CountKey(whole_metadata ? pod_template : metadata.value, owner.key.scalar) > 1) {
      return false;
    }
    if (end == kNoPos || !OnlySpacesBefore(text_, At(owner.key))) return false;
    edits_.push_back(
        Edit::Replace(LineStartOf(text_, At(owner.key)), NextLineStart(text_, end), ""));
    return true;
  }

  void EditMap(const NodeShape& map, const std::vector<const NodeShape*>& unit_hints) {
    std::vector<Tree> missing;
    for (const auto& [key, value] : change_.set) {
      std::optional<Entry> entry = Find(map, key);
      if (entry) {
        SetValueText(map, *entry, Quote(value));
      } else {
        missing.push_back(Tree{key, value, {}});
      }
    }
    std::vector<bool> removed;
    for (const auto& item : map.entries()) {
      std::string key = KeyText(item.first);
      removed.push_back(std::find(change_.remove.begin(), change_.remove.end(), key) !=
                        change_.remove.end());
    }
    if (!missing.empty()) InsertEntries(map, missing, unit_hints);
    MergeDeletions(Deletions(map, removed));
  }

  // Deletions in one flow mapping can touch (two neighbours removed); merge them so
  // the splice sees disjoint ranges.
  void MergeDeletions(std::vector<Edit> deletions) {
    std::sort(deletions.begin(), deletions.end(),
              [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
    std::vector<Edit> merged;
    for (Edit& deletion : deletions) {
      if (!merged.empty() && deletion.begin <= merged.back().end) {
        merged.back().end = std::max(merged.back().end, deletion.end);
      } else {
        merged.push_back(std::move(deletion));
      }
    }
    for (Edit& deletion : merged) edits_.push_back(std::move(deletion));
  }

  const Document& doc_;
  std::string_view text_;
  const AnnotationChange& change_;
  std::vector<Edit> edits_;
};

}  // namespace

CapturedShape CaptureForEdit(const YamlNode& map) {
  return CaptureShape(map, {"metadata", "annotations"});
}

std::vector<Edit> EditAnnotations(const Document& doc, const NodeShape& pod_template,
                                  const AnnotationChange& change) {
  return AnnotationEditor(doc, change).Run(pod_template);
}

AnnotationChange ConfigHashChange(const std::optional<TemplateHash>& hash) {
  AnnotationChange change;
  if (hash) {
    change.set = {{kConfigHashAnnotation, hash->hash}, {kConfigSourcesAnnotation, hash->sources}};
  } else {
    change.remove = {kConfigHashAnnotation, kConfigSourcesAnnotation};
  }
  return change;
}

bool EditsEitherConfigHashChange(const Document& doc, const NodeShape& pod_template) {
  try {
    EditAnnotations(doc, pod_template, ConfigHashChange(TemplateHash{"sha256:0", "secret/s"}));
    EditAnnotations(doc, pod_template, ConfigHashChange(std::nullopt));
  } catch (const InputError&) {
    return false;
  }
  return true;
}

std::vector<Edit> SetScalarValue(const Document& doc, const NodeShape& map, const std::string& key,
                                 const std::string& text) {
  AnnotationChange nothing;
  return AnnotationEditor(doc, nothing).SetScalar(map, key, text);
}

}  // namespace rollcall
