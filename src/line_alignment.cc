#include "rollcall/line_alignment.h"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <unordered_map>

namespace rollcall {
namespace {

using LineId = std::uint32_t;
constexpr LineId kBlank = 0;  // matches nothing, not even another blank line

// Both texts' lines as numbers, equal text equal number: every comparison below is
// then one integer's, and only this pass reads the lines' bytes.
struct Ids {
  std::vector<LineId> a;
  std::vector<LineId> b;
  LineId count = 1;
};

Ids Number(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  Ids ids;
  std::unordered_map<std::string_view, LineId> seen;
  auto number = [&](const std::vector<std::string>& lines, std::vector<LineId>& out) {
    out.reserve(lines.size());
    for (const std::string& line : lines) {
      if (line.empty()) {
        out.push_back(kBlank);
        continue;
      }
      auto [at, added] = seen.emplace(line, ids.count);
      if (added) ++ids.count;
      out.push_back(at->second);
    }
  };
  number(a, ids.a);
  number(b, ids.b);
  return ids;
}

struct Range {
  std::size_t a0, a1, b0, b1;
};

class Aligner {
 public:
  Aligner(const Ids& ids, std::vector<std::size_t>& match)
      : ids_(ids), match_(match), counts_(ids.count) {}

  void Align(Range whole) {
    std::vector<Range> todo{whole};
    while (!todo.empty()) {
      Range r = todo.back();
      todo.pop_back();
      Trim(r);
      if (r.a0 == r.a1 || r.b0 == r.b1) continue;
      const std::size_t cells = (r.a1 - r.a0 + 1) * (r.b1 - r.b0 + 1);
      if (cells <= LineAlignment::kExactCells) {
        if (Spend(cells)) Exact(r);
        continue;
      }
      if (!Spend((r.a1 - r.a0) + (r.b1 - r.b0))) continue;
      SplitAtUniqueLines(r, todo);
    }
  }

 private:
  struct Count {
    std::uint32_t in_a = 0;
    std::uint32_t in_b = 0;
    std::size_t at_b = 0;
  };

  bool Same(std::size_t i, std::size_t j) const {
    return ids_.a[i] != kBlank && ids_.a[i] == ids_.b[j];
  }

  bool Spend(std::size_t work) {
    if (work > budget_) {
      budget_ = 0;
      return false;
    }
    budget_ -= work;
    return true;
  }

  // Lines equal at the range's two ends match, and leave it.
  void Trim(Range& r) {
    while (r.a0 < r.a1 && r.b0 < r.b1 && Same(r.a0, r.b0)) match_[r.a0++] = r.b0++;
    while (r.a0 < r.a1 && r.b0 < r.b1 && Same(r.a1 - 1, r.b1 - 1)) match_[--r.a1] = --r.b1;
  }

  // A longest common subsequence of the range, walked from its start.
  void Exact(const Range& r) {
    const std::size_t n = r.a1 - r.a0;
    const std::size_t m = r.b1 - r.b0;
    const std::size_t width = m + 1;
    // lcs[i * width + j]: of a[a0 + i ..] and b[b0 + j ..].
    std::vector<std::uint32_t> lcs((n + 1) * width, 0);
    for (std::size_t i = n; i-- > 0;) {
      for (std::size_t j = m; j-- > 0;) {
        lcs[i * width + j] = Same(r.a0 + i, r.b0 + j)
                                 ? lcs[(i + 1) * width + j + 1] + 1
                                 : std::max(lcs[(i + 1) * width + j], lcs[i * width + j + 1]);
      }
    }
    for (std::size_t i = 0, j = 0; i < n && j < m;) {
      if (Same(r.a0 + i, r.b0 + j) && lcs[i * width + j] == lcs[(i + 1) * width + j + 1] + 1) {
        match_[r.a0 + i] = r.b0 + j;
        ++i;
        ++j;
      } else if (lcs[(i + 1) * width + j] >= lcs[i * width + j + 1]) {
        ++i;
      } else {
        ++j;
      }
    }
  }

  // Patience diff: the lines that occur once on each side, the longest run of them
  // in the same order on both, match; the pieces between them are ranges again.
  void SplitAtUniqueLines(const Range& r, std::vector<Range>& todo) {
    std::vector<LineId> touched;
    for (std::size_t i = r.a0; i < r.a1; ++i) {
      if (ids_.a[i] == kBlank) continue;
      Count& c = counts_[ids_.a[i]];
      if (c.in_a == 0 && c.in_b == 0) touched.push_back(ids_.a[i]);
      ++c.in_a;
    }
    for (std::size_t j = r.b0; j < r.b1; ++j) {
      if (ids_.b[j] == kBlank) continue;
      Count& c = counts_[ids_.b[j]];
      if (c.in_a == 0 && c.in_b == 0) touched.push_back(ids_.b[j]);
      ++c.in_b;
      c.at_b = j;
    }
    std::vector<std::pair<std::size_t, std::size_t>> unique;  // (i, j), i ascending
    for (std::size_t i = r.a0; i < r.a1; ++i) {
      if (ids_.a[i] == kBlank) continue;
      const Count& c = counts_[ids_.a[i]];
      if (c.in_a == 1 && c.in_b == 1) unique.emplace_back(i, c.at_b);
    }
    for (LineId id : touched) counts_[id] = Count{};
    std::vector<std::pair<std::size_t, std::size_t>> anchors = LongestIncreasing(unique);
    std::size_t a = r.a0;
    std::size_t b = r.b0;
    for (const auto& [i, j] : anchors) {
      match_[i] = j;
      todo.push_back({a, i, b, j});
      a = i + 1;
      b = j + 1;
    }
    if (!anchors.empty()) todo.push_back({a, r.a1, b, r.b1});
  }

  // The longest subsequence of `pairs` (ascending in first) ascending in second.
  static std::vector<std::pair<std::size_t, std::size_t>> LongestIncreasing(
      const std::vector<std::pair<std::size_t, std::size_t>>& pairs) {
    std::vector<std::size_t> tails;  // per length, the index of the pair ending it
    std::vector<std::size_t> previous(pairs.size(), LineAlignment::kNone);
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      auto at = std::lower_bound(tails.begin(), tails.end(), pairs[k].second,
                                 [&](std::size_t t, std::size_t j) { return pairs[t].second < j; });
      if (at != tails.begin()) previous[k] = *(at - 1);
      if (at == tails.end()) {
        tails.push_back(k);
      } else {
        *at = k;
      }
    }
    std::vector<std::pair<std::size_t, std::size_t>> run;
    for (std::size_t k = tails.empty() ? LineAlignment::kNone : tails.back();
         k != LineAlignment::kNone; k = previous[k]) {
      run.push_back(pairs[k]);
    }
    std::reverse(run.begin(), run.end());
    return run;
  }

  const Ids& ids_;
  std::vector<std::size_t>& match_;
  std::vector<Count> counts_;
  std::size_t budget_ = LineAlignment::kWorkBudget;
};

}  // namespace

LineAlignment::LineAlignment(const std::vector<std::string>& a, const std::vector<std::string>& b)
    : match_(a.size(), kNone) {
  Ids ids = Number(a, b);
  Aligner(ids, match_).Align({0, a.size(), 0, b.size()});
  for (std::size_t i = 0; i < match_.size(); ++i) {
    if (match_[i] != kNone) matched_.push_back(i);
  }
}

std::size_t LineAlignment::MatchedBefore(std::size_t i) const {
  auto at = std::lower_bound(matched_.begin(), matched_.end(), i);
  return at == matched_.begin() ? kNone : *(at - 1);
}

std::size_t LineAlignment::MatchedAfter(std::size_t i) const {
  auto at = std::upper_bound(matched_.begin(), matched_.end(), i);
  return at == matched_.end() ? kNone : *at;
}

}  // namespace rollcall
