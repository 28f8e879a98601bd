#include "rollcall/consumer_graph.h"

#include <array>
#include <map>
#include <set>
#include <string_view>
#include <utility>

#include "rollcall/analysis.h"
#include "rollcall/printable.h"

namespace rollcall {
namespace {

// How one thing is drawn: the colour of lines, borders and edge labels, and the pale
// fill of a consumer whose worst thing it is.
struct Look {
  const char* name;  // as labels and the legend say it
  const char* line;
  const char* fill;
};

// Worst first: a consumer takes the fill of its worst reference or finding. A finding
// at warning or error outranks every coverage state, since it says what is wrong
// whatever the coverage (a missing key is "hashed"). Red and orange belong to
// findings only, so a reference with no finding (its rule turned off or suppressed)
// is never drawn as one.
constexpr std::size_t kFindingLooks = 2;
constexpr std::array<Look, kFindingLooks + kCoverageStates> kLooks = {{
    {"error", "#c62828", "#ffcdd2"},
    {"warning", "#ef6c00", "#ffe0b2"},
    {"unresolved", "#6d4c41", "#d7ccc8"},
    {"pending", "#6a1b9a", "#e1bee7"},
    {"runtime", "#1565c0", "#bbdefb"},
    {"waived", "#616161", "#eeeeee"},
    {"hashed", "#2e7d32", "#c8e6c9"},
}};

const Look& LookOf(Coverage state) {
  for (std::size_t i = kFindingLooks; i < kLooks.size(); ++i) {
    if (std::string_view(kLooks[i].name) == CoverageName(state)) return kLooks[i];
  }
  return kLooks.back();
}

const Look& LookOf(Severity severity) { return kLooks[severity == Severity::kError ? 0 : 1]; }

std::size_t Rank(const Look& look) { return static_cast<std::size_t>(&look - kLooks.data()); }

const Look& Worse(const Look& a, const Look& b) { return Rank(a) <= Rank(b) ? a : b; }

// A DOT double-quoted string: Kubernetes names are safe, but keys and container names
// reach the labels too, made printable (printable.h: a NUL makes dot refuse the graph,
// an escape sequence reaches a terminal).
std::string Quote(const std::string& text) {
  std::string out = "\"";
  for (char c : PrintableLines(text)) {
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
  return consumer.kind() + "/" + consumer.name_space + "/" + consumer.name();
}

// The findings that mark the picture (warning and error) by the names they carry:
// (object, reference), the reference "" for a finding about the object itself.
using FindingsByName = std::map<std::pair<std::string, std::string>, std::vector<const Finding*>>;

FindingsByName IndexFindings(const std::vector<Finding>& findings) {
  FindingsByName index;
  for (const Finding& finding : findings) {
    if (finding.severity == Severity::kInfo || finding.object.empty()) continue;
    index[{finding.object, finding.reference}].push_back(&finding);
  }
  return index;
}

// What the findings about one edge or node add to its drawing.
struct Marks {
  const Look* worst = nullptr;  // the look of the worst severity; null: no finding
  std::string label;            // "\nerror[missing-key]", a line per rule
  std::string tooltip;          // "error[missing-key] <message>", a line per finding

  // The attributes that draw it thick, in the colour of its worst finding.
  std::string Attributes() const {
    if (worst == nullptr) return "";
    return std::string(", color=\"") + worst->line + "\", penwidth=3, tooltip=" + Quote(tooltip);
  }
};

Marks MarksOf(const FindingsByName& index, const std::string& object,
              const std::string& reference) {
  Marks marks;
  auto found = index.find({object, reference});
  if (found == index.end()) return marks;
  std::set<std::string> said;
  for (const Finding* finding : found->second) {
    const Look& look = LookOf(finding->severity);
    marks.worst = marks.worst == nullptr ? &look : &Worse(*marks.worst, look);
    std::string tag = std::string(SeverityName(finding->severity)) + "[" + finding->rule + "]";
    if (said.insert(tag).second) marks.label += "\n" + tag;
    marks.tooltip += (marks.tooltip.empty() ? "" : "\n") + tag + " " + Printable(finding->message);
  }
  return marks;
}

// A legend cell: the name in its line colour on its fill.
std::string LegendCell(const Look& look) {
  return std::string("<td bgcolor=\"") + look.fill + "\"><font color=\"" + look.line + "\">" +
         look.name + "</font></td>";
}

}  // namespace

std::string ConsumerGraphDot(const std::vector<ConsumerUse>& uses, const Model& model,
                             const std::vector<Finding>& findings) {
  const FindingsByName index = IndexFindings(findings);
  std::string out =
      "digraph rollcall {\n"
      "  rankdir=LR;\n"
      "  node [fontname=\"Helvetica\", fontsize=11];\n"
      "  edge [fontname=\"Helvetica\", fontsize=9];\n";

  std::set<SourceId> sources_drawn;
  for (const ConsumerUse& use : uses) {
    const SourceId& id = use.coverage.reference->source();
    if (!sources_drawn.insert(id).second) continue;
    bool known = model.sources.Contains(id);
    Marks marks = MarksOf(index, id.Describe(), "");
    out += "  " + Quote(id.Path()) + " [shape=note, label=" +
           Quote(std::string(SourceKindName(id.kind)) + "\n" + id.name_space + "/" + id.name +
                 (known ? "" : "\n(content not in the input)") + marks.label) +
           (known ? "" : ", style=dashed") + marks.Attributes() + "];\n";
  }

  // Each edge's marks, and its look: its worst finding's, else its coverage state's.
  std::vector<Marks> edge_marks;
  std::vector<const Look*> edge_looks;
  for (const ConsumerUse& use : uses) {
    const ReferenceCoverage& coverage = use.coverage;
    edge_marks.push_back(
        MarksOf(index, coverage.consumer->Describe(), DescribeReference(*coverage.reference)));
    const Look* worst = edge_marks.back().worst;
    edge_looks.push_back(worst != nullptr ? worst : &LookOf(coverage.state));
  }

  // Consumers in stream order, each filled with the colour of its worst edge or of a
  // finding about itself.
  std::vector<const Consumer*> consumers;
  std::vector<const Look*> worst;
  std::map<const Consumer*, std::size_t> position;  // index in `consumers`
  for (std::size_t i = 0; i < uses.size(); ++i) {
    const Consumer* consumer = uses[i].coverage.consumer;
    auto [at, first] = position.emplace(consumer, consumers.size());
    if (first) {
      consumers.push_back(consumer);
      worst.push_back(edge_looks[i]);
    } else {
      worst[at->second] = &Worse(*worst[at->second], *edge_looks[i]);
    }
  }
  for (std::size_t i = 0; i < consumers.size(); ++i) {
    const Consumer& consumer = *consumers[i];
    Marks marks = MarksOf(index, consumer.Describe(), "");
    const Look& fill = marks.worst != nullptr ? Worse(*worst[i], *marks.worst) : *worst[i];
    out +=
        "  " + Quote(ConsumerNode(consumer)) +
        R"( [shape=box, style="rounded,filled", fillcolor=")" + fill.fill + "\", label=" +
        Quote(consumer.kind() + "\n" + consumer.name_space + "/" + consumer.name() + marks.label) +
        marks.Attributes() + "];\n";
  }

  for (std::size_t i = 0; i < uses.size(); ++i) {
    const ConsumerUse& use = uses[i];
    const Marks& marks = edge_marks[i];
    const char* colour = edge_looks[i]->line;
    std::string label =
        use.container + ": " + use.reads + "\n" + CoverageName(use.coverage.state) + marks.label;
    out += "  " + Quote(use.coverage.reference->source().Path()) + " -> " +
           Quote(ConsumerNode(*use.coverage.consumer)) + " [color=\"" + colour +
           "\", fontcolor=\"" + colour + "\", label=" + Quote(label) +
           (marks.worst != nullptr ? ", penwidth=3, tooltip=" + Quote(marks.tooltip) : "") + "];\n";
  }

  // The legend: every colour and shape the picture uses, whether this one has it or not.
  out +=
      "  legend [shape=plaintext, label=<<table border=\"0\" cellspacing=\"4\">\n"
      "    <tr><td align=\"left\">line colour: how a change reaches the process</td>";
  for (auto look = kLooks.rbegin(); look != kLooks.rend() - kFindingLooks; ++look) {
    out += LegendCell(*look);
  }
  out +=
      "</tr>\n"
      "    <tr><td align=\"left\">thick line or border, rule in the label: a finding "
      "(rollcall lint)</td>" +
      LegendCell(kLooks[0]) + LegendCell(kLooks[1]) +
      "</tr>\n"
      "    <tr><td align=\"left\" colspan=\"6\">note: a Secret or ConfigMap, dashed when its "
      "content is unknown (in neither the input, --state nor --lookup)</td></tr>\n"
      "    <tr><td align=\"left\" colspan=\"6\">rounded box: a pod template, filled with the "
      "colour of its worst line or finding</td></tr>\n"
      "  </table>>];\n}\n";
  return out;
}

}  // namespace rollcall
