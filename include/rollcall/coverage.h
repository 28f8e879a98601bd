// How a change to a source reaches the process behind each reference: the one state
// every reference ends in (design.md, "Words"), and the counts the summary line shows.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace rollcall {

enum class Coverage : std::uint8_t {
  kHashed,      // content known: render puts it in the config hash
  kWaived,      // a marker or annotation says why no roll is needed
  kPending,     // a "SECRET-VERSION: pending" marker: the mechanism is still missing
  kRuntime,     // rotated by a controller at runtime; must be a reloaded volume
  kUnresolved,  // content unknown and nothing said
};
inline constexpr std::size_t kCoverageStates = 5;

const char* CoverageName(Coverage state);  // "hashed", "waived", …

// Counts of references per state.
struct CoverageSummary {
  std::array<std::size_t, kCoverageStates> counts{};

  void Add(Coverage state) { ++counts[static_cast<std::size_t>(state)]; }
  std::size_t Count(Coverage state) const { return counts[static_cast<std::size_t>(state)]; }
  std::size_t Total() const;
  // "references: 12 — hashed 9, waived 1, pending 0, runtime 1, unresolved 1"
  std::string Line() const;
};

}  // namespace rollcall
