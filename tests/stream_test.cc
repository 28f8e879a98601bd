#include "rollcall/stream.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "rollcall/input_error.h"

namespace rollcall {
namespace {

std::vector<std::string> Texts(const std::string& bytes) {
  std::vector<std::string> out;
  for (const DocumentSpan& doc : SplitDocuments(bytes)) out.emplace_back(doc.Text(bytes));
  return out;
}

TEST(SplitDocuments, SplitsOnMarkerLines) {
  EXPECT_EQ(Texts("a: 1\n---\nb: 2\n--- # c\nd: 3\n"),
            (std::vector<std::string>{"a: 1\n", "---\nb: 2\n", "--- # c\nd: 3\n"}));
}

TEST(SplitDocuments, LeadingMarkerMakesNoEmptyPreamble) {
  EXPECT_EQ(Texts("---\na: 1\n"), (std::vector<std::string>{"---\na: 1\n"}));
}

TEST(SplitDocuments, ALineBeginningWithThreeDashesSplitsAsKubectlSplits) {
  // apimachinery's YAMLReader: "----" and "---x" begin with "---" too. They split,
  // and kubectl refuses the stream; "----" inside a block scalar is indented.
  std::vector<DocumentSpan> docs = SplitDocuments("a: |\n  ----\n---x: 1\n----\n");
  ASSERT_EQ(docs.size(), 3u);
  EXPECT_EQ(docs[0].problem, DocumentSpan::SplitProblem::kNone);
  EXPECT_EQ(docs[1].problem, DocumentSpan::SplitProblem::kBadSeparator);
  EXPECT_EQ(docs[2].problem, DocumentSpan::SplitProblem::kBadSeparator);
  for (const char* fine : {"---\n", "--- \t\n", "--- # c\n", "---# c\n", "---\r\n"}) {
    std::vector<DocumentSpan> one = SplitDocuments(std::string("a: 1\n") + fine + "b: 2\n");
    ASSERT_EQ(one.size(), 2u) << fine;
    EXPECT_EQ(one[1].problem, DocumentSpan::SplitProblem::kNone) << fine;
  }
}

TEST(SplitDocuments, IndentedMarkerIsContent) { EXPECT_EQ(Texts("a: |\n  ---\n  b\n").size(), 1u); }

TEST(SplitDocuments, WhatFollowsAnEndMarkerStaysInItsPieceUnread) {
  // go-yaml reads only the first document of a piece: a decoy after "..." is never
  // applied, so it is no document of its own.
  EXPECT_EQ(Texts("a: 1\n...\nkind: Secret\n---\nb: 2\n"),
            (std::vector<std::string>{"a: 1\n...\nkind: Secret\n", "---\nb: 2\n"}));
  EXPECT_EQ(SplitDocuments("a: 1\n...\nb: 2\n")[0].problem, DocumentSpan::SplitProblem::kNone);
}

TEST(SplitDocuments, AnEndMarkerOrADirectiveBeforeContentIsRefused) {
  EXPECT_EQ(SplitDocuments("a: 1\n---\n# c\n...\n")[1].problem,
            DocumentSpan::SplitProblem::kEndBeforeContent);
  EXPECT_EQ(SplitDocuments("%YAML 1.1\n---\na: 1\n")[0].problem,
            DocumentSpan::SplitProblem::kDirective);
}

// YAMLReader keeps a "---" it meets with nothing read since the last (the stream's
// first line, the second of two) and go-yaml parses it: "..." then ends an empty
// document. After a dropped "---", "..." ends nothing and is refused.
TEST(SplitDocuments, AnEndMarkerAfterAKeptSeparatorEndsAnEmptyDocument) {
  std::vector<DocumentSpan> first = SplitDocuments("--- # c\n...\na: 1\n---\nb: 2\n");
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0].problem, DocumentSpan::SplitProblem::kNone);
  EXPECT_TRUE(first[0].empty);
  std::vector<DocumentSpan> doubled = SplitDocuments("a: 1\n---\n---\n...\n");
  ASSERT_EQ(doubled.size(), 3u);
  EXPECT_EQ(doubled[2].problem, DocumentSpan::SplitProblem::kNone);
  EXPECT_EQ(SplitDocuments("a: 1\n---\n...\n")[1].problem,
            DocumentSpan::SplitProblem::kEndBeforeContent);
  // A kept "---" that YAML does not read as a document start is refused.
  EXPECT_EQ(SplitDocuments("---#c\na: 1\n")[0].problem,
            DocumentSpan::SplitProblem::kSeparatorNotAMarker);
  EXPECT_EQ(SplitDocuments("a: 1\n---#c\nb: 2\n")[1].problem, DocumentSpan::SplitProblem::kNone);
  // A byte-order mark starting a line go-yaml reads as text.
  EXPECT_EQ(SplitDocuments("# c\n\xEF\xBB\xBF"
                           "a: 1\n")[0]
                .problem,
            DocumentSpan::SplitProblem::kStrayByteOrderMark);
  EXPECT_EQ(SplitDocuments("a: 1\n---\n\xEF\xBB\xBF"
                           "b: 2\n")[1]
                .problem,
            DocumentSpan::SplitProblem::kNone);
}

TEST(SplitDocuments, CommentOnlyAndEmptyDocumentsAreMarkedEmpty) {
  std::string bytes = "---\n# only a comment\n---\n---\nkind: X\n";
  std::vector<DocumentSpan> docs = SplitDocuments(bytes);
  ASSERT_EQ(docs.size(), 3u);
  EXPECT_TRUE(docs[0].empty);
  EXPECT_TRUE(docs[1].empty);
  EXPECT_FALSE(docs[2].empty);
}

// YAMLReader trims what follows "---" with strings.TrimSpace: Go's Unicode white space
// (a form feed, a vertical tab, U+0085, U+00A0, U+2000..U+200A, U+3000, …) is blank
// there, and a comment after it keeps the line a separator; anything else after it
// is refused. testdata/render/separators-kubectl-reads renders such a stream.
TEST(SplitDocuments, GoWhiteSpaceAfterTheMarkerIsBlank) {
  for (const char* fine : {"---\f\n", "---\v\n", "---\xc2\xa0\n", "---\xc2\x85\n",
                           "---\xe2\x80\x8a # c\n", "---\xe3\x80\x80\n", "--- # caf\xe9\n"}) {
    std::vector<DocumentSpan> two = SplitDocuments(std::string("a: 1\n") + fine + "b: 2\n");
    ASSERT_EQ(two.size(), 2u) << fine;
    EXPECT_EQ(two[1].problem, DocumentSpan::SplitProblem::kNone) << fine;
  }
  for (const char* bad : {"---\xc2\xa0x\n", "---\xe2\x80\x8bx\n", "---\xc2\xa1\n"}) {
    std::vector<DocumentSpan> two = SplitDocuments(std::string("a: 1\n") + bad + "b: 2\n");
    ASSERT_EQ(two.size(), 2u) << bad;
    EXPECT_EQ(two[1].problem, DocumentSpan::SplitProblem::kBadSeparator) << bad;
  }
}

TEST(SeparatorLineLength, IsTheMarkerLineWithItsLineBreak) {
  EXPECT_EQ(SeparatorLineLength("---#c\nb: 2\n"), 6u);
  EXPECT_EQ(SeparatorLineLength("---\r\nb: 2\n"), 5u);
  EXPECT_EQ(SeparatorLineLength("---"), 3u);
  EXPECT_EQ(SeparatorLineLength("b: 2\n---\n"), 0u);
  EXPECT_EQ(SeparatorLineLength(""), 0u);
}

TEST(SplitDocuments, ContentOnMarkerLineIsRefusedAsKubectlRefusesIt) {
  std::vector<DocumentSpan> docs = SplitDocuments("--- {a: 1}\n");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_FALSE(docs[0].empty);
  EXPECT_EQ(docs[0].problem, DocumentSpan::SplitProblem::kBadSeparator);
}

TEST(SplitDocuments, ReadsHelmSourceComment) {
  std::string bytes = "---\n# Source: chart/templates/a.yaml\nkind: A\n---\nkind: B\n";
  std::vector<DocumentSpan> docs = SplitDocuments(bytes);
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[0].Source(bytes), "chart/templates/a.yaml");
  EXPECT_EQ(docs[1].Source(bytes), "");
}

// The path is read from the bytes when asked (a span does not keep it): the first
// "# Source:" comment with a path before the document's content, and none after it.
TEST(SplitDocuments, HelmSourceCommentOnlyBeforeContent) {
  std::string bytes =
      "# Source: c/first.yaml\r\nkind: A\n"  // no "---": the stream's start
      "--- # c\n# other\n\n# Source: \n# Source: c/b.yaml\n# Source: c/x.yaml\n"
      "---\nkind: C\n# Source: c/late.yaml\n"  // after content
      "---\n  # Source: c/indented.yaml\n...\n# Source: c/closed.yaml\n"
      "--- x\n# Source: c/refused.yaml\n"  // a refused separator
      "---\n%YAML 1.1\n# Source: c/directive.yaml\n"
      "---\n# Source: c/empty.yaml";
  std::vector<DocumentSpan> docs = SplitDocuments(bytes);
  std::vector<std::string_view> sources;
  for (const DocumentSpan& doc : docs) sources.push_back(doc.Source(bytes));
  EXPECT_THAT(sources,
              ::testing::ElementsAre("c/first.yaml", "c/b.yaml", "", "", "", "", "c/empty.yaml"));
  static_assert(sizeof(DocumentSpan) == 16, "a span for every document, kept for the whole run");
}

TEST(SplitDocuments, SkipsBomAndHandlesCrlf) {
  std::string bytes =
      "\xEF\xBB\xBF"
      "a: 1\r\n---\r\nb: 2\r\n";
  std::vector<DocumentSpan> docs = SplitDocuments(bytes);
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[0].begin, 3u);
  EXPECT_EQ(docs[0].Text(bytes), "a: 1\r\n");
  EXPECT_EQ(docs[1].Text(bytes), "---\r\nb: 2\r\n");
}

TEST(SplitDocuments, EmptyInputIsOneEmptyDocument) {
  std::vector<DocumentSpan> docs = SplitDocuments("");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_TRUE(docs[0].empty);
}

TEST(SplitDocuments, SpansCoverEveryByte) {
  std::string bytes = "# head\n---\na: 1\n...\n# tail\n--- \nb: 2";
  std::size_t expected_begin = 0;
  for (const DocumentSpan& doc : SplitDocuments(bytes)) {
    EXPECT_EQ(doc.begin, expected_begin);
    expected_begin = doc.end;
  }
  EXPECT_EQ(expected_begin, bytes.size());
}

TEST(LineIndex, MapsOffsetsToLinesAndColumns) {
  LineIndex index("ab\ncd\r\nef");
  EXPECT_EQ(index.LineOf(0), 1u);
  EXPECT_EQ(index.ColumnOf(1), 2u);
  EXPECT_EQ(index.LineOf(3), 2u);
  EXPECT_EQ(index.LineOf(7), 3u);
  EXPECT_EQ(index.ColumnOf(8), 2u);
  EXPECT_EQ(index.LineStart(3), 7u);
}

// The index keeps a line count every 4 KiB and counts from there: every offset and
// line of a text with short lines, blank lines and lines longer than a block reads
// as a line-by-line count does, across the block boundaries too.
TEST(LineIndex, AgreesWithALineByLineCountAcrossBlocks) {
  std::string text;
  for (int i = 0; i < 600; ++i) {
    text += std::string(static_cast<std::size_t>(i * 37 % 90), 'x');
    if (i % 50 == 7) text += std::string(9000, 'y');  // longer than a block
    text += i % 3 == 0 ? "\r\n" : "\n";
    if (i % 11 == 0) text += "\n";
  }
  text += "last line, no break";
  LineIndex index(text);
  std::vector<std::size_t> starts{0};
  for (std::size_t offset = 0, line = 1; offset <= text.size(); ++offset) {
    ASSERT_EQ(index.LineOf(offset), line) << "offset " << offset;
    ASSERT_EQ(index.ColumnOf(offset), offset - starts.back() + 1) << "offset " << offset;
    if (offset < text.size() && text[offset] == '\n') {
      ++line;
      starts.push_back(offset + 1);
    }
  }
  for (std::size_t line = 1; line <= starts.size(); ++line) {
    ASSERT_EQ(index.LineStart(line), starts[line - 1]) << "line " << line;
  }
  // Past the last line: the last line's start.
  EXPECT_EQ(index.LineStart(starts.size() + 5), starts.back());
}

TEST(LineIndex, EmptyTextAndTextOfExactlyOneBlock) {
  LineIndex empty("");
  EXPECT_EQ(empty.LineOf(0), 1u);
  EXPECT_EQ(empty.ColumnOf(0), 1u);
  EXPECT_EQ(empty.LineStart(1), 0u);
  std::string block(4095, 'a');
  block += '\n';
  LineIndex one(block);
  EXPECT_EQ(one.LineOf(4095), 1u);
  EXPECT_EQ(one.LineOf(4096), 2u);
  EXPECT_EQ(one.ColumnOf(4096), 1u);
  EXPECT_EQ(one.LineStart(2), 4096u);
}

// The line is the stream's; the template Helm named is said beside it, since its
// path is no file next to the stream and its lines are not the stream's.
TEST(Stream, LocatesInTheStreamAndNamesTheTemplate) {
  Stream stream("---\n# Source: c/t.yaml\nkind: A\n", "<stdin>");
  Location where = stream.Locate(stream.documents()[0], 23);
  EXPECT_EQ(where.Describe(), "<stdin> (document 1, line 3, column 1, from c/t.yaml)");
  EXPECT_EQ(where.Compact(), "<stdin>:3:1");
  EXPECT_EQ(where.source, "c/t.yaml");
}

// A stream of millions of tiny documents kept a span each past twice its size in
// memory: past --max-documents it is refused where the document past it starts.
TEST(Stream, MoreDocumentsThanTheLimitAreRefusedAtTheFirstOneOver) {
  const std::string bytes = "a: 1\n---\n---\nb: 2\n---\nc: 3\n";
  EXPECT_EQ(Stream(bytes, "in.yaml", 4).documents().size(), 4u);
  try {
    Stream stream(bytes, "in.yaml", 3);
    ADD_FAILURE() << "not refused";
  } catch (const InputError& e) {
    EXPECT_EQ(e.Describe(),
              "in.yaml (document 4, line 5, column 1): more than 3 documents (pieces between "
              "\"---\" lines) in one stream: refused, as each costs memory for the whole run; "
              "--max-documents raises the limit");
  }
  std::size_t over = 0;
  std::vector<DocumentSpan> spans = SplitDocuments(bytes, 2, &over);
  EXPECT_EQ(spans.size(), 2u);
  EXPECT_EQ(over, bytes.find("---\nb"));
  EXPECT_EQ(SplitDocuments(bytes, 2).size(), 4u);  // no limit without `over_at`
}

}  // namespace
}  // namespace rollcall
