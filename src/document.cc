#include "rollcall/document.h"

#include <algorithm>

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

Document ParseDocument(const Stream& stream, const DocumentSpan& span, const Limits& limits) {
  std::string_view text = span.Text(stream.bytes());
  if (std::optional<TextProblem> problem = FindTextProblem(text, limits)) {
    throw InputError(stream.Locate(span, span.begin + problem->offset), problem->message);
  }
  if (span.empty) return {stream, span, YAML::Node()};
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

}  // namespace rollcall

namespace rollcall {

std::vector<Document> ParseStream(const Stream& stream, const Limits& limits) {
  std::vector<Document> documents;
  documents.reserve(stream.documents().size());
  for (const DocumentSpan& span : stream.documents()) {
    documents.push_back(ParseDocument(stream, span, limits));
  }
  return documents;
}

}  // namespace rollcall
