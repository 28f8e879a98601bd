#include "rollcall/flat_string_map.h"

#include <functional>
#include <limits>
#include <stdexcept>

namespace rollcall {

std::string_view FlatStringMap::Emplace(std::string_view key, std::string_view value) {
  // At most half full: a probe ends soon at an empty slot.
  if ((entries_.size() + 1) * 2 > slots_.size()) Grow();
  const std::size_t slot = Slot(key);
  if (slots_[slot] != 0) return Value(entries_[slots_[slot] - 1]);
  if (text_.size() + key.size() + value.size() > std::numeric_limits<std::uint32_t>::max()) {
    throw std::length_error("rollcall: a mapping's keys exceed 4 GiB");
  }
  Entry entry{static_cast<std::uint32_t>(text_.size()), static_cast<std::uint32_t>(key.size()),
              static_cast<std::uint32_t>(value.size())};
  text_.append(key).append(value);
  entries_.push_back(entry);
  slots_[slot] = static_cast<std::uint32_t>(entries_.size());
  return value;
}

std::size_t FlatStringMap::Slot(std::string_view key) const {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t at = std::hash<std::string_view>()(key) & mask;; at = (at + 1) & mask) {
    if (slots_[at] == 0 || Key(entries_[slots_[at] - 1]) == key) return at;
  }
}

void FlatStringMap::Grow() {
  std::vector<std::uint32_t>(slots_.empty() ? 16 : slots_.size() * 2, 0).swap(slots_);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t index = 0; index < entries_.size(); ++index) {
    std::size_t at = std::hash<std::string_view>()(Key(entries_[index])) & mask;
    while (slots_[at] != 0) at = (at + 1) & mask;
    slots_[at] = static_cast<std::uint32_t>(index + 1);
  }
}

}  // namespace rollcall
