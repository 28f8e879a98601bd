// A ResourceList's items as a YAML stream of their own, so that render can read and
// edit them as it reads any stream, and the way back. Each item keeps its bytes: the
// entry's '-' becomes a space, which leaves an indented mapping (a valid document)
// with every offset in it unchanged; so rendered items go back into the ResourceList
// byte for byte, comments and quoting included, whatever their indentation.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "rollcall/krm/resource_list.h"
#include "rollcall/stream.h"

namespace rollcall {

struct ItemStream {
  std::string bytes;                    // "---\n<item 1>---\n<item 2>…"
  std::vector<std::size_t> first_line;  // 1-based line in `bytes` where item N starts
};

// Document N of the result is item N (1-based).
ItemStream ItemsAsStream(const Stream& stream, const ResourceList& list);

// The text of each item in `rendered` (a stream that ItemsAsStream's bytes became
// after render's edits), with its '-' back. Throws InputError when `rendered` does
// not line up with the items.
std::vector<std::string> ItemsFromStream(const Stream& stream, const ResourceList& list,
                                         const std::string& rendered);

// The 1-based line in the ResourceList of 1-based line `line` of item `item` (0-based)
// in the item stream.
std::size_t ResourceListLine(const Stream& stream, const ResourceList& list,
                             const ItemStream& items, std::size_t item, std::size_t line);

}  // namespace rollcall
