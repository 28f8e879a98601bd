// Names: the short strings that the records of a large stream repeat (object
// names, namespaces, kinds, keys, container and volume names), each held once.
//
// A Name is a 4-byte handle into a table shared by the whole process, so that a
// record holding five of them is 20 bytes, not 160 plus an allocation for every
// name longer than 15 bytes (docs/performance.md). The table only grows: a process
// renders one stream or lints a few files (the fuzzers, which run millions,
// empty it between inputs: ForgetNames). Interning is safe from any thread.
// Never a place for a Secret's values, which are held by the source that has them
// and nowhere else (design.md, decision 7).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>

namespace rollcall {

class Name {
 public:
  Name() = default;  // ""
  // The one Name of this text. Implicit: a record's name field takes a string.
  Name(std::string_view text);                                     // NOLINT
  Name(const char* text) : Name(std::string_view(text)) {}         // NOLINT
  Name(const std::string& text) : Name(std::string_view(text)) {}  // NOLINT

  // The text is held once, in the table's blocks, not as a std::string: 32 bytes a
  // string are most of what a name costs in a stream of a million one-line
  // ConfigMaps (docs/performance.md). So a string is a copy.
  std::string str() const { return std::string(view()); }
  operator std::string() const { return str(); }  // NOLINT: reads as its text
  std::string_view view() const {
    const char* text = c_str();
    return {text, SizeOf(text)};
  }
  const char* c_str() const;  // NUL-terminated, where the table holds it
  bool empty() const { return handle_ == 0; }
  std::size_t size() const { return SizeOf(c_str()); }

  // The same text is the same Name: equality is one comparison (operator== below).
  bool Is(const Name& other) const { return handle_ == other.handle_; }
  // Ordered by text, as the strings they replace were.
  bool operator<(const Name& other) const {
    return handle_ != other.handle_ && view() < other.view();
  }

  // Handles are near one another: mixed, so that tables masking the low bits spread them.
  std::size_t Hash() const { return (std::uint64_t{handle_} * 0x9E3779B97F4A7C15ULL) >> 16; }

 private:
  // The table keeps a text's size in the 4 bytes before it.
  static std::size_t SizeOf(const char* text) {
    std::uint32_t size = 0;
    std::memcpy(&size, text - sizeof size, sizeof size);
    return size;
  }

  std::uint32_t handle_ = 0;  // 0: ""
};

// Against text, and joined with strings into messages. Templates that take only a
// Name itself, so that none of them turns text into a Name to compare or join
// two strings.
template <typename N>
using IfName = std::enable_if_t<std::is_same_v<N, Name>, bool>;

template <typename N, IfName<N> = true>
bool operator==(const N& left, const N& right) {
  return left.Is(right);
}
template <typename N, IfName<N> = true>
bool operator!=(const N& left, const N& right) {
  return !left.Is(right);
}
template <typename N, IfName<N> = true>
bool operator==(const N& name, std::string_view text) {
  return name.view() == text;
}
template <typename N, IfName<N> = true>
bool operator==(std::string_view text, const N& name) {
  return name.view() == text;
}
template <typename N, IfName<N> = true>
bool operator!=(const N& name, std::string_view text) {
  return name.view() != text;
}
template <typename N, IfName<N> = true>
bool operator!=(std::string_view text, const N& name) {
  return name.view() != text;
}

template <typename N, IfName<N> = true>
std::string operator+(std::string left, const N& right) {
  return left.append(right.view());
}
template <typename N, IfName<N> = true>
std::string operator+(const char* left, const N& right) {
  return std::string(left).append(right.view());
}
template <typename N, IfName<N> = true>
std::string operator+(const N& left, std::string_view right) {
  return left.str().append(right);
}

template <typename N, IfName<N> = true>
std::ostream& operator<<(std::ostream& out, const N& name) {
  return out << name.view();
}

// Names interned so far, for the tests of the table itself.
std::size_t InternedNames();

// Empties the table. Only for a process that runs many inputs one after another
// (the fuzzers, whose table would otherwise grow with every input), between two of
// them, when no Name interned since the last call is still held: reading one after
// is a use after free. Empty Names stay valid (they are not in the table). Call
// ForgetKeySets first: a KeySet holds Names.
void ForgetNames();

}  // namespace rollcall

template <>
struct std::hash<rollcall::Name> {
  std::size_t operator()(const rollcall::Name& name) const { return name.Hash(); }
};
