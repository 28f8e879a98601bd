// A list that owns each of its items in an allocation of its own and hands them
// out as references. For items made one by one as a stream is read (a consumer in
// its document's facts): they join the list where they are, where a vector of the
// items themselves would need a second copy of every one, contiguous, beside the
// holes the first copies leave (docs/performance.md).
#pragma once

#include <cstddef>
#include <iterator>
#include <memory>
#include <vector>

namespace rollcall {

template <typename T>
class OwnedList {
  using Slots = std::vector<std::unique_ptr<T>>;

  // An iterator of the slots that reads as one of the items.
  template <typename Slot, typename Item>
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = Item*;
    using reference = Item&;

    Iterator() = default;
    explicit Iterator(Slot slot) : slot_(slot) {}
    Item& operator*() const { return **slot_; }
    Item* operator->() const { return slot_->get(); }
    Iterator& operator++() {
      ++slot_;
      return *this;
    }
    Iterator operator++(int) {
      Iterator before = *this;
      ++slot_;
      return before;
    }
    bool operator==(const Iterator& other) const { return slot_ == other.slot_; }
    bool operator!=(const Iterator& other) const { return slot_ != other.slot_; }

   private:
    Slot slot_{};
  };

 public:
  using iterator = Iterator<typename Slots::iterator, T>;
  using const_iterator = Iterator<typename Slots::const_iterator, const T>;

  // Takes `item` over (not null); returns it.
  T& push_back(std::unique_ptr<T> item) { return *slots_.emplace_back(std::move(item)); }
  void reserve(std::size_t n) { slots_.reserve(n); }
  void clear() { slots_.clear(); }

  std::size_t size() const { return slots_.size(); }
  bool empty() const { return slots_.empty(); }
  T& operator[](std::size_t i) { return *slots_[i]; }
  const T& operator[](std::size_t i) const { return *slots_[i]; }
  iterator begin() { return iterator(slots_.begin()); }
  iterator end() { return iterator(slots_.end()); }
  const_iterator begin() const { return const_iterator(slots_.begin()); }
  const_iterator end() const { return const_iterator(slots_.end()); }

 private:
  Slots slots_;
};

}  // namespace rollcall
