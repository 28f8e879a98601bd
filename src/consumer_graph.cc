#include "rollcall/consumer_graph.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>

namespace rollcall {
namespace {

struct CoverageStyle {
  Coverage state;
  const char* line;  // edge and legend colour
  const char* fill;  // consumer node fill when this is its worst reference
};

// Worst first: a consumer takes the fill of its worst reference.
constexpr std::array<CoverageStyle, kCoverageStates> kStyles = {{
    {Coverage::kUnresolved, "#c62828", "#ffcdd2"},
    {Coverage::kPending, "#ef6c00", "#ffe0b2"},
    {Coverage::kRuntime, "#1565c0", "#bbdefb"},
    {Coverage::kWaived, "#616161", "#eeeeee"},
    {Coverage::kHashed, "#2e7d32", "#c8e6c9"},
}};

const CoverageStyle& StyleOf(Coverage state) {
  return *std::find_if(kStyles.begin(), kStyles.end(),
                       [state](const CoverageStyle& style) { return style.state == state; });
}

std::size_t Rank(Coverage state) {
  return static_cast<std::size_t>(&StyleOf(state) - kStyles.data());
}

// A DOT double-quoted string: Kubernetes names are safe, but keys and container names
// reach the labels too.
std::string Quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string ConsumerNode(const Consumer& consumer) {
  return consumer.kind + "/" + consumer.name_space + "/" + consumer.name;
}

}  // namespace

std::string ConsumerGraphDot(const std::vector<ConsumerUse>& uses, const Model& model) {
  std::string out =
      "digraph rollcall {\n"
      "  rankdir=LR;\n"
      "  node [fontname=\"Helvetica\", fontsize=11];\n"
      "  edge [fontname=\"Helvetica\", fontsize=9];\n";

  std::set<SourceId> sources_drawn;
  for (const ConsumerUse& use : uses) {
    const SourceId& id = use.coverage->reference->source;
    if (!sources_drawn.insert(id).second) continue;
    bool known = model.sources.count(id) > 0;
    out += "  " + Quote(id.Path()) + " [shape=note, label=" +
           Quote(std::string(SourceKindName(id.kind)) + "\n" + id.name_space + "/" + id.name +
                 (known ? "" : "\n(content not in the input)")) +
           (known ? "" : ", style=dashed") + "];\n";
  }

  // Consumers in stream order, each filled with the colour of its worst reference.
  std::vector<const Consumer*> consumers;
  std::vector<Coverage> worst;
  std::map<const Consumer*, std::size_t> position;  // index in `consumers`
  for (const ConsumerUse& use : uses) {
    const Consumer* consumer = use.coverage->consumer;
    auto [at, first] = position.emplace(consumer, consumers.size());
    if (first) {
      consumers.push_back(consumer);
      worst.push_back(use.coverage->state);
    } else {
      Coverage& current = worst[at->second];
      if (Rank(use.coverage->state) < Rank(current)) current = use.coverage->state;
    }
  }
  for (std::size_t i = 0; i < consumers.size(); ++i) {
    const Consumer& consumer = *consumers[i];
    out += "  " + Quote(ConsumerNode(consumer)) +
           " [shape=box, style=\"rounded,filled\", fillcolor=\"" + StyleOf(worst[i]).fill +
           "\", label=" + Quote(consumer.kind + "\n" + consumer.name_space + "/" + consumer.name) +
           "];\n";
  }

  for (const ConsumerUse& use : uses) {
    const CoverageStyle& style = StyleOf(use.coverage->state);
    std::string label = use.container + ": " + use.reads + "\n" + CoverageName(style.state);
    out += "  " + Quote(use.coverage->reference->source.Path()) + " -> " +
           Quote(ConsumerNode(*use.coverage->consumer)) + " [color=\"" + style.line +
           "\", fontcolor=\"" + style.line + "\", label=" + Quote(label) +
           (style.state == Coverage::kHashed ? "" : ", penwidth=2") + "];\n";
  }

  // The legend: one row of the coverage names in their colours.
  out +=
      "  legend [shape=plaintext, label=<<table border=\"0\" cellspacing=\"6\"><tr>"
      "<td>how a change reaches the process:</td>";
  for (auto style = kStyles.rbegin(); style != kStyles.rend(); ++style) {
    out += std::string("<td><font color=\"") + style->line + "\">" + CoverageName(style->state) +
           "</font></td>";
  }
  out += "</tr></table>>];\n}\n";
  return out;
}

}  // namespace rollcall
