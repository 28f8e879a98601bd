// A map of strings to strings held in two arrays and one block of text: what the
// YAML refusal scan keeps of a mapping's keys while it reads the mapping. A
// std::map<std::string, std::string> took 112 bytes a key beside the text, and a
// ConfigMap of a hundred thousand short entries held 11 MB in it (docs/performance.md).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rollcall/slot_index.h"

namespace rollcall {

class FlatStringMap {
 public:
  // Maps `key` to `value` unless `key` has a value already; returns the value `key`
  // has after the call (a view that the next Emplace may leave dangling).
  std::string_view Emplace(std::string_view key, std::string_view value);

  // Calls take(key, value) for every key, in the order they came.
  template <typename Take>
  void ForEach(const Take& take) const {
    for (const Entry& entry : entries_) take(Key(entry), Value(entry));
  }

  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }

 private:
  struct Entry {
    std::uint32_t key;  // offset in text_; the key's bytes, then the value's
    std::uint32_t key_size;
    std::uint32_t value_size;
  };

  std::string_view Key(const Entry& entry) const {
    return std::string_view(text_).substr(entry.key, entry.key_size);
  }
  std::string_view Value(const Entry& entry) const {
    return std::string_view(text_).substr(entry.key + entry.key_size, entry.value_size);
  }
  std::string text_;
  std::vector<Entry> entries_;  // in the order they came
  SlotIndex index_;             // of entries_, by key
};

}  // namespace rollcall
