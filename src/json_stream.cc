#include "rollcall/json_stream.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "rollcall/utf8.h"

namespace rollcall {
namespace {

// A byte iterator that records the furthest byte the parser has read: nlohmann's
// parser says whether a value is JSON, not where it ends.
class ReadTracker {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  ReadTracker(const char* at, const char** furthest) : at_(at), furthest_(furthest) {}
  reference operator*() const { return *at_; }
  ReadTracker& operator++() {
    ++at_;
    *furthest_ = std::max(*furthest_, at_);
    return *this;
  }
  ReadTracker operator++(int) {
    ReadTracker before = *this;
    ++*this;
    return before;
  }
  bool operator==(const ReadTracker& other) const { return at_ == other.at_; }
  bool operator!=(const ReadTracker& other) const { return at_ != other.at_; }

 private:
  const char* at_;
  const char** furthest_;
};

// Takes every event: only whether the value parses matters here, and what kind of
// value the first event says it is.
struct ValueKind {
  using json = nlohmann::json;
  bool number = false;
  bool first = true;

  bool Seen(bool is_number) {
    if (first) number = is_number;
    first = false;
    return true;
  }
  bool null() { return Seen(false); }
  bool boolean(bool /*value*/) { return Seen(false); }
  bool number_integer(json::number_integer_t /*value*/) { return Seen(true); }
  bool number_unsigned(json::number_unsigned_t /*value*/) { return Seen(true); }
  bool number_float(json::number_float_t /*value*/, const std::string& /*text*/) {
    return Seen(true);
  }
  bool string(std::string& /*value*/) { return Seen(false); }
  bool binary(json::binary_t& /*value*/) { return Seen(false); }
  bool start_object(std::size_t /*size*/) { return Seen(false); }
  bool key(std::string& /*key*/) { return true; }
  bool end_object() { return true; }
  bool start_array(std::size_t /*size*/) { return Seen(false); }
  bool end_array() { return true; }
  bool parse_error(std::size_t /*position*/, const std::string& token,
                   const nlohmann::detail::exception& error) {
    // 406: a number past float64's range, which nlohmann refuses and Go's decoder
    // takes as JSON (Kubernetes then refuses the object: json_document.h).
    constexpr int kNumberOverflow = 406;
    if (error.id == kNumberOverflow) overflow = token;
    return false;
  }
  std::string overflow;  // the number that stopped the parse, if one did
};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// One past a JSON number that the parser took at `pos`: it reads a byte beyond a
// number to see it end, so its furthest read does not say.
std::size_t NumberEnd(std::string_view bytes, std::size_t pos) {
  auto digits = [&](std::size_t at) {
    while (at < bytes.size() && IsDigit(bytes[at])) ++at;
    return at;
  };
  std::size_t at = pos + (bytes[pos] == '-' ? 1 : 0);
  at = at < bytes.size() && bytes[at] == '0' ? at + 1 : digits(at);
  if (at + 1 < bytes.size() && bytes[at] == '.' && IsDigit(bytes[at + 1])) at = digits(at + 1);
  if (at < bytes.size() && (bytes[at] == 'e' || bytes[at] == 'E')) {
    std::size_t exponent = at + 1;
    if (exponent < bytes.size() && (bytes[exponent] == '+' || bytes[exponent] == '-')) ++exponent;
    if (exponent < bytes.size() && IsDigit(bytes[exponent])) at = digits(exponent);
  }
  return at;
}

// encoding/json's white space between values.
std::size_t SkipJsonSpace(std::string_view bytes, std::size_t pos) {
  while (pos < bytes.size() &&
         (bytes[pos] == ' ' || bytes[pos] == '\t' || bytes[pos] == '\r' || bytes[pos] == '\n')) {
    ++pos;
  }
  return pos;
}

// YAMLOrJSONDecoder.consumeWhitespace from `pos`: Go white space up to and including
// the first line feed, read four bytes at a time (StreamReader.ReadN(4), which fails
// within four bytes of the end). Where the YAML reading starts, or kNone when the
// decoder gives up and reports the JSON error.
std::size_t ConsumeWhitespace(std::string_view bytes, std::size_t pos) {
  while (true) {
    if (bytes.size() - pos < 4) return JsonStreamCut::kNone;
    char32_t c = 0;
    const std::size_t length = DecodeUtf8(bytes, pos, c);
    if (length == 0) return JsonStreamCut::kNone;  // "invalid utf8 rune"
    if (!IsGoSpace(c)) return pos;
    pos += length;
    if (c == '\n') return pos;
  }
}

}  // namespace

bool IsJsonStream(std::string_view bytes) {
  const std::string_view head = bytes.substr(0, kJsonSniffBytes);
  const std::size_t pos = SkipGoSpace(head, 0);
  return pos < head.size() && head[pos] == '{';
}

std::size_t JsonValueEnd(std::string_view bytes, std::size_t pos, std::size_t* error_at) {
  // A byte-order mark is no JSON value to Go; nlohmann's parser would skip it.
  if (bytes.substr(pos, kUtf8Bom.size()) == kUtf8Bom) {
    if (error_at != nullptr) *error_at = pos;
    return JsonStreamCut::kNone;
  }
  std::string_view text = bytes.substr(pos);
  std::string patched;  // `text` with the numbers past float64's range written as 0
  for (;;) {
    const char* begin = text.data();
    const char* furthest = begin;
    ValueKind kind;
    const bool parsed = nlohmann::json::sax_parse(ReadTracker(begin, &furthest),
                                                  ReadTracker(begin + text.size(), &furthest),
                                                  &kind, nlohmann::json::input_format_t::json,
                                                  /*strict=*/false);
    const std::size_t read = static_cast<std::size_t>(furthest - begin);
    if (parsed) return kind.number ? NumberEnd(bytes, pos) : pos + read;
    // The number ends where the parser stopped, or one byte before (its look ahead).
    const std::size_t length = kind.overflow.size();
    std::size_t at = std::string_view::npos;
    for (std::size_t end : {read, read - 1}) {
      if (length > 0 && end >= length && text.substr(end - length, length) == kind.overflow) {
        at = end - length;
        break;
      }
    }
    if (at == std::string_view::npos) {
      if (error_at != nullptr) *error_at = read == 0 ? pos : pos + read - 1;
      return JsonStreamCut::kNone;
    }
    if (patched.empty()) patched = std::string(text);
    patched.replace(at, length, "0" + std::string(length - 1, ' '));
    text = patched;
  }
}

std::size_t JsonErrorAt(std::string_view bytes, std::size_t from) {
  const std::size_t start = SkipJsonSpace(bytes, from);
  std::size_t error_at = start;
  JsonValueEnd(bytes, start, &error_at);
  return error_at;
}

JsonStreamCut CutJsonStream(std::string_view bytes, std::size_t max_values) {
  JsonStreamCut cut;
  std::size_t rewind = 0;  // the end of the last value decoded
  while (cut.values.size() < max_values) {
    const std::size_t start = SkipJsonSpace(bytes, rewind);
    if (start == bytes.size()) break;
    std::size_t error_at = start;
    const std::size_t end = JsonValueEnd(bytes, start, &error_at);
    if (end != JsonStreamCut::kNone) {
      cut.values.push_back({start, end});
      rewind = end;
      continue;
    }
    // Two values decoded make the stream JSON for good; before that the decoder
    // tries YAML from where the last value ended.
    const std::size_t yaml_from =
        cut.values.size() > 1 ? JsonStreamCut::kNone : ConsumeWhitespace(bytes, rewind);
    if (yaml_from == JsonStreamCut::kNone) {
      cut.error_at = error_at;
    } else {
      cut.yaml_from = yaml_from;
    }
    break;
  }
  return cut;
}

}  // namespace rollcall
