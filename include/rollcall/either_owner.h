// Owns an A, a B or nothing, in the room of one pointer: the pointer's low bit
// tells which (both types are aligned to at least 2 bytes, so a real address has
// it clear). For a record kept for every document of a large stream that, at
// different times, holds one block or another and rarely both: a second pointer
// beside each record cost 8 bytes for every document (docs/performance.md).
#pragma once

#include <cstdint>
#include <memory>
#include <utility>

namespace rollcall {

template <typename A, typename B>
class EitherOwner {
 public:
  EitherOwner() = default;
  EitherOwner(EitherOwner&& other) noexcept : bits_(std::exchange(other.bits_, 0)) {}
  EitherOwner& operator=(EitherOwner&& other) noexcept {
    if (this != &other) {
      Reset();
      bits_ = std::exchange(other.bits_, 0);
    }
    return *this;
  }
  EitherOwner(const EitherOwner&) = delete;
  EitherOwner& operator=(const EitherOwner&) = delete;
  ~EitherOwner() { Reset(); }

  // What it owns, or null when it owns the other or nothing. (The casts back from
  // the tagged integer are what this class is for.)
  // NOLINTNEXTLINE(performance-no-int-to-ptr)
  A* first() const { return IsSecond() ? nullptr : reinterpret_cast<A*>(bits_); }
  // NOLINTNEXTLINE(performance-no-int-to-ptr)
  B* second() const { return IsSecond() ? reinterpret_cast<B*>(bits_ & ~kSecondBit) : nullptr; }

  // Each lets go of what it owned before.
  void Set(std::unique_ptr<A> a) {
    Reset();
    bits_ = reinterpret_cast<std::uintptr_t>(a.release());
  }
  void Set(std::unique_ptr<B> b) {
    static_assert(alignof(B) >= 2, "the low bit of a B's address tells it apart");
    Reset();
    if (b) bits_ = reinterpret_cast<std::uintptr_t>(b.release()) | kSecondBit;
  }
  // What it owns of that type, which it then no longer owns; null when it owns
  // the other (kept) or nothing.
  std::unique_ptr<A> TakeFirst() {
    std::unique_ptr<A> a(first());
    if (a) bits_ = 0;
    return a;
  }
  std::unique_ptr<B> TakeSecond() {
    std::unique_ptr<B> b(second());
    if (b) bits_ = 0;
    return b;
  }
  void Reset() {
    if (IsSecond()) {
      delete second();
    } else {
      delete first();
    }
    bits_ = 0;
  }

 private:
  static constexpr std::uintptr_t kSecondBit = 1;
  bool IsSecond() const { return (bits_ & kSecondBit) != 0; }

  std::uintptr_t bits_ = 0;
};

}  // namespace rollcall
