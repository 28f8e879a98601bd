#include "rollcall/aliases.h"

#include <string>
#include <vector>

namespace rollcall {
namespace {

// go-yaml v2's decoder (decode.go) counts every node it decodes, and those it decodes
// inside an alias's expansion, and refuses the document ("excessive aliasing") once
// more than 100 of over 1,000 come from expansions at a ratio past what it allows: 99%
// up to 400,000 nodes, down to 10% at 4,000,000.
class GoYamlAliasBudget {
 public:
  // Counts one node; true when go-yaml would refuse the document here.
  bool Decode(bool in_expansion) {
    ++decoded_;
    if (in_expansion) ++expanded_;
    return expanded_ > 100 && decoded_ > 1000 &&
           static_cast<double>(expanded_) / static_cast<double>(decoded_) > AllowedRatio();
  }

 private:
  double AllowedRatio() const {
    constexpr double kLow = 400'000;
    constexpr double kHigh = 4'000'000;
    const auto count = static_cast<double>(decoded_);
    if (count <= kLow) return 0.99;
    if (count >= kHigh) return 0.10;
    return 0.99 - 0.89 * ((count - kLow) / (kHigh - kLow));
  }

  std::size_t decoded_ = 1;  // the document node
  std::size_t expanded_ = 0;
};

// A node on the walk, in the order go-yaml decodes (a mapping's key, then its value).
struct Step {
  YamlNode node;
  std::size_t depth;
  std::size_t scope;     // the expansion it is walked in (0: none), for its furthest node
  bool may_share_start;  // a mapping's first key, which starts where the mapping does
  bool counted;          // go-yaml decodes it (not a merge key, nor the list a merge takes)
};

constexpr const char* kExcessiveAliasing =
    "invalid YAML: document contains excessive aliasing: go-yaml, which Kubernetes reads YAML "
    "with, refuses a document decoded mostly from alias expansions (past 99% of over 1,000 "
    "nodes, less for large documents)";

std::string ExpansionsPastTheStreamBound() {
  return "invalid YAML: aliases expand the documents of this stream, up to this one, to more "
         "than " +
         std::to_string(kMaxAliasExpansion) +
         " nodes past their text; rollcall bounds a whole stream's expansions (go-yaml, which "
         "Kubernetes reads YAML with, bounds each document's)";
}

bool IsMergeKey(const YamlNode& key) {
  return key.IsScalar() && key.Tag() == "?" && key.Scalar() == "<<";
}

}  // namespace

bool MayHoldAliases(std::string_view text) {
  return text.find('&') != std::string_view::npos && text.find('*') != std::string_view::npos;
}

std::optional<AliasProblem> FindExcessiveAliasing(std::string_view text, const YamlNode& root,
                                                  std::size_t max_depth, std::size_t allowed,
                                                  std::size_t* expanded) {
  std::size_t in_expansions = 0;
  if (expanded != nullptr) *expanded = 0;
  if (!MayHoldAliases(text)) return std::nullopt;
  GoYamlAliasBudget budget;
  // The tree shares an aliased node rather than marking the alias: within one
  // expansion (or outside any), a node that starts before the furthest one met is
  // reached by an alias. One furthest start for each expansion, which begins anew.
  std::vector<int> furthest = {-1};
  std::vector<Step> stack = {{root, 1, 0, true, true}};
  while (!stack.empty()) {
    Step step = stack.back();
    stack.pop_back();
    const YamlNode& node = step.node;
    const int pos = node.Mark().pos;
    if (pos < furthest[step.scope] || (pos == furthest[step.scope] && !step.may_share_start)) {
      // The alias is decoded where it stands, then what it names inside an expansion.
      if (budget.Decode(step.scope != 0)) return AliasProblem{node.Mark(), kExcessiveAliasing};
      step.scope = furthest.size();
      furthest.push_back(pos);
    } else {
      furthest[step.scope] = pos;
    }
    const bool in_expansion = step.scope != 0;
    if (in_expansion && ++in_expansions > allowed) {
      return AliasProblem{node.Mark(), ExpansionsPastTheStreamBound()};
    }
    if (step.counted && budget.Decode(in_expansion)) {
      return AliasProblem{node.Mark(), kExcessiveAliasing};
    }
    if (step.depth > max_depth) {
      return AliasProblem{node.Mark(), "invalid YAML: aliases nest deeper than " +
                                           std::to_string(max_depth) +
                                           " levels once expanded (or an alias contains itself)"};
    }
    // Children pushed last first, so that they are walked in document order.
    std::vector<Step> children;
    if (node.IsSequence()) {
      for (const auto& item : node) {
        children.push_back({item, step.depth + 1, step.scope, false, true});
      }
    } else if (node.IsMap()) {
      bool first = true;
      for (const auto& entry : node) {
        const bool merge = IsMergeKey(entry.first);
        if (!merge) {
          children.push_back({entry.first, step.depth + 1, step.scope, first, true});
        }
        // A merge decodes the mapping it names, or each mapping of a list, not the list.
        const bool list = merge && entry.second.IsSequence();
        children.push_back({entry.second, step.depth + 1, step.scope, false, !list});
        first = false;
      }
    }
    for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(*it);
  }
  if (expanded != nullptr) *expanded = in_expansions;
  return std::nullopt;
}

}  // namespace rollcall
