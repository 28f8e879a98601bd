#include "rollcall/coverage.h"

namespace rollcall {

const char* CoverageName(Coverage state) {
  switch (state) {
    case Coverage::kHashed:
      return "hashed";
    case Coverage::kWaived:
      return "waived";
    case Coverage::kPending:
      return "pending";
    case Coverage::kRuntime:
      return "runtime";
    case Coverage::kUnresolved:
      return "unresolved";
  }
  return "?";
}

std::size_t CoverageSummary::Total() const {
  std::size_t total = 0;
  for (std::size_t count : counts) total += count;
  return total;
}

std::string CoverageSummary::Line() const {
  std::string out = "references: " + std::to_string(Total()) + " \u2014";
  for (std::size_t i = 0; i < kCoverageStates; ++i) {
    out += std::string(i == 0 ? " " : ", ") + CoverageName(static_cast<Coverage>(i)) + " " +
           std::to_string(counts[i]);
  }
  return out;
}

}  // namespace rollcall
