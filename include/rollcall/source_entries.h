// A source's content: each key with the bytes the process reads, sorted by key.
//
// Held in one block of memory per source: each entry as its key's and its value's
// lengths (a byte each below 128) and their bytes, one after another, with the
// place of every sixteenth entry to find a key by. A Secret or ConfigMap of many
// short entries took ~90 bytes for each beside its ~12 bytes of text as a string
// and an interned key per entry, then 8 bytes more than its key and value with two
// offsets per entry, which made a stream of large ConfigMaps hold more than its
// text again; now about 2.3 bytes (docs/performance.md, "Sources"). A source
// without entries holds only a null pointer. Read like the std::map it replaced,
// with string views for keys and values; built from one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "rollcall/index_iterator.h"

namespace rollcall {

class SourceEntries {
 public:
  // A key and its value, viewing the source's own block: valid while it lives.
  using Entry = std::pair<std::string_view, std::string_view>;

  using const_iterator = IndexIterator<const SourceEntries, Entry>;

  SourceEntries() = default;
  SourceEntries(const std::map<std::string, std::string>& entries);  // NOLINT: reads as one
  // From `count` entries sorted by key, each key once, the i-th read as `entry(i)`
  // (twice: once to size the block, once to fill it). Its views need live only
  // while this is built: what source.cc reads a document into is no map.
  SourceEntries(std::size_t count, const std::function<Entry(std::size_t)>& entry);
  SourceEntries(const SourceEntries& other);
  SourceEntries& operator=(const SourceEntries& other);
  SourceEntries(SourceEntries&&) noexcept = default;
  SourceEntries& operator=(SourceEntries&&) noexcept = default;
  ~SourceEntries() = default;

  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }
  std::size_t size() const { return block_ ? block_[0] : 0; }
  bool empty() const { return size() == 0; }

  const_iterator find(std::string_view key) const;
  std::size_t count(std::string_view key) const { return find(key) == end() ? 0 : 1; }
  // The value of `key`; throws std::out_of_range when there is none.
  std::string_view at(std::string_view key) const;

  bool operator==(const std::map<std::string, std::string>& other) const;
  bool operator!=(const std::map<std::string, std::string>& other) const {
    return !(*this == other);
  }

 private:
  friend const_iterator;
  Entry At(std::size_t index) const;
  std::size_t Words() const;  // the block's length in 32-bit words

  // Entries are found from every kStride-th one's place, then read in order.
  static constexpr std::size_t kStride = 16;
  // The block's header: the count, the data's size, then the places (offsets in
  // the data) of entries 0, kStride, 2 * kStride ...
  static constexpr std::size_t kHeaderWords = 2;
  std::size_t data_size() const { return block_ ? block_[1] : 0; }
  std::size_t PlaceCount() const { return (size() + kStride - 1) / kStride; }
  const unsigned char* Data() const;

  // Null when there is no entry. Else the header, then the data: for each entry,
  // its key's length and its value's (LEB128), its key's bytes and its value's.
  std::unique_ptr<std::uint32_t[]> block_;
};

}  // namespace rollcall
