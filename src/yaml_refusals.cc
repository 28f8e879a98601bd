#include "rollcall/yaml_refusals.h"

#include <yaml.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "rollcall/flat_string_map.h"
#include "rollcall/json_document.h"
#include "rollcall/utf8.h"
#include "rollcall/yaml11.h"
#include "rollcall/yaml_text.h"
#include "rollcall/yaml_tree.h"

namespace rollcall {
namespace {

constexpr std::string_view kCoreTag = "tag:yaml.org,2002:";
constexpr const char* kRefuses = "; Kubernetes' YAML reader (go-yaml) refuses the document";

// What an anchor names, as far as keys and merges care.
enum class Shape { kNull, kScalar, kMapping, kSequence };

// The keys of a mapping, each with where its value holds a float JSON cannot hold,
// if it does: what a merge of the mapping writes.
struct MergedKey {
  std::string value;                    // the Go value it came from (KeyValue)
  std::optional<std::size_t> infinite;  // where its value is .inf or .nan, if it is
};
using MergedKeys = std::map<std::string, MergedKey>;

struct Anchored {
  Shape shape = Shape::kScalar;
  bool infinite = false;  // it is, or holds, a float JSON cannot hold
  MergedKeys keys;        // a mapping's
};

// libyaml's marks count characters; rollcall's offsets are bytes. Marks come in
// increasing order but for a scalar's start asked after its end, so the cursor
// walks forward, and back from where it is when asked for an earlier one (starting
// over from the text's start made a long line of quoted scalars quadratic). The
// text is UTF-8, so a character starts at the first byte that is no continuation.
// A byte-order mark that opens the text is no character to libyaml, which takes it
// for the encoding's mark: character 0 is the one after it.
class ByteOffsets {
 public:
  explicit ByteOffsets(std::string_view text)
      : text_(text),
        bytes_(text.substr(0, kUtf8Bom.size()) == kUtf8Bom ? kUtf8Bom.size() : 0),
        start_(bytes_) {}

  std::size_t Of(std::size_t char_index) {
    while (chars_ > char_index && bytes_ > start_) {
      --bytes_;
      while (bytes_ > start_ && (static_cast<unsigned char>(text_[bytes_]) & 0xC0) == 0x80) {
        --bytes_;
      }
      --chars_;
    }
    while (chars_ < char_index && bytes_ < text_.size()) {
      char32_t c = 0;
      bytes_ += std::max<std::size_t>(1, DecodeUtf8(text_, bytes_, c));
      ++chars_;
    }
    return std::min(bytes_, text_.size());
  }

 private:
  std::string_view text_;
  std::size_t chars_ = 0;
  std::size_t bytes_ = 0;
  std::size_t start_ = 0;  // past a leading byte-order mark
};

// Where a node stands, which decides what is asked of it.
enum class Role { kRoot, kKey, kValue, kMergeValue, kMergeItem };

// A mapping or sequence being read.
struct Frame {
  bool mapping = false;
  Role role = Role::kRoot;   // where it stands
  bool at_key = true;        // mapping: the next node is a key
  bool merge_next = false;   // mapping: the key just read is a merge key
  bool merge_items = false;  // sequence: a merge key's value, whose items must be mappings
  bool flow = false;         // written in flow style ({…} or […])
  std::string anchor;
  // Where the floats JSON cannot hold (.inf, .nan) are that survive into the JSON:
  // in a mapping, by key, since a later duplicate key replaces a value (go-yaml
  // refuses nothing, it is encoding/json that refuses the infinite float); in a
  // sequence, the first one.
  std::string key;  // mapping: the JSON key of the entry being read
  // mapping: each JSON key with the Go value it came from ("i:12", "f:12", "s:12").
  FlatStringMap key_values;
  std::map<std::string, std::size_t, std::less<>> infinite_by_key;
  std::optional<std::size_t> infinite;
  // sequence, a merge key's value: the keys its earlier items supplied, which win.
  std::set<std::string> supplied;
};

class Scan {
 public:
  // `colons`: offsets where `text` has an 'x' for a ':' that ends a plain scalar in a
  // flow collection (ParseTree), which the scalar's value gets back.
  Scan(std::string_view text, YamlTreeBuilder* builder, std::string_view json,
       const std::vector<std::size_t>& colons = {})
      : text_(text), json_(json), colons_(colons), offsets_(text), builder_(builder) {
    yaml_parser_initialize(&parser_);
    yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(text.data()),
                                 text.size());
  }
  ~Scan() { yaml_parser_delete(&parser_); }
  Scan(const Scan&) = delete;
  Scan& operator=(const Scan&) = delete;

  std::optional<YamlRefusal> Run() {
    for (;;) {
      yaml_event_t event;
      if (yaml_parser_parse(&parser_, &event) == 0) return ParseError();
      std::unique_ptr<yaml_event_t, void (*)(yaml_event_t*)> owned(&event, yaml_event_delete);
      if (event.type == YAML_DOCUMENT_END_EVENT || event.type == YAML_STREAM_END_EVENT) {
        // go-yaml reads a piece's first document only.
        if (!infinite_) return std::nullopt;
        return YamlRefusal{*infinite_,
                           "a value that is .inf or .nan to YAML 1.1, which JSON cannot hold: "
                           "Kubernetes refuses the document (json: unsupported value); quote it "
                           "if it is text"};
      }
      if (std::optional<YamlRefusal> refusal = Visit(event)) return refusal;
      if (builder_ != nullptr) Build(event);
    }
  }

 private:
  YamlRefusal Refuse(const yaml_mark_t& mark, std::string message) {
    return YamlRefusal{offsets_.Of(mark.index), std::move(message)};
  }

  // A refusal placed at the start of the content of the line holding `at`: the
  // place a problem inside a scalar is reported at, since a column there may lie in
  // a Secret's value and tell how long it is.
  YamlRefusal OnLineOf(std::size_t at, std::string message) const {
    return YamlRefusal{SkipBlanks(text_, LineStartOf(text_, at)), std::move(message)};
  }

  // libyaml's words, on the line libyaml stopped on (OnLineOf): its column may lie
  // inside a value (`password: hunter2: rest` stops at the second ':').
  YamlRefusal ParseError() {
    std::string problem = parser_.problem != nullptr ? parser_.problem : "cannot be parsed";
    const std::string_view context = parser_.context != nullptr ? parser_.context : "";
    const std::size_t at = offsets_.Of(parser_.problem_mark.index);
    if (context == "while scanning a plain scalar" && problem == "found unexpected ':'") {
      // `{red: v:}`: libyaml 0.2.5 refuses a ':' that ends a plain scalar in a flow
      // collection; go-yaml v2, which Kubernetes reads with, takes it into the value.
      flow_colon_ = at;
      return OnLineOf(at,
                      "invalid YAML: a ':' ends a plain (unquoted) value inside {…} or […] on "
                      "this line: Kubernetes reads the ':' as part of the value, but "
                      "rollcall's YAML parser (libyaml 0.2.5) does not; quote the value");
    }
    if (context != "while parsing a quoted scalar") {
      return OnLineOf(at, "invalid YAML: " + problem + kRefuses);
    }
    if (text_.substr(at, 2) == "\\'") {
      // The one escape go-yaml v2 reads and libyaml 0.2.5 does not (it was dropped
      // after the port): Kubernetes reads `\'` as a quote, so saying that it refuses
      // the document would be wrong. rollcall cannot read it with libyaml, and refuses.
      return OnLineOf(at,
                      "invalid YAML: an escaped single quote (\\') in a double-quoted scalar "
                      "on this line: Kubernetes reads it as ', but rollcall's YAML parser "
                      "(libyaml 0.2.5) does not; write the ' without the backslash");
    }
    return InQuotedScalar(at, problem);
  }

  YamlRefusal InQuotedScalar(std::size_t offset, const std::string& problem) const {
    return OnLineOf(offset, "invalid YAML: " + problem + " (in a quoted scalar on this line)" +
                                std::string(kRefuses));
  }

  Role NextRole() {
    if (stack_.empty()) return Role::kRoot;
    Frame& top = stack_.back();
    if (!top.mapping) return top.merge_items ? Role::kMergeItem : Role::kValue;
    if (top.at_key) {
      top.at_key = false;
      return Role::kKey;
    }
    top.at_key = true;
    bool merge = top.merge_next;
    top.merge_next = false;
    return merge ? Role::kMergeValue : Role::kValue;
  }

  static std::string_view View(const yaml_char_t* text) {
    return text == nullptr ? std::string_view() : reinterpret_cast<const char*>(text);
  }
  static std::string Text(const yaml_char_t* text) { return std::string(View(text)); }

  std::optional<YamlRefusal> Visit(const yaml_event_t& event) {
    switch (event.type) {
      case YAML_SCALAR_EVENT:
        return VisitScalar(event);
      case YAML_ALIAS_EVENT:
        return VisitAlias(event);
      case YAML_MAPPING_START_EVENT:
      case YAML_SEQUENCE_START_EVENT:
        return VisitCollection(event);
      case YAML_MAPPING_END_EVENT:
      case YAML_SEQUENCE_END_EVENT:
        return EndCollection(offsets_.Of(event.start_mark.index));
      default:
        return std::nullopt;
    }
  }

  std::optional<YamlRefusal> VisitScalar(const yaml_event_t& event) {
    const auto& scalar = event.data.scalar;
    Role role = NextRole();
    std::string value(reinterpret_cast<const char*>(scalar.value), scalar.length);
    // The tree's way of saying how it was written (yaml_tree.h): "?" plain and
    // untagged, "!" quoted or block and untagged.
    std::string tag = Text(scalar.tag);
    if (tag.empty()) tag = scalar.plain_implicit != 0 ? "?" : "!";
    if (scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE) {
      if (std::optional<YamlRefusal> refusal = CheckEscapes(event)) return refusal;
    }
    if (scalar.style == YAML_PLAIN_SCALAR_STYLE && flow_depth_ > 0) {
      if (std::optional<YamlRefusal> refusal = CheckPlainInFlow(event)) return refusal;
    }
    if (scalar.style == YAML_PLAIN_SCALAR_STYLE && HoldsPatchedColon(event) &&
        value !=
            text_.substr(offsets_.Of(event.start_mark.index),
                         offsets_.Of(event.end_mark.index) - offsets_.Of(event.start_mark.index))) {
      // Over lines, its value is not its text: not restated.
      return OnLineOf(offsets_.Of(event.start_mark.index),
                      "invalid YAML: a ':' ends a plain (unquoted) value over several lines "
                      "inside {…} or […]: Kubernetes reads the ':' as part of the value, but "
                      "rollcall's YAML parser (libyaml 0.2.5) does not; quote the value");
    }
    if (!json_.empty() && scalar.style == YAML_PLAIN_SCALAR_STYLE && IsJsonNumberOverflow(value)) {
      // JSON's numbers are float64 to Kubernetes' decoder, which refuses one past its
      // range (go-yaml reads such a YAML scalar as a string).
      return Refuse(event.start_mark,
                    "a number beyond float64's range; Kubernetes refuses the document (json: "
                    "cannot unmarshal number into Go value of type float64)");
    }
    std::optional<ResolvedScalar> resolved = ResolveTaggedScalar(tag, value);
    if (!resolved) {
      std::string name = "!!" + tag.substr(std::min(tag.size(), kCoreTag.size()));
      std::string message =
          name == "!!binary"
              ? "!!binary value contains invalid base64 data"
              : "a scalar tagged " + name + " that is not one (cannot decode it as a " + name + ")";
      return Refuse(event.start_mark, "invalid YAML: " + message + kRefuses);
    }
    bool is_null = resolved->type == ResolvedScalar::Type::kNull;
    bool infinite =
        resolved->type == ResolvedScalar::Type::kFloat && !std::isfinite(resolved->number);
    Define(scalar.anchor, {is_null ? Shape::kNull : Shape::kScalar, infinite, {}});
    switch (role) {
      case Role::kKey:
        if (is_null) return RefuseKey(event.start_mark, Shape::kNull);
        if (infinite && std::isnan(resolved->number)) {
          // Go's maps keep every NaN key apart (NaN equals nothing), and sigs.k8s.io/yaml
          // then writes each as the JSON key ".nan", in Go's random map order: which
          // value Kubernetes reads changes from run to run.
          return Refuse(event.start_mark,
                        "a mapping key that is .nan to YAML 1.1: Kubernetes reads one of the "
                        "values of such keys, chosen at random each time; quote the key");
        }
        stack_.back().merge_next =
            (tag == "?" && value == "<<") || tag == std::string(kCoreTag) + "merge";
        stack_.back().key = JsonKeyText(*resolved);
        if (!stack_.back().merge_next &&
            !SameKeyValue(stack_.back(), stack_.back().key, KeyValue(*resolved))) {
          return RefuseSameKey(offsets_.Of(event.start_mark.index));
        }
        return std::nullopt;
      case Role::kMergeValue:
      case Role::kMergeItem:
        return RefuseMerge(event.start_mark);
      default:
        break;
    }
    SetValue(infinite ? std::optional<std::size_t>(offsets_.Of(event.start_mark.index))
                      : std::nullopt);
    return std::nullopt;
  }

  // The Go value a key resolves to, as text: "i:12", "f:12", "b:true", "s:12".
  static std::string KeyValue(const ResolvedScalar& key) {
    switch (key.type) {
      case ResolvedScalar::Type::kInt:
        return "i:" + JsonScalarText(key);
      case ResolvedScalar::Type::kFloat:
        return "f:" + JsonScalarText(key);
      case ResolvedScalar::Type::kBool:
        return "b:" + JsonScalarText(key);
      default:
        return "s:" + key.text;
    }
  }

  // Go's map keeps `12`, `12.0` and `"12"` apart, and sigs.k8s.io/yaml writes each
  // as the JSON key "12", in Go's random map order.
  static YamlRefusal RefuseSameKey(std::size_t at) {
    return YamlRefusal{at,
                       "two keys of this mapping, written as different values (a number and a "
                       "string, say), are the same key once Kubernetes turns them into JSON: "
                       "which value it keeps changes from run to run; write the key once"};
  }

  // Records that `frame` has the JSON key `key` from the Go value `value`; false when
  // it has it from another value. A key written twice as the same value is a
  // duplicate key, which go-yaml resolves (the last wins).
  static bool SameKeyValue(Frame& frame, const std::string& key, const std::string& value) {
    return frame.key_values.Emplace(key, value) == value;
  }

  // A value is read whole: it replaces what its key held before.
  void SetValue(std::optional<std::size_t> infinite) {
    if (stack_.empty()) {
      infinite_ = infinite;
      return;
    }
    Frame& top = stack_.back();
    if (!top.mapping) {
      if (!top.infinite) top.infinite = infinite;
    } else if (infinite) {
      top.infinite_by_key[top.key] = *infinite;
    } else {
      top.infinite_by_key.erase(top.key);
    }
  }

  std::optional<YamlRefusal> EndCollection(std::size_t at) {
    if (stack_.empty()) return std::nullopt;
    Frame top = std::move(stack_.back());
    flow_depth_ -= top.flow ? 1 : 0;
    stack_.pop_back();
    std::optional<std::size_t> infinite = top.infinite;
    for (const auto& entry : top.infinite_by_key) {
      if (!infinite || entry.second < *infinite) infinite = entry.second;
    }
    // The keys a mapping supplies, for an alias to merge later or a merge now. Only
    // then: copying every mapping's keys at its end doubled what this scan held for a
    // Secret or ConfigMap of many entries (docs/performance.md).
    const bool merged = top.role == Role::kMergeItem || top.role == Role::kMergeValue;
    MergedKeys keys;
    if (top.mapping && (merged || !top.anchor.empty())) {
      top.key_values.ForEach([&](std::string_view key, std::string_view value) {
        auto found = top.infinite_by_key.find(key);
        keys[std::string(key)] = {std::string(value), found == top.infinite_by_key.end()
                                                          ? std::nullopt
                                                          : std::optional(found->second)};
      });
    }
    if (!top.anchor.empty()) {
      auto found = anchors_.find(top.anchor);
      if (found != anchors_.end()) {
        found->second.infinite = infinite.has_value();
        found->second.keys = keys;
      }
    }
    if (top.role == Role::kMergeItem) return Merge(keys, &stack_.back().supplied, at);
    if (top.role == Role::kMergeValue) {
      if (top.mapping) return Merge(keys, nullptr, at);
      return std::nullopt;  // a sequence's items were merged one by one
    }
    SetValue(infinite);
    return std::nullopt;
  }

  // A merge writes its mapping's entries where the merge key stands: over the
  // entries before it, under those after it; of a sequence of mappings, the earlier
  // win (`supplied`), but only over the same Go value: 12.0 from one and +12 from
  // another are two keys to go-yaml, one JSON key "12" with either value at random.
  // `at` is where the merged mapping (or its alias) ends, for a refusal.
  std::optional<YamlRefusal> Merge(const MergedKeys& keys, std::set<std::string>* supplied,
                                   std::size_t at) {
    Frame* target = nullptr;
    for (auto it = stack_.rbegin(); it != stack_.rend() && target == nullptr; ++it) {
      if (it->mapping) target = &*it;
    }
    if (target == nullptr) return std::nullopt;
    for (const auto& [key, merged] : keys) {
      if (!SameKeyValue(*target, key, merged.value)) return RefuseSameKey(at);
      if (supplied != nullptr && !supplied->insert(key).second) continue;
      if (merged.infinite) {
        target->infinite_by_key[key] = *merged.infinite;
      } else {
        target->infinite_by_key.erase(key);
      }
    }
    return std::nullopt;
  }

  std::optional<YamlRefusal> VisitAlias(const yaml_event_t& event) {
    Role role = NextRole();
    std::string anchor = Text(event.data.alias.anchor);
    for (const Frame& frame : stack_) {
      if (frame.anchor == anchor) {
        return Refuse(event.start_mark,
                      "invalid YAML: an alias inside the node its anchor names "
                      "(anchor value contains itself)" +
                          std::string(kRefuses));
      }
    }
    auto found = anchors_.find(anchor);
    if (found == anchors_.end()) {
      return Refuse(event.start_mark,
                    "invalid YAML: an alias of an anchor not defined before it (unknown "
                    "anchor referenced)" +
                        std::string(kRefuses));
    }
    Shape shape = found->second.shape;
    if (role == Role::kKey) {
      if (shape != Shape::kScalar) return RefuseKey(event.start_mark, shape);
      stack_.back().key = "*" + anchor;  // not compared with written keys
      return std::nullopt;
    }
    if (role == Role::kMergeValue || role == Role::kMergeItem) {
      if (shape != Shape::kMapping) return RefuseMerge(event.start_mark);
      const std::size_t at = offsets_.Of(event.start_mark.index);
      MergedKeys keys = found->second.keys;
      for (auto& entry : keys) {
        if (entry.second.infinite) entry.second.infinite = at;
      }
      return Merge(keys, role == Role::kMergeItem ? &stack_.back().supplied : nullptr, at);
    }
    SetValue(found->second.infinite
                 ? std::optional<std::size_t>(offsets_.Of(event.start_mark.index))
                 : std::nullopt);
    return std::nullopt;
  }

  std::optional<YamlRefusal> VisitCollection(const yaml_event_t& event) {
    bool mapping = event.type == YAML_MAPPING_START_EVENT;
    Role role = NextRole();
    if (role == Role::kKey)
      return RefuseKey(event.start_mark, mapping ? Shape::kMapping : Shape::kSequence);
    if (role == Role::kMergeItem && !mapping) return RefuseMerge(event.start_mark);
    Frame frame;
    frame.mapping = mapping;
    frame.role = role;
    frame.merge_items = role == Role::kMergeValue && !mapping;
    const yaml_char_t* anchor =
        mapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor;
    frame.anchor = Text(anchor);
    frame.flow = mapping ? event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
                         : event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE;
    flow_depth_ += frame.flow ? 1 : 0;
    Define(anchor, {mapping ? Shape::kMapping : Shape::kSequence, false, {}});
    stack_.push_back(std::move(frame));
    return std::nullopt;
  }

  void Define(const yaml_char_t* anchor, Anchored what) {
    if (anchor != nullptr) anchors_[Text(anchor)] = std::move(what);
  }

  YamlRefusal RefuseKey(const yaml_mark_t& mark, Shape shape) {
    if (shape == Shape::kNull) {
      return Refuse(mark,
                    "a mapping key that is null (~, null or nothing before the ':'); "
                    "Kubernetes refuses the document (Unsupported map key of type: "
                    "%!s(<nil>))");
    }
    return Refuse(mark,
                  "a mapping key that is a mapping or a sequence; Kubernetes refuses the "
                  "document (invalid map key)");
  }

  YamlRefusal RefuseMerge(const yaml_mark_t& mark) {
    return Refuse(mark, "invalid YAML: map merge requires map or sequence of maps as the value" +
                            std::string(kRefuses));
  }

  // go-yaml v2 knows YAML 1.1's escapes; libyaml 0.2.5 also takes YAML 1.2's "\/"
  // (go-yaml's words for it).
  std::optional<YamlRefusal> CheckEscapes(const yaml_event_t& event) {
    std::size_t begin = offsets_.Of(event.start_mark.index);
    std::size_t end = offsets_.Of(event.end_mark.index);
    for (std::size_t i = begin; i + 1 < end; ++i) {
      if (text_[i] != '\\') continue;
      if (text_[i + 1] == '/') return InQuotedScalar(i, "found unknown escape character");
      ++i;
    }
    return std::nullopt;
  }

  // Hands an event the checks let through to the tree builder.
  void Build(const yaml_event_t& event) {
    const std::size_t line = event.start_mark.line;
    switch (event.type) {
      case YAML_SCALAR_EVENT: {
        const auto& scalar = event.data.scalar;
        const std::size_t pos = offsets_.Of(event.start_mark.index);
        std::string_view value(reinterpret_cast<const char*>(scalar.value), scalar.length);
        // A JSON string's value is JSON's reading of it, not libyaml's of its filler.
        std::string decoded;
        if (!json_.empty() && scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE) {
          decoded = JsonStringAt(json_, pos);
          value = decoded;
        } else if (scalar.style == YAML_PLAIN_SCALAR_STYLE && HoldsPatchedColon(event)) {
          // One line (VisitScalar), so its value is its text: the ':' back in it.
          decoded = std::string(value);
          for (std::size_t at : colons_) {
            if (at >= pos && at < pos + decoded.size()) decoded[at - pos] = ':';
          }
          value = decoded;
        }
        builder_->Scalar(pos, line, View(scalar.anchor), View(scalar.tag),
                         scalar.style == YAML_PLAIN_SCALAR_STYLE, value);
        return;
      }
      case YAML_ALIAS_EVENT:
        builder_->Alias(View(event.data.alias.anchor));
        return;
      case YAML_MAPPING_START_EVENT:
      case YAML_SEQUENCE_START_EVENT: {
        // VisitCollection has just pushed this collection's frame.
        const Frame& frame = stack_.back();
        builder_->Begin(
            frame.mapping ? YamlType::kMap : YamlType::kSequence,
            frame.flow ? YamlStyle::kFlow : YamlStyle::kBlock, offsets_.Of(event.start_mark.index),
            line, frame.anchor,
            View(frame.mapping ? event.data.mapping_start.tag : event.data.sequence_start.tag));
        return;
      }
      case YAML_MAPPING_END_EVENT:
      case YAML_SEQUENCE_END_EVENT:
        builder_->End();
        return;
      default:
        return;
    }
  }

  // In a flow collection go-yaml v2 ends a plain scalar at a '?', as libyaml did
  // before 0.2.1 (libyaml 0.2.5 reads on): `{key: https://x/a?b=c}` is refused by
  // Kubernetes, with "did not find expected ',' or '}'".
  std::optional<YamlRefusal> CheckPlainInFlow(const yaml_event_t& event) {
    std::size_t begin = offsets_.Of(event.start_mark.index);
    std::size_t end = std::min(offsets_.Of(event.end_mark.index), text_.size());
    if (begin + 1 >= end) return std::nullopt;
    std::size_t mark = text_.substr(begin + 1, end - begin - 1).find('?');
    if (mark == std::string_view::npos) return std::nullopt;
    return YamlRefusal{begin + 1 + mark,
                       "invalid YAML: a '?' in a plain (unquoted) value inside {…} or […] ends "
                       "the value there for go-yaml, which then fails (did not find expected ',' "
                       "or '}'); quote the value" +
                           std::string(kRefuses)};
  }

  // Whether a scalar's text holds one of `colons_`.
  bool HoldsPatchedColon(const yaml_event_t& event) {
    const std::size_t begin = offsets_.Of(event.start_mark.index);
    const std::size_t end = offsets_.Of(event.end_mark.index);
    return std::any_of(colons_.begin(), colons_.end(),
                       [&](std::size_t at) { return at >= begin && at < end; });
  }

 public:
  // Where libyaml refused a ':' ending a plain scalar in a flow collection, if it did.
  std::optional<std::size_t> flow_colon() const { return flow_colon_; }

 private:
  std::string_view text_;
  std::string_view json_;  // the JSON value `text_` was made from (json_document.h), if any
  std::vector<std::size_t> colons_;
  std::optional<std::size_t> flow_colon_;
  ByteOffsets offsets_;
  YamlTreeBuilder* builder_;
  yaml_parser_t parser_{};
  std::vector<Frame> stack_;
  std::map<std::string, Anchored> anchors_;
  std::optional<std::size_t> infinite_;  // the document's, once read
  int flow_depth_ = 0;                   // flow collections open around the next node
};

}  // namespace

std::optional<YamlRefusal> FindYamlRefusal(std::string_view document, YamlTreeBuilder* builder,
                                           std::string_view json) {
  return Scan(document, builder, json).Run();
}

ParsedTree ParseTree(std::string_view document, std::string_view json) {
  // go-yaml v2 reads `{red: v:}` as the value "v:"; libyaml 0.2.5 refuses a ':' that
  // ends a plain scalar in a flow collection. Each such ':' libyaml stops at is given
  // to it as an 'x' (offsets unchanged) and put back in the scalar's value.
  constexpr std::size_t kMostColons = 64;
  std::string patched;
  std::vector<std::size_t> colons;
  std::string_view text = document;
  for (;;) {
    YamlTreeBuilder builder(text);
    Scan scan(text, &builder, json, colons);
    ParsedTree parsed;
    parsed.refusal = scan.Run();
    if (!parsed.refusal) {
      parsed.tree = builder.Finish();
      return parsed;
    }
    const std::optional<std::size_t> colon = scan.flow_colon();
    if (!colon || colons.size() == kMostColons || *colon >= text.size() || text[*colon] != ':') {
      return parsed;
    }
    if (patched.empty()) patched = std::string(document);
    patched[*colon] = 'x';
    colons.push_back(*colon);
    text = patched;
  }
}

}  // namespace rollcall
