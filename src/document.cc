#include "rollcall/document.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "parallel.h"
#include "rollcall/alias_budget.h"
#include "rollcall/aliases.h"
#include "rollcall/allocator.h"
#include "rollcall/byte_budget.h"
#include "rollcall/facts.h"
#include "rollcall/field_types.h"
#include "rollcall/input_error.h"
#include "rollcall/json_document.h"
#include "rollcall/json_stream.h"
#include "rollcall/model.h"
#include "rollcall/node_shape.h"
#include "rollcall/yaml11.h"
#include "rollcall/yaml_refusals.h"
#include "rollcall/yaml_text.h"

namespace rollcall {
namespace {

std::size_t PosOf(const YamlNode& node) { return MarkPos(node.Mark()); }

// Keys written twice in a mapping of `node` or below, in document order.
void FindDuplicateKeys(const YamlNode& node, std::vector<DuplicateKey>& out) {
  if (node.IsSequence()) {
    for (const auto& item : node) FindDuplicateKeys(item, out);
    return;
  }
  if (!node.IsMap()) return;
  // Views into the tree's own strings, which outlive this call.
  std::map<std::string_view, std::size_t> seen;
  for (const auto& entry : node) {
    // An alias revisits its anchor's node; walking it again would repeat findings.
    if (PosOf(entry.second) >= PosOf(entry.first)) FindDuplicateKeys(entry.second, out);
    if (!entry.first.IsScalar()) continue;
    auto [it, inserted] = seen.emplace(entry.first.Scalar(), PosOf(entry.first));
    if (!inserted) {
      out.push_back(
          DuplicateKey{std::string(entry.first.Scalar()), PosOf(entry.first), it->second});
    }
  }
}

}  // namespace

const YamlNode& NoNode() {
  static const YamlNode none;
  return none;
}

std::string ScalarOr(const YamlNode& node, const std::string& fallback) {
  return node.IsDefined() && node.IsScalar() ? std::string(node.Scalar()) : fallback;
}

WrittenValue WrittenValueOf(const YamlNode& node) {
  return WrittenValue{ScalarOr(node), PosOf(node), node.IsScalar()};
}

YamlNode Child(const YamlNode& map, const char* key) {
  YamlNode found;
  if (!map.IsDefined() || !map.IsMap()) return found;
  bool merges = false;
  // Compared as views: a std::string against a char pointer measures the pointer's
  // text on every entry of every mapping asked (3% of render's instructions).
  const std::string_view wanted(key);
  for (const auto& entry : map) {
    // The last of duplicate keys wins, as Kubernetes decodes them.
    if (!entry.first.IsScalar()) continue;
    const std::string_view text = entry.first.Scalar();
    if (text == wanted) found = entry.second;
    merges = merges || text == "<<";
  }
  if (!merges) return found;
  // A merge key (<<: *base) writes the merged entries where it stands, as go-yaml
  // reads it: the mapping as Kubernetes reads it decides (yaml11.h).
  std::map<std::string, YamlNode> merged = JsonObject(map);
  auto it = merged.find(key);
  return it != merged.end() ? it->second : YamlNode();
}

Document::Document(const Stream& stream, const DocumentSpan& span, std::unique_ptr<YamlTree> tree)
    : stream_(&stream), span_(&span) {
  if (tree) MutableHeld().tree = std::move(tree);
  const YamlNode root = this->root();
  if (!root.IsDefined() || root.IsNull()) return;
  if (!root.IsMap()) {
    throw InputError(Locate(root.Mark()),
                     "a document must be a mapping (a Kubernetes object), not a " +
                         std::string(root.IsSequence() ? "sequence" : "scalar"));
  }
  root_pos_ = static_cast<std::uint32_t>(PosOf(root));
  YamlNode metadata = Child(root, "metadata");
  api_version_ = ScalarOr(Child(root, "apiVersion"));
  kind_ = ScalarOr(Child(root, "kind"));
  name_ = ScalarOr(Child(metadata, "name"));
  namespace_ = ScalarOr(Child(metadata, "namespace"));
  CheckObjectFields(*this, root, "");
  YamlNode annotations = Child(metadata, "annotations");
  if (annotations.IsMap()) {
    for (const auto& entry : annotations) {
      if (!entry.first.IsScalar()) continue;
      // The last of duplicate keys wins, as Kubernetes decodes them.
      MutableHeld().annotations.insert_or_assign(std::string(entry.first.Scalar()),
                                                 WrittenValueOf(entry.second));
    }
  }
  shape_ = api_version_.empty() || kind_.empty() ? Shape::kNotObject : Shape::kObject;
  if (shape_ == Shape::kObject) {
    std::vector<DuplicateKey> duplicates;
    FindDuplicateKeys(root, duplicates);
    if (!duplicates.empty()) MutableHeld().duplicate_keys = std::move(duplicates);
  }
}

Document::Document(const Stream& stream, const DocumentSpan& span, const TypeHeader& type)
    : stream_(&stream),
      span_(&span),
      scanned_(true),
      shape_(Shape::kUnread),
      api_version_(type.api_version),
      kind_(type.kind) {}

Document Document::NotAnObject(const Stream& stream, const DocumentSpan& span,
                               std::size_t root_pos) {
  Document doc(stream, span, TypeHeader{});
  doc.shape_ = Shape::kNotObject;
  doc.root_pos_ = static_cast<std::uint32_t>(root_pos);
  doc.dropped_ = true;  // no tree to read facts from, as after DropTree()
  return doc;
}

static_assert(sizeof(Document) <= 48, "a record for every document of a large stream");

Document::Document(Document&&) noexcept = default;
Document& Document::operator=(Document&&) noexcept = default;
Document::~Document() = default;

YamlNode Document::root() const {
  if (dropped_) throw std::logic_error("rollcall: the tree of " + Describe() + " was dropped");
  const Held* held = held_.first();
  return held != nullptr && held->tree ? held->tree->root() : YamlNode();
}

bool Document::Held::empty() const {
  return !tree && annotations.empty() && duplicate_keys.empty() && !facts;
}

Document::Held& Document::MutableHeld() {
  if (held_.first() == nullptr) {
    auto held = std::make_unique<Held>();
    held->consumer = held_.TakeSecond();
    held_.Set(std::move(held));
  }
  return *held_.first();
}

void Document::LetHeldGoIfEmpty() {
  Held* held = held_.first();
  if (held == nullptr || !held->empty()) return;
  std::unique_ptr<Consumer> consumer = std::move(held->consumer);
  if (consumer) {
    held_.Set(std::move(consumer));
  } else {
    held_.Reset();
  }
}

void Document::SetConsumer(std::unique_ptr<Consumer> consumer) {
  if (Held* held = held_.first()) {
    held->consumer = std::move(consumer);
  } else if (consumer) {
    held_.Set(std::move(consumer));
  } else {
    held_.Reset();  // the consumer alone, or nothing
  }
}

const Consumer* Document::consumer() const {
  const Held* held = held_.first();
  return held != nullptr ? held->consumer.get() : held_.second();
}

Consumer* Document::consumer() {
  Held* held = held_.first();
  return held != nullptr ? held->consumer.get() : held_.second();
}

void Document::SetHeldFacts(std::unique_ptr<DocumentFacts> facts) {
  if (facts) {
    MutableHeld().facts = std::move(facts);
    return;
  }
  if (Held* held = held_.first()) held->facts.reset();
  LetHeldGoIfEmpty();
}

void Document::DropTree() {
  if (dropped_) return;
  if (Held* held = held_.first()) held->tree.reset();
  LetHeldGoIfEmpty();
  dropped_ = shape_ == Shape::kObject || shape_ == Shape::kNotObject;
}

void Document::SetFacts(std::unique_ptr<DocumentFacts> facts, std::unique_ptr<Consumer> consumer) {
  SetHeldFacts(std::move(facts));
  SetConsumer(std::move(consumer));
  has_facts_ = true;
}

std::unique_ptr<Consumer> Document::TakeConsumer() {
  Held* held = held_.first();
  return held != nullptr ? std::move(held->consumer) : held_.TakeSecond();
}

void Document::ClearFacts() {
  SetHeldFacts(nullptr);
  SetConsumer(nullptr);
  has_facts_ = false;
}

Location Document::Locate(const YamlMark& mark) const { return LocateAt(MarkPos(mark)); }

Location Document::LocateAt(std::size_t pos) const {
  Location where = stream_->Locate(*span_, span_->begin + pos);
  where.source = std::string(template_path());
  return where;
}

Location Document::Locate() const {
  // The object's first line, past the "---" and "# Source:" lines.
  return LocateAt(root_pos_);
}

std::string_view Document::template_path() const {
  std::string_view source = span_->Source(stream_->bytes());
  if (!source.empty()) return source;
  const WrittenValue* helm4 = Annotation(kHelm4FilenameAnnotation);
  return helm4 != nullptr ? std::string_view(helm4->text) : std::string_view();
}

bool Document::has_written_beyond_template() const {
  const Held* held = held_.first();
  if (held == nullptr) return false;
  const std::map<std::string, WrittenValue>& annotations = held->annotations;
  return !held->duplicate_keys.empty() || annotations.size() > 1 ||
         (annotations.size() == 1 && annotations.count(kHelm4FilenameAnnotation) == 0);
}

const WrittenValue* Document::Annotation(const std::string& key) const {
  const Held* held = held_.first();
  if (held == nullptr) return nullptr;
  auto found = held->annotations.find(key);
  return found == held->annotations.end() ? nullptr : &found->second;
}

const std::vector<DuplicateKey>& Document::duplicate_keys() const {
  static const std::vector<DuplicateKey> none;
  return held_.first() != nullptr ? held_.first()->duplicate_keys : none;
}

bool Document::IsHook() const {
  return Annotation("helm.sh/hook") != nullptr || Annotation("argocd.argoproj.io/hook") != nullptr;
}

std::string Document::Describe() const {
  std::string out = kind_.empty() ? std::string("object") : kind_.str();
  if (!namespace_.empty()) return out + " " + namespace_ + "/" + name_;
  return out + " " + (name_.empty() ? std::string("(unnamed)") : name_.str());
}

namespace {

// The offset of the line that makes a piece one kubectl refuses: the bad "---" line
// itself, else the first line with content after the separator ("..." or "%YAML").
std::size_t SplitProblemLine(std::string_view text, DocumentSpan::SplitProblem problem) {
  if (problem == DocumentSpan::SplitProblem::kBadSeparator ||
      problem == DocumentSpan::SplitProblem::kSeparatorNotAMarker) {
    return 0;
  }
  if (problem == DocumentSpan::SplitProblem::kStrayByteOrderMark) {
    const std::size_t at = text.find("\n" + std::string(kUtf8Bom), DocumentContentStart(text));
    return at == std::string_view::npos ? SeparatorLineLength(text) : at + 1;
  }
  for (std::size_t at = 0; at < text.size(); at = NextLineStart(text, at)) {
    std::size_t first = SkipBlanks(text, at);
    const char c = first < text.size() ? text[first] : '\n';
    if (c == '\n' || c == '\r' || c == '#') continue;
    if (first == at && text.substr(at, 3) == "---") continue;
    return at;
  }
  return 0;
}

// The text checks every document gets, read or not (limits.h: size, nesting depth,
// unterminated quotes and flow collections, encoding, tabs, stray commas).
void CheckText(const Stream& stream, const DocumentSpan& span, const Limits& limits) {
  std::string_view text = span.Text(stream.bytes());
  if (span.problem == DocumentSpan::SplitProblem::kJsonSyntax) {
    // At the start of the line's content: the text there may be a Secret's value.
    const std::size_t at = JsonErrorAt(stream.bytes(), span.begin) - span.begin;
    throw InputError(stream.Locate(span, span.begin + SkipBlanks(text, LineStartOf(text, at))),
                     SplitProblemMessage(span.problem));
  }
  if (span.problem != DocumentSpan::SplitProblem::kNone) {
    throw InputError(stream.Locate(span, span.begin + SplitProblemLine(text, span.problem)),
                     SplitProblemMessage(span.problem));
  }
  if (span.json) {
    if (std::optional<TextProblem> problem =
            FindJsonTextProblem(span.ReadText(stream.bytes()), limits)) {
      throw InputError(stream.Locate(span, span.begin + problem->offset), problem->message);
    }
    return;
  }
  // What follows a "..." line is never read by Kubernetes, and not checked; nor is the
  // "---" line, which kubectl's reader drops.
  std::string_view read = span.ReadText(stream.bytes());
  const std::size_t separator = SeparatorLineLength(read);
  if (std::optional<TextProblem> problem = FindTextProblem(read.substr(separator), limits)) {
    throw InputError(stream.Locate(span, span.begin + separator + problem->offset),
                     problem->message);
  }
}

// A value of a JSON stream, parsed as json_document.h says.
Document ParseJson(const Stream& stream, const DocumentSpan& span) {
  std::string_view text = span.ReadText(stream.bytes());
  ParsedTree parsed = ParseTree(JsonForYamlParser(text), text);
  if (const std::optional<YamlRefusal>& refusal = parsed.refusal) {
    throw InputError(stream.Locate(span, span.begin + std::min(refusal->offset, text.size())),
                     refusal->message);
  }
  return {stream, span, std::move(parsed.tree)};
}

Document Parse(const Stream& stream, const DocumentSpan& span, const Limits& limits,
               AliasBudgetTurn& aliases) {
  if (span.empty) return {stream, span, nullptr};
  if (span.json) return ParseJson(stream, span);
  std::string_view text = span.ReadText(stream.bytes());
  // kubectl's stream reader ends every line with an LF, the stream's last one too,
  // before go-yaml reads it; libyaml gets the same text (a block scalar on the last
  // line keeps its line break). A CR that ends the stream ends its last line to
  // kubectl (limits.cc): an LF in its place. Nothing before the end moves.
  std::string copy(text);
  // The "---" line as blanks: what kubectl's reader drops, libyaml does not read (an
  // implicit document then, the same tree), and every offset stays where it was.
  const std::size_t separator = SeparatorLineLength(text);
  for (std::size_t i = 0; i < separator; ++i) {
    if (copy[i] != '\n') copy[i] = ' ';
  }
  // A byte-order mark opening the document after "---": go-yaml gets it as its text's
  // first bytes (the line dropped) and takes it for the encoding's mark. libyaml does
  // so only at the start of its input, and elsewhere reads the line as indented by
  // one: so it goes there, the blanked line after it, every byte after where it was.
  if (DocumentContentStart(text) > separator) {
    copy.erase(separator, kUtf8Bom.size());
    copy.insert(0, kUtf8Bom);
  }
  // An empty flow collection opening the document is never a key to go-yaml v2 (`{}:
  // 1` and `{} x: 1` are `{}` to it), where libyaml takes the ':' after it for its
  // key's: what follows goes blank, every offset where it was.
  const std::size_t empty_root_end =
      EmptyFlowCollectionEnd(text, SkipSpaceAndComments(text, DocumentContentStart(text)));
  for (std::size_t i = empty_root_end; i < copy.size(); ++i) {
    if (copy[i] != '\n') copy[i] = ' ';
  }
  if (!copy.empty() && copy.back() == '\r') copy.back() = '\n';
  if (!copy.empty() && copy.back() != '\n') copy.push_back('\n');
  ParsedTree parsed = ParseTree(copy);
  if (const std::optional<YamlRefusal>& refusal = parsed.refusal) {
    throw InputError(stream.Locate(span, span.begin + std::min(refusal->offset, text.size())),
                     refusal->message);
  }
  std::unique_ptr<YamlTree> tree = std::move(parsed.tree);
  std::size_t expanded = 0;
  if (std::optional<AliasProblem> problem =
          FindExcessiveAliasing(text, tree->root(), limits.max_depth, aliases.Left(), &expanded)) {
    std::size_t at = MarkPos(problem->mark);
    throw InputError(stream.Locate(span, span.begin + std::min(at, text.size())), problem->message);
  }
  aliases.Spend(expanded);
  return {stream, span, std::move(tree)};
}

Document Read(const Stream& stream, const DocumentSpan& span, const Limits& limits,
              const NeedsTree& needs_tree, const ReadTree& read_tree, ByteBudget& trees,
              AliasBudgetTurn& aliases) {
  CheckText(stream, span, limits);
  if (needs_tree && span.empty) {
    // Comments only: nothing to read in it, unless it holds a marker's text.
    if (!needs_tree(TypeHeader{}, span.ReadText(stream.bytes()))) {
      return {stream, span, TypeHeader{}};
    }
  } else if (needs_tree) {
    std::string_view text = span.ReadText(stream.bytes());
    const std::size_t start = DocumentContentStart(text);
    TypeScan scan = ScanType(text.substr(start));
    if (scan.type && !needs_tree(*scan.type, text)) return {stream, span, *scan.type};
    // A values file in the stream: nothing to read in it but that it is no object.
    if (scan.plainly_not_an_object && !needs_tree(TypeHeader{}, text)) {
      return Document::NotAnObject(stream, span, start + scan.first_key);
    }
  }
  // The tree lives from the parse to the end of read_tree, which drops it. A
  // document waits for its turn at the alias budget before it takes its share of
  // `trees`, so that none holds a share that one before it waits for.
  const std::size_t size = span.ReadText(stream.bytes()).size();
  (void)aliases.Left();
  ByteBudget::Share share = trees.Take(size);
  Document doc = Parse(stream, span, limits, aliases);
  if (!read_tree) return doc;
  read_tree(doc);
  // A large document's tree, freed, goes back to the system before the next one.
  if (size >= kTreeTextInFlight / 4) ReturnFreedMemory();
  return doc;
}

}  // namespace

Document ParseDocument(const Stream& stream, const DocumentSpan& span, const Limits& limits) {
  CheckText(stream, span, limits);
  AliasBudgetTurn alone(nullptr, 0);
  return Parse(stream, span, limits, alone);
}

Document ParseDocumentAgain(const Stream& stream, const DocumentSpan& span, const Limits& limits) {
  AliasBudgetTurn alone(nullptr, 0);
  return Parse(stream, span, limits, alone);
}

void RefuseHalfObjects(const std::vector<Document>& documents) {
  for (const Document& doc : documents) {
    if (doc.shape() != Document::Shape::kNotObject) continue;
    if (doc.api_version().empty() == doc.kind().empty()) continue;
    const char* missing = doc.kind().empty() ? "kind" : "apiVersion";
    throw InputError(doc.Locate(),
                     std::string("Object '") + missing + "' is missing: a document with " +
                         (doc.kind().empty() ? "an apiVersion" : "a kind") + " and no " + missing +
                         ", which kubectl and Helm refuse to apply; add it, or "
                         "take this document out of the stream");
  }
}

void DropTrees(std::vector<Document>& documents) {
  ParallelFor(documents.size(), [&](std::size_t i) { documents[i].DropTree(); });
}

namespace {

// The room for records when `kept` of the first `read` of `spans` documents were
// kept and the vector is full. The records stay for the whole run, and so does
// the room grown past the last one; and growing holds the old records beside the
// new room. So once a thousand documents show how many a stream keeps, the room
// is made for all it will keep at that rate, in one step, while the records are
// few; within half the input's size, so that a stream whose documents change past
// its start never holds more room than its text allows (docs/performance.md).
// Before, and past that, a quarter more at a time.
std::size_t RecordRoom(std::size_t kept, std::size_t read, std::size_t spans,
                       std::size_t input_bytes) {
  const std::size_t step = kept + kept / 4 + 1024;
  if (read < 1024) return step;
  const double rate = static_cast<double>(kept) / static_cast<double>(read);
  const auto expected = static_cast<std::size_t>(rate * static_cast<double>(spans) * 1.01) + 64;
  const std::size_t within = input_bytes / 2 / sizeof(Document);
  return std::max(step, std::min(expected, within));
}

}  // namespace

std::vector<Document> ParseStream(const Stream& stream, const Limits& limits,
                                  const NeedsTree& needs_tree, const ReadTree& read_tree,
                                  CountedNotObjects* counted, const TakeRecord& take) {
  const std::vector<DocumentSpan>& spans = stream.documents();
  // Without read_tree the trees are all kept: nothing to wait for.
  ByteBudget trees(read_tree ? kTreeTextInFlight : std::numeric_limits<std::size_t>::max());
  // Only the documents that may hold aliases take turns at the stream's budget,
  // numbered among themselves; the others never wait, nor make anyone wait.
  std::vector<std::size_t> with_aliases;
  for (std::size_t i = 0; i < spans.size(); ++i) {
    if (!spans[i].json && MayHoldAliases(spans[i].ReadText(stream.bytes()))) {
      with_aliases.push_back(i);
    }
  }
  StreamAliasBudget aliases(kMaxAliasExpansion);
  auto read = [&](std::size_t i) {
    auto at = std::lower_bound(with_aliases.begin(), with_aliases.end(), i);
    const bool takes_turn = at != with_aliases.end() && *at == i;
    AliasBudgetTurn turn(takes_turn ? &aliases : nullptr,
                         static_cast<std::size_t>(at - with_aliases.begin()));
    return Read(stream, spans[i], limits, needs_tree, read_tree, trees, turn);
  };
  if (!needs_tree && !take) return ParallelMap<Document>(spans.size(), read);
  // The documents no one reads leave no record, nor do those `take` empties: made a
  // chunk at a time and dropped there, so a stream of a million small unread
  // objects, of a million empty documents or of a million small ConfigMaps never
  // holds a million records (docs/performance.md). Chunks go in stream order, so
  // the error thrown is still the first document's in stream order.
  constexpr std::size_t kChunk = std::size_t{1} << 14;
  // Values-like documents past the first few are counted, not kept (`counted`).
  std::size_t not_objects = 0;
  std::vector<Document> out;
  for (std::size_t begin = 0; begin < spans.size(); begin += kChunk) {
    std::vector<Document> chunk = ParallelMap<Document>(
        std::min(kChunk, spans.size() - begin), [&](std::size_t i) { return read(begin + i); });
    for (Document& doc : chunk) {
      if (doc.shape() == Document::Shape::kUnread) continue;
      if (doc.shape() == Document::Shape::kNotObject && not_objects++ >= kRecordedNotObjects &&
          counted != nullptr && doc.scanned()) {
        counted->Add(std::move(doc));
        continue;
      }
      if (take && take(doc)) continue;
      if (out.size() == out.capacity()) {
        out.reserve(RecordRoom(out.size(), begin + (&doc - chunk.data()) + 1, spans.size(),
                               stream.bytes().size()));
      }
      out.push_back(std::move(doc));
    }
  }
  return out;
}

void CountedNotObjects::Add(Document doc) { (count_++ == 0 ? first_ : last_) = std::move(doc); }

}  // namespace rollcall
