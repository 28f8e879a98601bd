// A list that holds a single item in place and two or more in a vector of their
// own. For what nearly every record of a large stream has exactly one of (a
// consumer's references): a vector's own heap block beside each record costs its
// item and 16 bytes of allocation more (docs/performance.md). The items are
// contiguous either way, and stay where they are until the list is assigned.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace rollcall {

template <typename T>
class InlineFirstList {
 public:
  InlineFirstList() = default;
  explicit InlineFirstList(std::vector<T> items) {
    if (items.size() == 1) {
      one_ = std::move(items.front());
      many_ = OneInPlace();
    } else if (items.size() > 1) {
      items.shrink_to_fit();
      many_ = new std::vector<T>(std::move(items));
    }
  }
  InlineFirstList(InlineFirstList&& other) noexcept
      : one_(std::move(other.one_)), many_(std::exchange(other.many_, nullptr)) {}
  InlineFirstList& operator=(InlineFirstList&& other) noexcept {
    if (this != &other) {
      Free();
      one_ = std::move(other.one_);
      many_ = std::exchange(other.many_, nullptr);
    }
    return *this;
  }
  InlineFirstList(const InlineFirstList&) = delete;
  InlineFirstList& operator=(const InlineFirstList&) = delete;
  ~InlineFirstList() { Free(); }

  std::size_t size() const { return many_ == nullptr ? 0 : HoldsMany() ? many_->size() : 1; }
  bool empty() const { return many_ == nullptr; }
  const T* begin() const { return HoldsMany() ? many_->data() : &one_; }
  const T* end() const { return begin() + size(); }
  T* begin() { return HoldsMany() ? many_->data() : &one_; }
  T* end() { return begin() + size(); }
  const T& operator[](std::size_t i) const { return begin()[i]; }
  T& operator[](std::size_t i) { return begin()[i]; }

 private:
  // What `many_` points to when the one item is in place: an address no vector of
  // the list's own can have.
  static std::vector<T>* OneInPlace() {
    static std::vector<T> marker;
    return &marker;
  }
  bool HoldsMany() const { return many_ != nullptr && many_ != OneInPlace(); }
  void Free() {
    if (HoldsMany()) delete many_;
    many_ = nullptr;
  }

  T one_{};                         // the item, when there is exactly one
  std::vector<T>* many_ = nullptr;  // null: none; OneInPlace(): one; else owned
};

}  // namespace rollcall
