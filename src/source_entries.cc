#include "rollcall/source_entries.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace rollcall {
namespace {

// 32-bit words that hold `bytes` bytes.
std::size_t WordsFor(std::size_t bytes) { return (bytes + 3) / 4; }

// A length as LEB128: seven bits a byte, low bits first, the high bit set on every
// byte but the last.
std::size_t LengthBytes(std::size_t length) {
  std::size_t bytes = 1;
  for (; length >= 0x80; length >>= 7) ++bytes;
  return bytes;
}

unsigned char* PutLength(unsigned char* out, std::size_t length) {
  for (; length >= 0x80; length >>= 7) *out++ = static_cast<unsigned char>(length | 0x80);
  *out++ = static_cast<unsigned char>(length);
  return out;
}

std::size_t GetLength(const unsigned char*& in) {
  std::size_t length = 0;
  for (unsigned shift = 0;; shift += 7) {
    const unsigned char byte = *in++;
    length |= static_cast<std::size_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) return length;
  }
}

// The entry at `at`, and `at` past it.
SourceEntries::Entry ReadEntry(const unsigned char*& at) {
  const std::size_t key_size = GetLength(at);
  const std::size_t value_size = GetLength(at);
  const char* key = reinterpret_cast<const char*>(at);
  at += key_size + value_size;
  return {std::string_view(key, key_size), std::string_view(key + key_size, value_size)};
}

}  // namespace

SourceEntries::SourceEntries(std::size_t count, const std::function<Entry(std::size_t)>& entry) {
  if (count == 0) return;
  std::size_t data_size = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const auto [key, value] = entry(i);
    data_size += LengthBytes(key.size()) + LengthBytes(value.size()) + key.size() + value.size();
  }
  // The API server takes at most 1 MiB of values per source (source.cc), and a
  // document at most Limits::max_document_bytes: places fit in 32 bits.
  if (data_size > UINT32_MAX || count > UINT32_MAX) {
    throw std::length_error("a source's entries exceed 4 GiB");
  }
  const std::size_t places = (count + kStride - 1) / kStride;
  block_ = std::make_unique<std::uint32_t[]>(kHeaderWords + places + WordsFor(data_size));
  block_[0] = static_cast<std::uint32_t>(count);
  block_[1] = static_cast<std::uint32_t>(data_size);
  auto* const data = reinterpret_cast<unsigned char*>(block_.get() + kHeaderWords + places);
  unsigned char* out = data;
  for (std::size_t i = 0; i < count; ++i) {
    if (i % kStride == 0)
      block_[kHeaderWords + i / kStride] = static_cast<std::uint32_t>(out - data);
    const auto [key, value] = entry(i);
    out = PutLength(out, key.size());
    out = PutLength(out, value.size());
    out = std::copy(key.begin(), key.end(), out);
    out = std::copy(value.begin(), value.end(), out);
  }
}

SourceEntries::SourceEntries(const std::map<std::string, std::string>& entries) {
  const std::vector<Entry> sorted(entries.begin(), entries.end());  // a map is sorted by key
  *this = SourceEntries(sorted.size(), [&](std::size_t i) { return sorted[i]; });
}

SourceEntries::SourceEntries(const SourceEntries& other) { *this = other; }

SourceEntries& SourceEntries::operator=(const SourceEntries& other) {
  if (this == &other) return *this;
  if (!other.block_) {
    block_.reset();
    return *this;
  }
  const std::size_t words = other.Words();
  block_ = std::make_unique<std::uint32_t[]>(words);
  std::copy(other.block_.get(), other.block_.get() + words, block_.get());
  return *this;
}

std::size_t SourceEntries::Words() const {
  return block_ ? kHeaderWords + PlaceCount() + WordsFor(data_size()) : 0;
}

const unsigned char* SourceEntries::Data() const {
  return reinterpret_cast<const unsigned char*>(block_.get() + kHeaderWords + PlaceCount());
}

SourceEntries::Entry SourceEntries::At(std::size_t index) const {
  const unsigned char* at = Data() + block_[kHeaderWords + index / kStride];
  for (std::size_t skip = index % kStride; skip > 0; --skip) ReadEntry(at);
  return ReadEntry(at);
}

SourceEntries::const_iterator SourceEntries::find(std::string_view key) const {
  // The last stride whose first key is not past `key`, then its entries in order.
  std::size_t low = 0;
  std::size_t high = PlaceCount();
  while (low < high) {
    const std::size_t middle = low + (high - low) / 2;
    if (At(middle * kStride).first <= key) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  if (low == 0) return end();
  const std::size_t first = (low - 1) * kStride;
  const std::size_t last = std::min(first + kStride, size());
  const unsigned char* at = Data() + block_[kHeaderWords + low - 1];
  for (std::size_t i = first; i < last; ++i) {
    const std::string_view found = ReadEntry(at).first;
    if (found == key) return {this, i};
    if (found > key) break;
  }
  return end();
}

std::string_view SourceEntries::at(std::string_view key) const {
  auto found = find(key);
  if (found == end()) throw std::out_of_range("no key " + std::string(key));
  return found->second;
}

bool SourceEntries::operator==(const std::map<std::string, std::string>& other) const {
  return size() == other.size() &&
         std::equal(begin(), end(), other.begin(), [](const Entry& mine, const auto& theirs) {
           return mine.first == theirs.first && mine.second == theirs.second;
         });
}

}  // namespace rollcall
