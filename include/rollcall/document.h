// One document of the stream, parsed on its own (yaml_tree.h), with the facts every
// later stage asks first: apiVersion, kind, name, namespace and where it came from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rollcall/either_owner.h"
#include "rollcall/kind_scan.h"
#include "rollcall/limits.h"
#include "rollcall/location.h"
#include "rollcall/name.h"
#include "rollcall/stream.h"
#include "rollcall/yaml_tree.h"

namespace rollcall {

// Helm 4 names each document's template in this annotation (design.md, decision 5).
inline constexpr const char* kHelm4FilenameAnnotation = "postrenderer.helm.sh/postrender-filename";

// A value as written in a document, kept once the tree is gone.
struct WrittenValue {
  std::string text;  // a scalar's text; "" for a null, mapping or sequence
  std::size_t pos;   // offset of its start in the document's text
  bool scalar;       // false for a null, mapping or sequence
};

// `node` as written: its text (a scalar's), where it starts, whether it is a scalar.
WrittenValue WrittenValueOf(const YamlNode& node);

// A key written twice in one mapping (YAML forbids it; Kubernetes takes the last).
struct DuplicateKey {
  std::string key;
  std::size_t pos;        // the repeated key, offset in the document's text
  std::size_t first_pos;  // its first occurrence
};

// What the analysis reads of a document's tree (facts.h), and the pod template
// among it (model.h).
struct DocumentFacts;
struct Consumer;

class Document {
 public:
  enum class Shape : std::uint8_t {
    kEmpty,      // only markers, comments, blank lines or a null
    kObject,     // a mapping with apiVersion and kind
    kNotObject,  // a mapping without them: a values file, a kustomization
    kUnread,     // an object the command neither edits nor reads: apiVersion and kind
                 // come from ScanTypeHeader, and there is no tree (root() is undefined);
                 // or an empty document it does not read (no marker's text in it)
  };

  // A parsed document; `tree` is null for an empty one.
  Document(const Stream& stream, const DocumentSpan& span, std::unique_ptr<YamlTree> tree);
  // An unread object (Shape::kUnread).
  Document(const Stream& stream, const DocumentSpan& span, const TypeHeader& type);
  // A mapping the type scan read as plainly not an object (Shape::kNotObject), never
  // parsed; `root_pos` is where its first key is.
  static Document NotAnObject(const Stream& stream, const DocumentSpan& span, std::size_t root_pos);
  // An empty slot, only to be moved into: ParseStream makes a stream's records in
  // place, one slot per document (a million tiny documents took twice the memory
  // when each was made apart and moved into the result).
  Document() = default;
  Document(Document&&) noexcept;
  Document& operator=(Document&&) noexcept;
  ~Document();

  const Stream& stream() const { return *stream_; }
  const DocumentSpan& span() const { return *span_; }
  // The tree. Only while has_tree(): reading a dropped tree is a bug in rollcall and
  // throws std::logic_error, rather than answer as if the document were empty.
  YamlNode root() const;
  bool has_tree() const { return !dropped_; }
  Shape shape() const { return shape_; }
  // Told by the type scan alone and never parsed: an unread object, or a mapping
  // the scan read as plainly not an object (NotAnObject).
  bool scanned() const { return scanned_; }

  const Name& api_version() const { return api_version_; }
  const Name& kind() const { return kind_; }
  const Name& name() const { return name_; }
  // The namespace written in the object, empty when none is.
  const Name& declared_namespace() const { return namespace_; }
  // The namespace the object goes to: the declared one, else `default_namespace`.
  Name NamespaceOr(const Name& default_namespace) const {
    return namespace_.empty() ? default_namespace : namespace_;
  }
  // True for objects their tool deletes and recreates on every run: Helm and Argo CD
  // hooks (helm.sh/hook, argocd.argoproj.io/hook).
  bool IsHook() const;
  // metadata.annotations[key] (the last one when the key is written twice), or null.
  const WrittenValue* Annotation(const std::string& key) const;
  // Keys written twice in any mapping of the document, in document order.
  const std::vector<DuplicateKey>& duplicate_keys() const;
  // The Helm template it was rendered from: the "# Source:" path, else Helm 4's
  // postrender-filename annotation; empty when neither is written.
  std::string_view template_path() const;

  // Absolute offset in the stream of a node's start mark.
  std::size_t Offset(const YamlMark& mark) const { return span_->begin + mark.pos; }
  Location Locate(const YamlMark& mark) const;
  Location LocateAt(std::size_t pos) const;  // an offset in the document's text
  Location Locate() const;                   // the document itself
  // "Secret app/db" for messages.
  std::string Describe() const;

  // Whether it has annotations or keys written twice (what few documents have),
  // Helm 4's template annotation aside: every document of a Helm 4 post-render has it.
  bool has_written_beyond_template() const;

  // What the analysis read of the tree (facts.h): whether it has, until the model
  // has taken all of it (BuildModel); the facts, null when there are none but a
  // consumer; and the consumer (a pod template), held apart from the other facts,
  // which few documents have: most documents of a large stream are workloads, and
  // a record of facts beside each of them cost 48 bytes (docs/performance.md).
  bool has_facts() const { return has_facts_; }
  const DocumentFacts* facts() const {
    return held_.first() ? held_.first()->facts.get() : nullptr;
  }
  DocumentFacts* facts() { return held_.first() ? held_.first()->facts.get() : nullptr; }
  const Consumer* consumer() const;
  Consumer* consumer();
  std::unique_ptr<Consumer> TakeConsumer();
  // `facts` is null when they are empty.
  void SetFacts(std::unique_ptr<DocumentFacts> facts, std::unique_ptr<Consumer> consumer);
  void ClearFacts();

  // Lets go of the tree (whose memory is ~40 times the text); everything above stays.
  void DropTree();

 private:
  // What few documents keep, held apart so that the others do not pay for it: a
  // large stream keeps a record of every document for the whole run, and these
  // three pointers beside each cost 16 bytes more than one (docs/performance.md).
  // The tree while it is read, the annotations and keys written twice, the facts.
  // The consumer is held here while the block is (during the parse, beside the
  // tree), else in its place (held_).
  struct Held {
    std::unique_ptr<YamlTree> tree;
    std::map<std::string, WrittenValue> annotations;
    std::vector<DuplicateKey> duplicate_keys;
    std::unique_ptr<DocumentFacts> facts;
    std::unique_ptr<Consumer> consumer;

    bool empty() const;  // of all but the consumer
  };
  // Made when one of them is first set; let go when none is left.
  Held& MutableHeld();
  void LetHeldGoIfEmpty();
  void SetHeldFacts(std::unique_ptr<DocumentFacts> facts);  // null: none
  void SetConsumer(std::unique_ptr<Consumer> consumer);     // null: none

  const Stream* stream_ = nullptr;
  const DocumentSpan* span_ = nullptr;
  // The held block when there is one, else the consumer alone: a workload's record
  // keeps nothing else once its tree is dropped, and a slot of its own for the
  // consumer cost every document 8 bytes (docs/performance.md).
  EitherOwner<Held, Consumer> held_;
  bool dropped_ = false;
  bool scanned_ = false;
  bool has_facts_ = false;
  Shape shape_ = Shape::kEmpty;
  std::uint32_t root_pos_ = 0;  // where the object starts, past "---" and comments
  Name api_version_, kind_, name_, namespace_;
};

// How many not-objects of a stream keep a record each, at the least: not-an-object
// says that many one by one and counts the rest in one finding.
inline constexpr std::size_t kRecordedNotObjects = 5;

// The values-like documents of one stream that ParseStream counted rather than
// recorded: those the type scan told apart (never parsed, nothing in them read) past
// the stream's first kRecordedNotObjects not-objects. A stream of a million of them
// kept a record each, 88 bytes, only to be counted (docs/performance.md).
class CountedNotObjects {
 public:
  void Add(Document doc);
  std::size_t count() const { return count_; }
  // The first and the last of them; null when there are none.
  const Document* first() const { return count_ == 0 ? nullptr : &first_; }
  const Document* last() const { return count_ > 1 ? &last_ : first(); }

 private:
  std::size_t count_ = 0;
  Document first_, last_;
};

// Parses one document after checking it against `limits`. Throws InputError naming
// the origin, document, line and column on malformed or over-deep input.
Document ParseDocument(const Stream& stream, const DocumentSpan& span, const Limits& limits);

// Parses again a document that ParseDocument or ParseStream read without an error:
// its text is not checked again (a capture taken again, model.h's
// CaptureTemplateAgain).
Document ParseDocumentAgain(const Stream& stream, const DocumentSpan& span, const Limits& limits);

// Whether a command needs the tree of a document whose text is `text` and whose
// top-level apiVersion and kind are `type` (docs/performance.md).
using NeedsTree = std::function<bool(const TypeHeader& type, std::string_view text)>;

// What a command reads of a parsed document while its tree is fresh, on the thread
// that parsed it; it may drop the tree after (facts.h's FactReader).
using ReadTree = std::function<void(Document& doc)>;

// What a command takes out of a parsed document's record before ParseStream keeps
// it, on the thread that called ParseStream and in stream order: true when nothing
// anyone reads is left in the record, which the result then leaves out (facts.h's
// SourceTaker).
using TakeRecord = std::function<bool(Document& doc)>;

// How much document text may be in trees at once while ParseStream reads a stream
// (a tree takes 10 to 40 times its text): documents of real charts are far
// smaller, but a stream of a few ConfigMaps of 100,000 short entries each took a
// tree per CPU (docs/performance.md, "Threads and shared state").
inline constexpr std::size_t kTreeTextInFlight = std::size_t{1} << 20;

// Parses every document of the stream, in order, on every usable CPU (usable_cpus.h). Every
// document gets the text checks of `limits`. With `needs_tree`, a document whose
// type ScanTypeHeader reads and `needs_tree` declines is one never parsed and
// the result leaves out (a Shape::kUnread record, dropped as it is made), as is an
// empty document whose text `needs_tree` declines with an empty type; and a
// mapping the scan reads as plainly not an object, and `needs_tree` declines, is a
// Shape::kNotObject record without a tree; with `counted` too, such a mapping past
// the stream's first kRecordedNotObjects not-objects is only counted there, and the
// result leaves it out. With `read_tree`, every document parsed into a
// tree goes through it right after its parse, and the documents parsed at once
// hold at most kTreeTextInFlight bytes of text between them (a larger one is parsed
// alone), read_tree being where their trees go. With `take`, every record the
// result would keep goes through it first, in stream order, and is left out when it
// says so. When documents are malformed, the error of the first in stream order is
// thrown, however the threads interleave.
std::vector<Document> ParseStream(const Stream& stream, const Limits& limits,
                                  const NeedsTree& needs_tree = nullptr,
                                  const ReadTree& read_tree = nullptr,
                                  CountedNotObjects* counted = nullptr,
                                  const TakeRecord& take = nullptr);

// Throws InputError at the first document that has a kind and no apiVersion, or an
// apiVersion and no kind: kubectl and Helm refuse such a document when they apply a
// stream ("Object 'apiVersion' is missing"), so render does too. (lint only notes it:
// a kustomization may be written without its apiVersion.)
void RefuseHalfObjects(const std::vector<Document>& documents);

// Frees the trees of `documents` on every usable CPU. Nothing else may still
// hold a node of any of them (a consumer's pod template, for one).
void DropTrees(std::vector<Document>& documents);

// One shared undefined node, for a reference to return when there is no node.
const YamlNode& NoNode();

// A scalar's text, or "" for anything else (null, map, sequence, undefined).
std::string ScalarOr(const YamlNode& node, const std::string& fallback = "");

// The value of `key` in a mapping as Kubernetes reads it (the last one when the key
// is duplicated; merge keys `<<: *base` expanded as go-yaml expands them, yaml11.h),
// or an undefined node when absent.
YamlNode Child(const YamlNode& map, const char* key);

}  // namespace rollcall
