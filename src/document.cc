#include "rollcall/document.h"

#include <algorithm>
#include <optional>

#include "parallel.h"
#include "rollcall/aliases.h"
#include "rollcall/input_error.h"

namespace rollcall {

std::string ScalarOr(const YAML::Node& node, const std::string& fallback) {
  return node.IsDefined() && node.IsScalar() ? node.Scalar() : fallback;
}

YAML::Node Child(const YAML::Node& map, const char* key) {
  // An undefined node answers every IsX() with false; yaml-cpp's own lookup would
  // hand out an invalid "zombie" node whose Type() throws.
  YAML::Node found(YAML::NodeType::Undefined);
  if (!map.IsDefined() || !map.IsMap()) return found;
  for (const auto& entry : map) {
    // The last of duplicate keys wins, as Kubernetes decodes them (yaml-cpp's own
    // lookup would return the first).
    if (entry.first.IsScalar() && entry.first.Scalar() == key) found.reset(entry.second);
  }
  return found;
}

Document::Document(const Stream& stream, const DocumentSpan& span, const YAML::Node& root)
    : stream_(&stream), span_(&span), root_(root) {
  origin_ = span.source.empty() ? stream.origin() : span.source;
  if (!root_.IsDefined() || root_.IsNull()) return;
  if (!root_.IsMap()) {
    throw InputError(Locate(root_.Mark()),
                     "a document must be a mapping (a Kubernetes object), not a " +
                         std::string(root_.IsSequence() ? "sequence" : "scalar"));
  }
  api_version_ = ScalarOr(Child(root_, "apiVersion"));
  kind_ = ScalarOr(Child(root_, "kind"));
  YAML::Node metadata = Child(root_, "metadata");
  name_ = ScalarOr(Child(metadata, "name"));
  namespace_ = ScalarOr(Child(metadata, "namespace"));
  if (span.source.empty()) {
    std::string helm4 = ScalarOr(Child(Child(metadata, "annotations"), kHelm4FilenameAnnotation));
    if (!helm4.empty()) origin_ = helm4;
  }
  shape_ = api_version_.empty() || kind_.empty() ? Shape::kNotObject : Shape::kObject;
}

Document::Document(const Stream& stream, const DocumentSpan& span, TypeHeader type)
    : stream_(&stream),
      span_(&span),
      root_(YAML::NodeType::Undefined),
      shape_(Shape::kUnread),
      api_version_(std::move(type.api_version)),
      kind_(std::move(type.kind)),
      origin_(span.source.empty() ? stream.origin() : span.source) {}

Location Document::Locate(const YAML::Mark& mark) const {
  Location where = stream_->Locate(*span_, Offset(mark));
  where.origin = origin_;
  return where;
}

Location Document::Locate() const {
  // The object's first line, past the "---" and "# Source:" lines.
  std::size_t offset = root_.IsDefined() && !root_.IsNull() ? Offset(root_.Mark()) : span_->begin;
  Location where = stream_->Locate(*span_, offset);
  where.origin = origin_;
  return where;
}

bool Document::IsHook() const {
  YAML::Node annotations = Child(Child(root_, "metadata"), "annotations");
  return Child(annotations, "helm.sh/hook").IsDefined() ||
         Child(annotations, "argocd.argoproj.io/hook").IsDefined();
}

std::string Document::Describe() const {
  std::string out = kind_.empty() ? std::string("object") : kind_;
  if (!namespace_.empty()) return out + " " + namespace_ + "/" + name_;
  return out + " " + (name_.empty() ? std::string("(unnamed)") : name_);
}

namespace {

// The text checks every document gets, read or not (limits.h: size, nesting depth,
// unterminated quotes and flow collections, encoding, tabs, stray commas).
void CheckText(const Stream& stream, const DocumentSpan& span, const Limits& limits) {
  std::string_view text = span.Text(stream.bytes());
  if (std::optional<TextProblem> problem = FindTextProblem(text, limits)) {
    throw InputError(stream.Locate(span, span.begin + problem->offset), problem->message);
  }
}

Document Parse(const Stream& stream, const DocumentSpan& span, const Limits& limits) {
  if (span.empty) return {stream, span, YAML::Node()};
  std::string_view text = span.Text(stream.bytes());
  try {
    YAML::Node root = YAML::Load(std::string(text));
    if (std::optional<AliasProblem> problem = FindExcessiveAliasing(text, root, limits.max_depth)) {
      std::size_t at = problem->mark.pos < 0 ? 0 : static_cast<std::size_t>(problem->mark.pos);
      throw InputError(stream.Locate(span, span.begin + std::min(at, text.size())),
                       problem->message);
    }
    return {stream, span, root};
  } catch (const YAML::Exception& e) {
    std::size_t at = e.mark.pos < 0 ? 0 : static_cast<std::size_t>(e.mark.pos);
    Location where = stream.Locate(span, span.begin + std::min(at, text.size()));
    throw InputError(where, "invalid YAML: " + e.msg);
  }
}

Document Read(const Stream& stream, const DocumentSpan& span, const Limits& limits,
              const NeedsTree& needs_tree) {
  CheckText(stream, span, limits);
  if (needs_tree && !span.empty) {
    std::string_view text = span.Text(stream.bytes());
    std::optional<TypeHeader> type = ScanTypeHeader(text);
    if (type && !needs_tree(*type, text)) return {stream, span, std::move(*type)};
  }
  return Parse(stream, span, limits);
}

}  // namespace

Document ParseDocument(const Stream& stream, const DocumentSpan& span, const Limits& limits) {
  CheckText(stream, span, limits);
  return Parse(stream, span, limits);
}

void DropTrees(std::vector<Document>& documents) {
  ParallelFor(documents.size(), [&](std::size_t i) { documents[i].DropTree(); });
}

std::vector<Document> ParseStream(const Stream& stream, const Limits& limits,
                                  const NeedsTree& needs_tree) {
  const std::vector<DocumentSpan>& spans = stream.documents();
  return ParallelMap<Document>(
      spans.size(), [&](std::size_t i) { return Read(stream, spans[i], limits, needs_tree); });
}

}  // namespace rollcall
