// A list whose elements never move once added, so that a pointer to one stays valid
// for the list's life: what std::deque gives, in blocks of 1,024 elements allocated
// to their exact size where a deque's nodes are 512 bytes (12 Sources of 40 bytes
// in each, 6% of them lost, 2.6 MiB of a million one-line ConfigMaps;
// docs/performance.md).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "rollcall/index_iterator.h"

namespace rollcall {

template <typename T>
class StableList {
 public:
  using iterator = IndexIterator<StableList, T&>;
  using const_iterator = IndexIterator<const StableList, const T&>;

  void push_back(T element) {
    // A block is reserved whole and never filled past it: its elements stay put.
    if (blocks_.empty() || blocks_.back().size() == kPerBlock) {
      blocks_.emplace_back().reserve(kPerBlock);
    }
    blocks_.back().push_back(std::move(element));
  }

  // Every block but the last is full.
  std::size_t size() const {
    return blocks_.empty() ? 0 : (blocks_.size() - 1) * kPerBlock + blocks_.back().size();
  }
  bool empty() const { return blocks_.empty(); }
  T& operator[](std::size_t i) { return blocks_[i / kPerBlock][i % kPerBlock]; }
  const T& operator[](std::size_t i) const { return blocks_[i / kPerBlock][i % kPerBlock]; }
  T& At(std::size_t i) { return (*this)[i]; }
  const T& At(std::size_t i) const { return (*this)[i]; }
  T& back() { return blocks_.back().back(); }

  iterator begin() { return iterator(this, 0); }
  iterator end() { return iterator(this, size()); }
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, size()); }

 private:
  static constexpr std::size_t kPerBlock = 1024;

  std::vector<std::vector<T>> blocks_;
};

}  // namespace rollcall
