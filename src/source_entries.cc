#include "rollcall/source_entries.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace rollcall {
namespace {

// 32-bit words that hold `bytes` bytes.
std::size_t WordsFor(std::size_t bytes) { return (bytes + 3) / 4; }

}  // namespace

SourceEntries::SourceEntries(std::size_t count, const std::function<Entry(std::size_t)>& entry) {
  if (count == 0) return;
  std::size_t text_size = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const auto [key, value] = entry(i);
    text_size += key.size() + value.size();
  }
  // The API server takes at most 1 MiB of values per source (source.cc), and a
  // document at most Limits::max_document_bytes: offsets fit in 32 bits.
  if (text_size > UINT32_MAX) throw std::length_error("a source's entries exceed 4 GiB");
  block_ = std::make_unique<std::uint32_t[]>(1 + 2 * count + WordsFor(text_size));
  block_[0] = static_cast<std::uint32_t>(count);
  char* text = reinterpret_cast<char*>(block_.get() + 1 + 2 * count);
  std::size_t at = 0;
  std::size_t slot = 1;
  for (std::size_t i = 0; i < count; ++i) {
    const auto [key, value] = entry(i);
    std::copy(key.begin(), key.end(), text + at);
    at += key.size();
    block_[slot++] = static_cast<std::uint32_t>(at);
    std::copy(value.begin(), value.end(), text + at);
    at += value.size();
    block_[slot++] = static_cast<std::uint32_t>(at);
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
  const std::size_t count = size();
  return count == 0 ? 0 : 1 + 2 * count + WordsFor(block_[2 * count]);
}

SourceEntries::Entry SourceEntries::At(std::size_t index) const {
  const std::size_t count = size();
  const char* text = reinterpret_cast<const char*>(block_.get() + 1 + 2 * count);
  const std::uint32_t key_begin = index == 0 ? 0 : block_[2 * index];
  const std::uint32_t key_end = block_[1 + 2 * index];
  const std::uint32_t value_end = block_[2 + 2 * index];
  return {std::string_view(text + key_begin, key_end - key_begin),
          std::string_view(text + key_end, value_end - key_end)};
}

SourceEntries::const_iterator SourceEntries::find(std::string_view key) const {
  std::size_t low = 0;
  std::size_t high = size();
  while (low < high) {
    const std::size_t middle = low + (high - low) / 2;
    if (At(middle).first < key) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low < size() && At(low).first == key ? const_iterator(this, low) : end();
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
