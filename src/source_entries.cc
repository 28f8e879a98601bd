#include "rollcall/source_entries.h"

#include <algorithm>
#include <stdexcept>

namespace rollcall {

SourceEntries::SourceEntries(std::map<std::string, std::string> entries) {
  entries_.reserve(entries.size());
  // A std::map is sorted by key already, and Names order as their text does.
  for (auto& entry : entries) entries_.emplace_back(Name(entry.first), std::move(entry.second));
}

SourceEntries::const_iterator SourceEntries::find(std::string_view key) const {
  auto found = std::lower_bound(
      entries_.begin(), entries_.end(), key,
      [](const Entry& entry, std::string_view wanted) { return entry.first.view() < wanted; });
  return found != entries_.end() && found->first.view() == key ? found : entries_.end();
}

const std::string& SourceEntries::at(std::string_view key) const {
  auto found = find(key);
  if (found == end()) throw std::out_of_range("no key " + std::string(key));
  return found->second;
}

bool SourceEntries::operator==(const std::map<std::string, std::string>& other) const {
  return std::equal(entries_.begin(), entries_.end(), other.begin(), other.end(),
                    [](const Entry& mine, const std::pair<const std::string, std::string>& theirs) {
                      return mine.first.view() == theirs.first && mine.second == theirs.second;
                    });
}

}  // namespace rollcall
