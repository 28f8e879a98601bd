// Reading YAML source text around the marks of the tree (yaml_tree.h): where a
// scalar ends, which line break a line uses, what properties (&anchor, !tag)
// precede a node. These are what byte edits need and the tree does not keep (it has
// start marks only). A mark may lie one past a text's end: a text without a final
// line break is parsed with one added (document.cc); every function here takes
// such a `pos`.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rollcall {

// `text` without leading spaces and tabs nor trailing spaces, tabs and a CR: a
// line's content, or a value written in a comment or an annotation.
std::string_view TrimBlanks(std::string_view text);

// Offset of the first byte at or after `pos` that is neither a space nor a tab, or
// the text's size. (std::string_view::find_first_not_of calls memchr for every
// byte it passes: deep indentation made it a good part of splitting a stream.)
std::size_t SkipBlanks(std::string_view text, std::size_t pos);

// Whether a node (a flow collection, a quoted scalar, a property) can start after
// the byte `previous` ('\0' at a line's start): after a blank or an indicator.
bool CanStartNodeAfter(char previous);

// The offset of the quote that closes the quoted scalar opening at text[i] (its
// quote, ' or "), on any number of lines ('' and \" escape a quote); the text's size
// when it never closes.
std::size_t SkipQuoted(std::string_view text, std::size_t i);

// True when the trimmed content of a line ends in a block scalar header: "|", ">-",
// "|2+".
bool EndsWithBlockScalarHeader(std::string_view content);

// One past the end of the node property starting at text[pos], '&' or '!': an
// anchor ("&a"), a tag ("!t", "!!str", "!e!t") or a verbatim tag ("!<tag:x>"), as
// yaml-cpp 0.7 scans it, and libyaml in every document it does not refuse. An anchor runs to a
// blank or a flow indicator; a tag to any byte outside its URI characters ('"', '[', '{', '|', …
// and a '%' not followed by two hex digits); a verbatim tag through its '>'. The byte that ends a
// property starts the node's content: "!t\"x\"" is a tagged quoted scalar, "&a{x: 1}" an anchored
// flow mapping.
std::size_t PropertyEnd(std::string_view text, std::size_t pos);

// Offset just past the node properties ("&anchor", "!tag") and spaces at `pos`.
std::size_t SkipProperties(std::string_view text, std::size_t pos);

// The anchor name at `pos` ("&name" → "name"), or "" when there is none.
std::string AnchorAt(std::string_view text, std::size_t pos);

// One past the end of the scalar starting at `pos` (after properties): a quoted
// scalar through its closing quote, across lines; a plain scalar to the end of its
// line (or, inside a flow collection, to the next ',', '}' or ']'), trailing
// spaces and comment excluded. Returns npos for block scalars ("|", ">") and for
// unterminated quotes, which rollcall does not edit.
std::size_t ScalarEnd(std::string_view text, std::size_t pos, bool in_flow);

// Offset of the ':' that ends the mapping key starting at `key_pos`, or npos.
std::size_t ColonAfterKey(std::string_view text, std::size_t key_pos, bool in_flow);

// Offset of the first byte of the value after the ':' at `colon`: past blanks,
// line breaks and comments, where an alias ("*a"), a property or the content
// starts; the text's size when nothing follows.
std::size_t ValueStartAfter(std::string_view text, std::size_t colon);

// Offset of the first byte at or after `pos` that is neither a blank, a line break
// nor in a comment; the text's size when there is none.
std::size_t SkipSpaceAndComments(std::string_view text, std::size_t pos);

// One past the '}' or ']' closing the flow collection that opens at text[pos], when
// nothing but blanks, line breaks and comments lie between ("{}", "[ ]"); npos
// otherwise. go-yaml v2 never takes such a collection for a key where it starts a
// document: `{}: 1` and `{} x: 1` are read as `{}` (document.cc).
std::size_t EmptyFlowCollectionEnd(std::string_view text, std::size_t pos);

// "\r\n" when the line holding `pos` ends with CRLF, else "\n".
std::string LineBreakAt(std::string_view text, std::size_t pos);

// Offset of the start of the line holding `pos`.
std::size_t LineStartOf(std::string_view text, std::size_t pos);

// Offset one past the line break of the line holding `pos` (or the text's end).
std::size_t NextLineStart(std::string_view text, std::size_t pos);

// True when only spaces precede `pos` on its line.
bool OnlySpacesBefore(std::string_view text, std::size_t pos);

// True when the bytes at `pos` are an explicit null: "~", "null", "Null", "NULL".
bool IsExplicitNullAt(std::string_view text, std::size_t pos);

}  // namespace rollcall
