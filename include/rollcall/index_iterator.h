// An iterator over a container whose elements are read by index: `container.At(i)`
// returns the i-th, by value (a view of a key and a value, a node's handles), so
// that the container keeps its elements packed and hands out what they mean
// (source_entries.h, yaml11.h's JsonMapping), or by reference, from a place that a
// list of places orders (source_table.h), or from a list of blocks (stable_list.h).
// `Container` is const for a container read only.
#pragma once

#include <cstddef>
#include <iterator>
#include <type_traits>

namespace rollcall {

template <typename Container, typename Value>
class IndexIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = std::remove_cv_t<std::remove_reference_t<Value>>;
  using difference_type = std::ptrdiff_t;
  using pointer = const value_type*;
  using reference = Value;

  // What `->` returns: the element (or a reference to it), held for the expression.
  struct Arrow {
    Value value;
    pointer operator->() const { return &value; }
  };

  IndexIterator() = default;
  IndexIterator(Container* container, std::size_t index) : container_(container), index_(index) {}

  Value operator*() const { return container_->At(index_); }
  Arrow operator->() const { return Arrow{**this}; }
  IndexIterator& operator++() {
    ++index_;
    return *this;
  }
  IndexIterator operator++(int) {
    IndexIterator before = *this;
    ++index_;
    return before;
  }
  bool operator==(const IndexIterator& other) const { return index_ == other.index_; }
  bool operator!=(const IndexIterator& other) const { return index_ != other.index_; }

 private:
  Container* container_ = nullptr;
  std::size_t index_ = 0;
};

}  // namespace rollcall
