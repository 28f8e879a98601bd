// An index of the elements of a list its owner keeps, to find one by its key: open
// addressing with linear probing, each slot 4 bytes holding 1 + the element's place
// in the list (0: empty), the table at most half full so that a probe ends soon at
// an empty slot. No hash or key is kept per slot: the owner compares the element
// itself. What FlatStringMap and the Name table share.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

namespace rollcall {

class SlotIndex {
 public:
  // The slot of the element that `is_key(place)` accepts, probing from `hash`, or the
  // empty slot where such an element goes. MakeRoom first: never on an empty table.
  template <typename IsKey>
  std::size_t Find(std::size_t hash, const IsKey& is_key) const {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t at = hash & mask;; at = (at + 1) & mask) {
      if (slots_[at] == 0 || is_key(static_cast<std::size_t>(slots_[at] - 1))) return at;
    }
  }

  bool empty(std::size_t slot) const { return slots_[slot] == 0; }
  // The place in the list of the element in a slot that is not empty.
  std::size_t place(std::size_t slot) const { return slots_[slot] - 1; }
  // Puts the element at `place` in the empty slot Find returned.
  void Set(std::size_t slot, std::size_t place) {
    slots_[slot] = static_cast<std::uint32_t>(place + 1);
  }

  // Room for one more element in a list of `count`: when it would be more than half
  // full, the table doubles and every element goes back in by `hash_of(place)`.
  template <typename HashOf>
  void MakeRoom(std::size_t count, const HashOf& hash_of) {
    MakeRoom(
        count,
        [count](const auto& visit) {
          for (std::size_t place = 0; place < count; ++place) visit(place);
        },
        hash_of);
  }
  // The same for an owner whose places are not 0 … count-1 (the Name table's are
  // offsets in its blocks): `for_each_place(visit)` calls visit with each of them.
  template <typename ForEachPlace, typename HashOf>
  void MakeRoom(std::size_t count, const ForEachPlace& for_each_place, const HashOf& hash_of) {
    if ((count + 1) * 2 <= slots_.size()) return;
    if (count + 1 >= std::numeric_limits<std::uint32_t>::max()) {
      throw std::length_error("rollcall: more than 4 billion elements in one index");
    }
    std::vector<std::uint32_t>(slots_.empty() ? 16 : slots_.size() * 2, 0).swap(slots_);
    const std::size_t mask = slots_.size() - 1;
    for_each_place([&](std::size_t place) {
      std::size_t at = hash_of(place) & mask;
      while (slots_[at] != 0) at = (at + 1) & mask;
      Set(at, place);
    });
  }

  void Clear() { std::vector<std::uint32_t>().swap(slots_); }

 private:
  std::vector<std::uint32_t> slots_;
};

}  // namespace rollcall
