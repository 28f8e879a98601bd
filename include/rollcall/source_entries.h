// A source's content: each key with the bytes the process reads, sorted by key.
//
// Held in one sorted array rather than a tree: a large stream keeps tens of
// thousands of sources for the whole run, and a tree takes a node of 64 bytes for
// every key beside the key and value themselves (docs/performance.md). Read like
// the std::map it replaced; built from one.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rollcall/name.h"

namespace rollcall {

class SourceEntries {
 public:
  using Entry = std::pair<Name, std::string>;
  using const_iterator = std::vector<Entry>::const_iterator;

  SourceEntries() = default;
  SourceEntries(std::map<std::string, std::string> entries);  // NOLINT: reads as one

  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.end(); }
  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }

  const_iterator find(std::string_view key) const;
  std::size_t count(std::string_view key) const { return find(key) == end() ? 0 : 1; }
  // The value of `key`; throws std::out_of_range when there is none.
  const std::string& at(std::string_view key) const;

  bool operator==(const std::map<std::string, std::string>& other) const;

 private:
  std::vector<Entry> entries_;  // sorted by key, each key once
};

}  // namespace rollcall
