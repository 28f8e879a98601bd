#include "rollcall/stream.h"

#include <gtest/gtest.h>

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

TEST(SplitDocuments, MarkerNeedsSpaceOrEndAfterIt) {
  // "----" and "---x" are content, not markers.
  EXPECT_EQ(Texts("a: |\n  x\n----\n---x: 1\n").size(), 1u);
}

TEST(SplitDocuments, IndentedMarkerIsContent) { EXPECT_EQ(Texts("a: |\n  ---\n  b\n").size(), 1u); }

TEST(SplitDocuments, EndMarkerClosesDocumentAndBareDocumentFollows) {
  EXPECT_EQ(Texts("a: 1\n...\nb: 2\n"), (std::vector<std::string>{"a: 1\n...\n", "b: 2\n"}));
}

TEST(SplitDocuments, CommentOnlyAndEmptyDocumentsAreMarkedEmpty) {
  std::string bytes = "---\n# only a comment\n---\n---\nkind: X\n";
  std::vector<DocumentSpan> docs = SplitDocuments(bytes);
  ASSERT_EQ(docs.size(), 3u);
  EXPECT_TRUE(docs[0].empty);
  EXPECT_TRUE(docs[1].empty);
  EXPECT_FALSE(docs[2].empty);
}

TEST(SplitDocuments, ContentOnMarkerLineMakesDocumentNonEmpty) {
  std::vector<DocumentSpan> docs = SplitDocuments("--- {a: 1}\n");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_FALSE(docs[0].empty);
}

TEST(SplitDocuments, ReadsHelmSourceComment) {
  std::string bytes = "---\n# Source: chart/templates/a.yaml\nkind: A\n---\nkind: B\n";
  std::vector<DocumentSpan> docs = SplitDocuments(bytes);
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[0].source, "chart/templates/a.yaml");
  EXPECT_EQ(docs[1].source, "");
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

TEST(Stream, LocatesInDocumentOrigin) {
  Stream stream("---\n# Source: c/t.yaml\nkind: A\n", "<stdin>");
  Location where = stream.Locate(stream.documents()[0], 23);
  EXPECT_EQ(where.Describe(), "c/t.yaml (document 1, line 3, column 1)");
}

}  // namespace
}  // namespace rollcall
