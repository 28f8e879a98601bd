#include "rollcall/yaml_tree.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "rollcall/yaml11.h"
#include "rollcall/yaml_text.h"

namespace rollcall {
namespace {

const std::string& Empty() {
  static const std::string empty;
  return empty;
}

std::uint32_t Narrow(std::size_t value) {
  if (value > std::numeric_limits<std::uint32_t>::max()) {
    throw std::length_error("rollcall: a YAML document too large for its tree");
  }
  return static_cast<std::uint32_t>(value);
}

}  // namespace

YamlType YamlNode::Type() const {
  return tree_ == nullptr ? YamlType::kUndefined : tree_->nodes_[index_].type;
}

std::string_view YamlNode::Scalar() const {
  if (tree_ == nullptr) return {};
  const YamlTree::Record& node = tree_->nodes_[index_];
  if (node.type != YamlType::kScalar) return {};
  return std::string_view(tree_->scalar_text_).substr(node.first, node.count);
}

const std::string& YamlNode::Tag() const {
  return tree_ == nullptr ? Empty() : tree_->tags_[tree_->nodes_[index_].tag];
}

YamlStyle YamlNode::Style() const {
  return tree_ == nullptr ? YamlStyle::kBlock : tree_->nodes_[index_].style;
}

YamlMark YamlNode::Mark() const {
  if (tree_ == nullptr) return {};
  const YamlTree::Record& node = tree_->nodes_[index_];
  return {static_cast<int>(node.pos), static_cast<int>(node.line), static_cast<int>(node.column)};
}

std::size_t YamlNode::size() const {
  if (tree_ == nullptr) return 0;
  const YamlTree::Record& node = tree_->nodes_[index_];
  return node.type == YamlType::kMap || node.type == YamlType::kSequence ? node.count : 0;
}

YamlIterator YamlNode::At(bool at_end) const {
  if (size() == 0) return {};
  const YamlTree::Record& node = tree_->nodes_[index_];
  bool map = node.type == YamlType::kMap;
  std::uint32_t end = node.first + node.count * (map ? 2 : 1);
  return {tree_, map, at_end ? end : node.first, end};
}

void YamlIterator::Load() {
  if (at_ >= end_) {
    entry_ = YamlEntry();
    return;
  }
  const std::vector<std::uint32_t>& children = tree_->children_;
  if (map_) {
    entry_.first = YamlNode(tree_, children[at_]);
    entry_.second = YamlNode(tree_, children[at_ + 1]);
  } else {
    static_cast<YamlNode&>(entry_) = YamlNode(tree_, children[at_]);
  }
}

YamlTreeBuilder::YamlTreeBuilder(std::string_view text)
    : text_(text), tree_(std::make_unique<YamlTree>()) {
  tree_->tags_ = {"", "?", "!"};
  // Room for a node every three bytes, which dense YAML (`a: 1`, `[1,2]`) comes
  // near and most YAML is far from: reserved, not touched, so the pages a tree does
  // not use are never resident, and a tree grows without the copies (and the two
  // arrays held at once) of a vector doubling: a ConfigMap of a hundred thousand
  // short entries peaked at half again its tree (docs/performance.md).
  const std::size_t nodes = text.size() / 3 + 1;
  tree_->nodes_.reserve(nodes);
  tree_->children_.reserve(nodes);
  // Scalars are at most as long as the text they are written in, with a line
  // break more: reserved alike.
  tree_->scalar_text_.reserve(text.size() + 1);
}

std::uint16_t YamlTreeBuilder::TagIndex(std::string_view tag) {
  std::vector<std::string>& tags = tree_->tags_;
  auto found = std::find(tags.begin(), tags.end(), tag);
  if (found != tags.end()) return static_cast<std::uint16_t>(found - tags.begin());
  if (tags.size() >= std::numeric_limits<std::uint16_t>::max()) {
    throw std::length_error("rollcall: a YAML document with too many tags for its tree");
  }
  tags.emplace_back(tag);
  return static_cast<std::uint16_t>(tags.size() - 1);
}

std::uint32_t YamlTreeBuilder::Add(YamlType type, YamlStyle style, std::size_t pos,
                                   std::size_t line, std::string_view tag,
                                   std::string_view anchor) {
  std::size_t at = std::min(pos, text_.size());
  // Nodes come in document order: a line's start is looked for once, not for every
  // node on it (a one-line JSON document of a million nodes was quadratic).
  if (!line_start_ || line != cached_line_) {
    line_start_ = LineStartOf(text_, at);
    cached_line_ = line;
  }
  YamlTree::Record record{
      type, style, TagIndex(tag), Narrow(pos), Narrow(line), Narrow(at - *line_start_), 0, 0};
  auto index = Narrow(tree_->nodes_.size());
  tree_->nodes_.push_back(record);
  // A later anchor of the same name replaces the earlier one, as in libyaml.
  if (!anchor.empty()) anchors_.insert_or_assign(std::string(anchor), index);
  return index;
}

void YamlTreeBuilder::Place(std::uint32_t index) {
  if (open_.empty() && !has_root_) {
    tree_->root_ = index;
    has_root_ = true;
    return;
  }
  pending_.push_back(index);
}

void YamlTreeBuilder::Scalar(std::size_t pos, std::size_t line, std::string_view anchor,
                             std::string_view tag, bool plain, std::string_view value) {
  // yaml-cpp's tags, which yaml11.h reads: "?" plain and untagged, "!" quoted or
  // block and untagged; a plain untagged null has none.
  bool null = tag.empty() && plain && IsNullWord(value);
  std::string_view written = !tag.empty() ? tag : null ? "" : plain ? "?" : "!";
  std::uint32_t index = Add(null ? YamlType::kNull : YamlType::kScalar, YamlStyle::kBlock, pos,
                            line, written, anchor);
  if (!null) {
    YamlTree::Record& record = tree_->nodes_[index];
    record.first = Narrow(tree_->scalar_text_.size());
    record.count = Narrow(value.size());
    tree_->scalar_text_.append(value);
  }
  Place(index);
}

void YamlTreeBuilder::Alias(std::string_view anchor) {
  auto found = anchors_.find(std::string(anchor));
  // The refusal scan refuses an alias of an unknown anchor before it gets here.
  if (found == anchors_.end()) throw std::logic_error("rollcall: an alias of an unknown anchor");
  Place(found->second);
}

void YamlTreeBuilder::Begin(YamlType type, YamlStyle style, std::size_t pos, std::size_t line,
                            std::string_view anchor, std::string_view tag) {
  std::uint32_t index = Add(type, style, pos, line, tag.empty() ? "?" : tag, anchor);
  Place(index);
  open_.push_back(index);
  pending_begin_.push_back(pending_.size());
}

void YamlTreeBuilder::End() {
  if (open_.empty()) throw std::logic_error("rollcall: a YAML collection ended twice");
  std::uint32_t index = open_.back();
  std::size_t begin = pending_begin_.back();
  open_.pop_back();
  pending_begin_.pop_back();
  YamlTree::Record& node = tree_->nodes_[index];
  std::size_t children = pending_.size() - begin;
  node.first = Narrow(tree_->children_.size());
  node.count = Narrow(node.type == YamlType::kMap ? children / 2 : children);
  tree_->children_.insert(tree_->children_.end(), pending_.begin() + static_cast<long>(begin),
                          pending_.end());
  pending_.resize(begin);
}

std::unique_ptr<YamlTree> YamlTreeBuilder::Finish() {
  if (!open_.empty()) throw std::logic_error("rollcall: a YAML collection left open");
  if (!has_root_) tree_->nodes_.clear();
  return std::move(tree_);
}

}  // namespace rollcall
