#include "rollcall/limits.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace rollcall {
namespace {

std::string DeepBlock(int levels) {
  std::string out;
  for (int i = 0; i < levels; ++i) out += std::string(static_cast<std::size_t>(i), ' ') + "a:\n";
  return out;
}

TEST(FindExcessiveNesting, AcceptsOrdinaryManifest) {
  std::string text =
      "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n"
      "      - name: x\n        args: [\"--a\", {b: [1, 2]}]\n";
  EXPECT_FALSE(FindExcessiveNesting(text, 20).has_value());
}

TEST(FindExcessiveNesting, FlagsDeepFlowSequences) {
  std::string text = "a: " + std::string(1000, '[') + std::string(1000, ']') + "\n";
  auto at = FindExcessiveNesting(text, 512);
  ASSERT_TRUE(at.has_value());
  EXPECT_EQ(*at, 3u + 511u);  // the bracket that opens level 513 (level 1 is the mapping)
}

TEST(FindExcessiveNesting, FlagsDeepBlockMappings) {
  EXPECT_TRUE(FindExcessiveNesting(DeepBlock(600), 512).has_value());
  EXPECT_FALSE(FindExcessiveNesting(DeepBlock(100), 512).has_value());
}

TEST(FindExcessiveNesting, FlagsCompactSequences) {
  std::string text;
  for (int i = 0; i < 600; ++i) text += "- ";
  text += "x\n";
  EXPECT_TRUE(FindExcessiveNesting(text, 512).has_value());
}

TEST(FindExcessiveNesting, IgnoresBracketsInBlockScalarsQuotesAndComments) {
  std::string brackets(2000, '[');
  std::string text = "a: |\n  " + brackets + "\nb: \"" + brackets + "\"\nc: '" + brackets +
                     "'\n# " + brackets + "\nd: x" + brackets + "\n";
  EXPECT_FALSE(FindExcessiveNesting(text, 512).has_value());
}

TEST(FindExcessiveNesting, QuotedScalarAcrossLinesDoesNotHideNesting) {
  std::string text = "a: \"x\n  y\"\nb: " + std::string(600, '{') + "\n";
  EXPECT_TRUE(FindExcessiveNesting(text, 512).has_value());
}

// The message FindTextProblem gives for `text` with the default limits, or "".
std::string Problem(std::string_view text, const Limits& limits = Limits{}) {
  std::optional<TextProblem> problem = FindTextProblem(text, limits);
  return problem ? std::to_string(problem->offset) + ": " + problem->message : "";
}

TEST(FindTextProblem, RefusesADocumentOverTheSizeLimit) {
  Limits limits;
  limits.max_document_bytes = 10;
  EXPECT_EQ(Problem("a: 123456\n", limits), "");
  EXPECT_EQ(Problem("a: 1234567\n", limits),
            "0: this document is 11 bytes, over the limit of 10 bytes per document "
            "(--max-document-bytes; the Kubernetes API server takes at most 3 MiB per object)");
}

TEST(FindTextProblem, RefusesBytesThatAreNotUtf8) {
  // At the start of the line's content, the key: never at a byte of the value,
  // which may be a Secret's, and the message names no byte.
  const std::string kNotUtf8 =
      "invalid UTF-8: this line holds a byte that is not part of a UTF-8 character";
  EXPECT_EQ(Problem("a: b\xa5\n"), "0: " + kNotUtf8);
  EXPECT_EQ(Problem("a: \xc0\xaf\n"), "0: " + kNotUtf8);      // an overlong "/"
  EXPECT_EQ(Problem("a: \xed\xa0\x80\n"), "0: " + kNotUtf8);  // a UTF-16 surrogate
  EXPECT_EQ(Problem("x: 1\ndata:\n  a: \xe2\x82\n"), "13: " + kNotUtf8);
  EXPECT_EQ(Problem("a: |\n  line\n  pass\xa5word\n"), "14: " + kNotUtf8);
  EXPECT_EQ(Problem("a: caf\xc3\xa9 \xf0\x9f\x98\x80 \xc2\x85\n"), "");
}

TEST(FindTextProblem, RefusesCharactersYamlDoesNotAllow) {
  const std::string kControl =
      "invalid YAML: this line holds a control character, which YAML does not allow (only tab, "
      "line feed and carriage return)";
  EXPECT_EQ(Problem(std::string("a: \"x\0y\"\n", 10)), "0: " + kControl);
  EXPECT_EQ(Problem("a: \x1b[31m\n"), "0: " + kControl);
  EXPECT_EQ(Problem("k: v\n  - \xc2\x9b\n"), "7: " + kControl);  // C1: U+009B
  EXPECT_EQ(Problem("a: \xef\xbf\xbe\n"),
            "0: invalid YAML: this line holds a noncharacter (U+FFFE or U+FFFF), which YAML "
            "does not allow");
  EXPECT_EQ(Problem("k: v\na: b\rc: d\n"),
            "5: invalid YAML: this line holds a carriage return not followed by a line feed; "
            "rollcall reads lines that end in LF or CRLF only");
  EXPECT_EQ(Problem("a:\tb\r\nc: d\r\n"), "");
  // Found by differential fuzzing: a CR that ends the text ends the stream's last
  // line, which kubectl's reader completes with an LF.
  EXPECT_EQ(Problem("a: b\r\nc: d\r"), "");
}

TEST(FindTextProblem, RefusesTabsIndentingMappingEntries) {
  EXPECT_EQ(Problem("metadata:\n\tname: x\n"),
            "10: invalid YAML: a tab indents this line; YAML indents with spaces only");
  EXPECT_EQ(Problem("a:\n  b: c\n  \td: e\n"),
            "12: invalid YAML: a tab indents this line; YAML indents with spaces only");
  // Tabs inside a line, in a block scalar, or before a comment are fine.
  EXPECT_EQ(Problem("a:\tb\nc: |\n  \tx: y\nd: e\n\t# note\n"), "");
}

TEST(FindTextProblem, RefusesAMappingEntryWithoutColon) {
  EXPECT_EQ(Problem("a:\n  b: c\n  d\n"),
            "12: invalid YAML: this line continues the mapping above but has no ':' after its "
            "key");
  // Continuation lines of a plain scalar, sequences under a key, explicit keys and
  // document markers are not mapping entries.
  EXPECT_EQ(Problem("a: b\n  c\nd:\n- e\n? f\n: g\n...\n"), "");
}

TEST(FindTextProblem, RefusesACommaOutsideFlowCollections) {
  EXPECT_EQ(Problem(","), "0: invalid YAML: ',' outside a flow collection cannot start a value");
  EXPECT_EQ(Problem("- ,\n"),
            "2: invalid YAML: ',' outside a flow collection cannot start a value");
  // Inside a flow collection, a plain scalar or its continuation, a comma is text.
  EXPECT_EQ(Problem("a: [b, c]\nd: e,f\ng: h\n  ,i\n"), "");
}

// yaml-cpp ends an anchor at a blank, and a tag at a blank or at the first byte
// outside its characters; what follows is the node's content. An open quote or a
// bracket after a property is as much a quote or a bracket as without it (found by
// the render fuzzer: "!sha256:…\"" hid an open quote that swallowed the document).
TEST(FindTextProblem, SeesQuotesAndBracketsAfterAnAnchorOrATag) {
  const std::string open = "invalid YAML: a double-quoted scalar opened here is never closed";
  EXPECT_EQ(Problem("a: &x \"open\nb: c\n"), "6: " + open);
  EXPECT_EQ(Problem("a: !t \"open\nb: c\n"), "6: " + open);
  EXPECT_EQ(Problem("a: !t\"open\nb: c\n"), "5: " + open);
  EXPECT_EQ(Problem("a: !!str\"open\nb: c\n"), "8: " + open);
  EXPECT_EQ(Problem("a: !<tag:x[1]>\"open\nb: c\n"), "14: " + open);
  EXPECT_EQ(Problem("- !t &x 'open\n- b\n"),
            "8: invalid YAML: a single-quoted scalar opened here is never closed");
  std::string deep = "a: !t" + std::string(600, '[') + std::string(600, ']') + "\n";
  EXPECT_EQ(Problem(deep), "516: nesting deeper than 512 levels; rollcall refuses to parse it");
  EXPECT_TRUE(FindExcessiveNesting("a: &x " + std::string(600, '{') + "\n", 512).has_value());
  // Inside a tag, a single quote, '!' and '%' with two hex digits are the tag's own;
  // an anchor takes quotes into its name.
  EXPECT_EQ(Problem("a: !t'x\nd: !e!t%41\"e\"\nf: &g\"h i\nj: k\n"), "");
}

// Where a document ends to go-yaml, and how far its scanner reads on past that end
// (limits.h): what it refuses there refuses the document, what lies beyond is never
// read. The oracle's regression files hold the same cases read by Kubernetes' code.
TEST(FindTextProblem, ChecksWhatGoYamlScansPastTheDocumentsEnd) {
  const std::string escape =
      "invalid YAML: found unknown escape character (\\/) on this line, past the document's "
      "end, where go-yaml's scanner still reads; Kubernetes' YAML reader (go-yaml) refuses the "
      "document";
  // A one-line collection may still be a key: the rest of its line, then the next
  // line's first token, which starts a line and may be a key: its whole line.
  EXPECT_EQ(Problem("{a: 1} \"x\\/\"\n"), "7: " + escape);
  EXPECT_EQ(Problem("{a: 1}\n{b: \"x\\/\"}\n"), "7: " + escape);
  EXPECT_EQ(Problem("{a: 1}\n{b: 1}\n\"x\\/\"\n"), "14: " + escape);
  EXPECT_EQ(Problem("{a: 1}\n{b: 1}\n{c: \"x\\/\"}\n"), "");  // only that line's first token
  // Over several lines it is no key: the next token only, never a key after '}'.
  EXPECT_EQ(Problem("{\na: 1}{b: \"x\\/\"}\n"), "");
  EXPECT_EQ(Problem("{\na: 1} \"x\\/\"\n"), "8: " + escape);
  // A closing bracket or a "- " is never a key: the scanner stops there.
  EXPECT_EQ(Problem("{\na: 1}\n}\n{b: \"x\\/\"}\n"), "");
  // An empty collection is never a key, not even before a ':'.
  EXPECT_EQ(Problem("{}: 1\n"), "");
  EXPECT_EQ(Problem("{} x: 1\nb\n"), "");
  // A line left of the root mapping ends the document; its line is scanned.
  EXPECT_EQ(Problem("    a: 1\n  b\n  c\n"), "");
  EXPECT_EQ(Problem("    a: 1\n  \"x\\/\": 1\n"), "11: " + escape);
}

}  // namespace
}  // namespace rollcall
