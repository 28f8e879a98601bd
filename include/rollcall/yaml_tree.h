// The tree of one YAML document, as every reader of a Kubernetes document sees it:
// built from libyaml's events in the same pass that looks for what Kubernetes'
// YAML reader refuses (yaml_refusals.h), so each document is parsed once, by the C
// library go-yaml was ported from. One flat arena per document; a YamlNode is a
// handle into it (a pointer and an index), cheap to copy, valid while the tree
// lives (Document owns it until DropTree). docs/performance.md says why this
// replaced yaml-cpp's tree for documents.
//
// The handle answers as yaml-cpp's YAML::Node did, so that readers were moved over
// unchanged: an undefined node answers every IsX() with false, Scalar() is "" for
// what is not a scalar, Tag() is "?" for a plain untagged node and "!" for a quoted
// or block untagged scalar, else the resolved tag ("tag:yaml.org,2002:str"); a
// plain untagged scalar that YAML 1.1 reads as null (`~`, `null`, nothing) is a
// null node. An alias is the node of its anchor, marks included.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rollcall {

enum class YamlType : std::uint8_t { kUndefined, kNull, kScalar, kSequence, kMap };
enum class YamlStyle : std::uint8_t { kBlock, kFlow };

// Where a node starts: at its properties (`&a`, `!t`) if it has any, else at its
// content (a quote, a `|`, a `{`, a block mapping's first key, a sequence's `-`);
// an empty value just past its key's colon. `pos` and `column` count bytes, `line`
// from 0. -1 everywhere for an undefined node.
struct YamlMark {
  int pos = -1;
  int line = -1;
  int column = -1;
};

class YamlTree;
class YamlIterator;

class YamlNode {
 public:
  YamlNode() = default;  // undefined

  bool IsDefined() const { return tree_ != nullptr; }
  explicit operator bool() const { return IsDefined(); }
  YamlType Type() const;
  bool IsNull() const { return Type() == YamlType::kNull; }
  bool IsScalar() const { return Type() == YamlType::kScalar; }
  bool IsSequence() const { return Type() == YamlType::kSequence; }
  bool IsMap() const { return Type() == YamlType::kMap; }

  // A scalar's text: a view into the tree, valid while it lives.
  std::string_view Scalar() const;
  const std::string& Tag() const;
  YamlStyle Style() const;
  YamlMark Mark() const;
  // Entries of a mapping, items of a sequence; 0 for anything else.
  std::size_t size() const;

  // A mapping's entries (`first` the key, `second` the value) or a sequence's items
  // (the entry is the item); nothing for anything else.
  YamlIterator begin() const;
  YamlIterator end() const;

  // Rebinds the handle (yaml-cpp's spelling; plain assignment does the same here).
  void reset(const YamlNode& other) { *this = other; }

  // The same node of the same tree.
  bool is(const YamlNode& other) const { return tree_ == other.tree_ && index_ == other.index_; }

  // Where the node is in its tree, and the node of the same tree at such a place:
  // for tables that keep many nodes of one tree in 4 bytes each rather than 16
  // (yaml11.h's JsonMapping). `index` must come from index() of a node of this tree.
  std::uint32_t index() const { return index_; }
  YamlNode InSameTree(std::uint32_t index) const { return {tree_, index}; }

 private:
  friend class YamlTree;
  friend class YamlIterator;
  YamlNode(const YamlTree* tree, std::uint32_t index) : tree_(tree), index_(index) {}
  YamlIterator At(bool end) const;

  const YamlTree* tree_ = nullptr;
  std::uint32_t index_ = 0;
};

// What iterating a node yields: for a sequence the item itself; for a mapping an
// undefined node with the entry's key and value.
struct YamlEntry : YamlNode {
  YamlNode first, second;
};

class YamlIterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = YamlEntry;
  using difference_type = std::ptrdiff_t;
  using pointer = const YamlEntry*;
  using reference = const YamlEntry&;

  YamlIterator() = default;
  reference operator*() const { return entry_; }
  pointer operator->() const { return &entry_; }
  YamlIterator& operator++() {
    at_ += map_ ? 2 : 1;  // a mapping's entry is two children, key and value
    Load();
    return *this;
  }
  YamlIterator operator++(int) {
    YamlIterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const YamlIterator& other) const { return at_ == other.at_; }
  bool operator!=(const YamlIterator& other) const { return at_ != other.at_; }

 private:
  friend class YamlNode;
  YamlIterator(const YamlTree* tree, bool map, std::uint32_t at, std::uint32_t end)
      : tree_(tree), map_(map), at_(at), end_(end) {
    Load();
  }
  void Load();

  const YamlTree* tree_ = nullptr;
  bool map_ = false;
  std::uint32_t at_ = 0;
  std::uint32_t end_ = 0;
  YamlEntry entry_;
};

inline YamlIterator YamlNode::begin() const { return At(false); }
inline YamlIterator YamlNode::end() const { return At(true); }

class YamlTree {
 public:
  YamlNode root() const { return nodes_.empty() ? YamlNode() : YamlNode(this, root_); }

 private:
  friend class YamlNode;
  friend class YamlIterator;
  friend class YamlTreeBuilder;

  struct Record {
    YamlType type;
    YamlStyle style;
    std::uint16_t tag;  // into tags_
    std::uint32_t pos;  // YamlMark's
    std::uint32_t line;
    std::uint32_t column;
    std::uint32_t first;  // a scalar's offset in scalar_text_; a collection's into children_
    std::uint32_t count;  // a scalar's length; a sequence's items, a mapping's entries
  };

  std::vector<Record> nodes_;
  // A collection's children, together: a sequence's items, a mapping's key and value
  // after key and value. An alias is the index of its anchor's node.
  std::vector<std::uint32_t> children_;
  // Every scalar's text, one after the other: a string per scalar took 32 bytes
  // beside its text, most of a ConfigMap of short entries' tree (docs/performance.md).
  std::string scalar_text_;
  std::vector<std::string> tags_;  // "", "?", "!" first
  std::uint32_t root_ = 0;
};

// Builds a tree from a document's nodes in document order (yaml_refusals.cc feeds
// it libyaml's events). The first node begun with no collection open is the root.
class YamlTreeBuilder {
 public:
  // `text`: the document the marks point into (for columns).
  explicit YamlTreeBuilder(std::string_view text);

  // A scalar at byte offset `pos`, line `line`. `tag` empty when untagged; `plain`:
  // written without quotes and not as a block scalar.
  void Scalar(std::size_t pos, std::size_t line, std::string_view anchor, std::string_view tag,
              bool plain, std::string_view value);
  void Alias(std::string_view anchor);
  void Begin(YamlType type, YamlStyle style, std::size_t pos, std::size_t line,
             std::string_view anchor, std::string_view tag);
  void End();
  std::unique_ptr<YamlTree> Finish();

 private:
  std::uint32_t Add(YamlType type, YamlStyle style, std::size_t pos, std::size_t line,
                    std::string_view tag, std::string_view anchor);
  void Place(std::uint32_t index);
  std::uint16_t TagIndex(std::string_view tag);

  std::string_view text_;
  std::unique_ptr<YamlTree> tree_;
  std::vector<std::uint32_t> open_;     // collections begun and not ended
  std::vector<std::uint32_t> pending_;  // their children so far, innermost last
  std::vector<std::size_t> pending_begin_;
  std::unordered_map<std::string, std::uint32_t> anchors_;
  bool has_root_ = false;
  // The start of the line the last node was on (libyaml's line number).
  std::optional<std::size_t> line_start_;
  std::size_t cached_line_ = 0;
};

}  // namespace rollcall
