#include "rollcall/flat_string_map.h"

#include <functional>
#include <limits>
#include <stdexcept>

namespace rollcall {

std::string_view FlatStringMap::Emplace(std::string_view key, std::string_view value) {
  index_.MakeRoom(entries_.size(), [&](std::size_t place) {
    return std::hash<std::string_view>()(Key(entries_[place]));
  });
  const std::size_t slot = index_.Find(std::hash<std::string_view>()(key), [&](std::size_t place) {
    return Key(entries_[place]) == key;
  });
  if (!index_.empty(slot)) return Value(entries_[index_.place(slot)]);
  if (text_.size() + key.size() + value.size() > std::numeric_limits<std::uint32_t>::max()) {
    throw std::length_error("rollcall: a mapping's keys exceed 4 GiB");
  }
  Entry entry{static_cast<std::uint32_t>(text_.size()), static_cast<std::uint32_t>(key.size()),
              static_cast<std::uint32_t>(value.size())};
  text_.append(key).append(value);
  entries_.push_back(entry);
  index_.Set(slot, entries_.size() - 1);
  return value;
}

}  // namespace rollcall
