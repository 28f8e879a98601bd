// A stream kubectl reads as JSON (json_stream.h), cut as apimachinery's
// YAMLOrJSONDecoder cuts it; each case says what the decoder does.
#include "rollcall/json_stream.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rollcall/stream.h"

namespace rollcall {
namespace {

struct Piece {
  std::string read;  // what is read of it
  bool json;
  DocumentSpan::SplitProblem problem;
  bool operator==(const Piece& other) const {
    return read == other.read && json == other.json && problem == other.problem;
  }
};

std::ostream& operator<<(std::ostream& out, const Piece& piece) {
  return out << "{" << testing::PrintToString(piece.read) << (piece.json ? " json" : " yaml")
             << " problem " << static_cast<int>(piece.problem) << "}";
}

constexpr auto kNone = DocumentSpan::SplitProblem::kNone;

std::vector<Piece> Pieces(const std::string& bytes) {
  std::vector<Piece> out;
  for (const DocumentSpan& doc : SplitDocuments(bytes)) {
    out.push_back({std::string(doc.ReadText(bytes)), doc.json, doc.problem});
  }
  return out;
}

TEST(IsJsonStream, TheFirstByteAfterGoWhiteSpaceIsAnOpeningBrace) {
  EXPECT_TRUE(IsJsonStream("{}"));
  EXPECT_TRUE(IsJsonStream(" \t\r\n\v\f{}"));
  EXPECT_TRUE(IsJsonStream("\u00a0\u2028\u3000{}"));  // unicode.IsSpace
  EXPECT_FALSE(IsJsonStream("[{}]"));
  EXPECT_FALSE(IsJsonStream("a: {}"));
  EXPECT_FALSE(IsJsonStream("\xEF\xBB\xBF{}"));  // a byte-order mark is no white space
  EXPECT_FALSE(IsJsonStream("# c\n{}"));
  EXPECT_FALSE(IsJsonStream(""));
}

TEST(IsJsonStream, OnlyTheFirst4096BytesAreLookedAt) {
  EXPECT_TRUE(IsJsonStream(std::string(kJsonSniffBytes - 1, ' ') + "{}"));
  EXPECT_FALSE(IsJsonStream(std::string(kJsonSniffBytes, ' ') + "{}"));
}

TEST(SplitJson, EveryValueIsADocumentWithOrWithoutWhiteSpaceBetween) {
  EXPECT_EQ(
      Pieces("{\"a\":1}{\"b\":2}\n {\"c\":3}\n"),
      (std::vector<Piece>{
          {"{\"a\":1}", true, kNone}, {"{\"b\":2}", true, kNone}, {"\n {\"c\":3}", true, kNone}}));
}

TEST(SplitJson, TheWhiteSpaceAfterTheLastValueIsItsSpanButNotRead) {
  const std::string bytes = " {}\t\n";
  std::vector<DocumentSpan> docs = SplitDocuments(bytes);
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0].Text(bytes), bytes);
  EXPECT_EQ(docs[0].ReadText(bytes), " {}");
}

TEST(SplitJson, AfterOneValueTheDecoderFallsBackToYaml) {
  // JSON fails at "---": one value decoded, so the rest is read as YAML, from the
  // end of the value past white space up to the first line feed.
  EXPECT_EQ(Pieces("{\"a\":1}  \n---\nb: 2\n---\nc: 3\n"),
            (std::vector<Piece>{{"{\"a\":1}", true, kNone},
                                {"---\nb: 2\n", false, kNone},
                                {"---\nc: 3\n", false, kNone}}));
}

TEST(SplitJson, WhenTheFirstValueIsNoJsonTheWholeStreamIsYaml) {
  EXPECT_EQ(Pieces("{red: v}\n---\nb: 2\n"),
            (std::vector<Piece>{{"{red: v}\n", false, kNone}, {"---\nb: 2\n", false, kNone}}));
  // A non-breaking space is no JSON white space, but Go white space: the YAML
  // reading starts past it (consumeWhitespace).
  EXPECT_EQ(Pieces("\u00a0{\"a\": 1}\n"), (std::vector<Piece>{{"{\"a\": 1}\n", false, kNone}}));
}

TEST(SplitJson, AfterTwoValuesWhatIsNotJsonIsRefused) {
  EXPECT_EQ(Pieces("{}\n{}\n---\nb: 2\n"),
            (std::vector<Piece>{{"{}", true, kNone},
                                {"\n{}", true, kNone},
                                {"\n---\nb: 2\n", true, DocumentSpan::SplitProblem::kJsonSyntax}}));
  // The parser stops at the second '-' ("invalid character '-' in numeric literal").
  EXPECT_EQ(JsonErrorAt("{}\n{}\n---\n", 5), 7u);
}

TEST(SplitJson, TheFallbackNeedsFourBytesAfterTheValue) {
  // consumeWhitespace reads four bytes at a time (StreamReader.ReadN(4)): within
  // four bytes of the end it gives up, and kubectl reports the JSON error.
  EXPECT_EQ(Pieces("{}\nab"),
            (std::vector<Piece>{{"{}", true, kNone},
                                {"\nab", true, DocumentSpan::SplitProblem::kJsonSyntax}}));
  EXPECT_EQ(Pieces("{}\nabcd"), (std::vector<Piece>{{"{}", true, kNone}, {"abcd", false, kNone}}));
  // Only white space to the end that JSON does not take (a non-breaking space):
  // the decoder reaches the end while skipping it and reports the JSON error.
  EXPECT_EQ(
      Pieces("{}\u00a0\u00a0\u00a0"),
      (std::vector<Piece>{{"{}", true, kNone},
                          {"\u00a0\u00a0\u00a0", true, DocumentSpan::SplitProblem::kJsonSyntax}}));
}

TEST(JsonValueEnd, EndsWhereEncodingJsonEndsATopLevelValue) {
  EXPECT_EQ(JsonValueEnd("{\"a\":[1,{\"b\":\"}\"}]}x", 0), 19u);
  EXPECT_EQ(JsonValueEnd("12.5e3 ", 0), 6u);
  EXPECT_EQ(JsonValueEnd("-0x", 0), 2u);
  EXPECT_EQ(JsonValueEnd("01", 0), 1u);  // "0", then a value "1"
  EXPECT_EQ(JsonValueEnd("null{}", 0), 4u);
  EXPECT_EQ(JsonValueEnd("\"a\\\"b\"", 0), 6u);
  EXPECT_EQ(JsonValueEnd("{\"a\":1", 0), JsonStreamCut::kNone);
  EXPECT_EQ(JsonValueEnd("{'a':1}", 0), JsonStreamCut::kNone);
  EXPECT_EQ(JsonValueEnd("{\"a\":\"\t\"}", 0), JsonStreamCut::kNone);  // a raw tab in a string
  EXPECT_EQ(JsonValueEnd("\xEF\xBB\xBF{}", 0), JsonStreamCut::kNone);
  // A number past float64's range is JSON to Go's decoder (the object is refused
  // later, json_document.h), though nlohmann's parser stops at it.
  EXPECT_EQ(JsonValueEnd("{\"a\":1e400,\"b\":[-1E999]} ", 0), 24u);
  EXPECT_EQ(JsonValueEnd("{\"a\":1e400,}", 0), JsonStreamCut::kNone);
}

TEST(SplitJson, StopsAtThePiecePastTheLimit) {
  std::size_t over = SIZE_MAX;
  std::vector<DocumentSpan> docs = SplitDocuments("{}\n{}\n{}", 2, &over);
  EXPECT_EQ(docs.size(), 2u);
  EXPECT_EQ(over, 5u);
}

// kubectl's file reader drops a byte-order mark and reads JSON; Helm reads the bytes
// as YAML. Where go-yaml reads the value as JSON does, the stream is read (as YAML,
// the mark skipped); elsewhere it is refused, the span holding the mark.
TEST(ByteOrderMarkBeforeJson, ReadAsYamlWhereBothReadingsAgree) {
  const std::string bom = "\xEF\xBB\xBF";
  for (const std::string value :
       {"{\"a\": \"x\\\"y\"}", "{\"a\": \"offcaf\xC3\xA9\"}", "{\"a\": \"x\xC2\xA0y\"}",
        "{\"a\": \"x\xF0\x9F\x98\x80y\"}", "{\"a\": \"x\xE2\x80\xA8y\xEF\xBB\xBF\"}",
        "{\n\t\"a\": \"\\b\\u00e9\\u0085\"\n}\n"}) {
    EXPECT_THAT(Pieces(bom + value), testing::ElementsAre(Piece{value, false, kNone}))
        << testing::PrintToString(value);
  }
}

TEST(ByteOrderMarkBeforeJson, ReadAsYamlWhenWhatFollowsTheValueReadsAlike) {
  const std::string bom = "\xEF\xBB\xBF";
  // kubectl reads the value, then YAML past it; Helm reads it all as YAML.
  EXPECT_THAT(Pieces(bom + "{\"a\": 1} # c\n  # d\n---\r\nb: 2\n"),
              testing::ElementsAre(Piece{"{\"a\": 1} # c\n  # d\n", false, kNone},
                                   Piece{"---\r\nb: 2\n", false, kNone}));
  // "\U" is no JSON escape: kubectl's decoder fails at once and reads YAML too.
  const std::string not_json = "{\"a\": \"\\U0001F600\"}\r\n";
  EXPECT_THAT(Pieces(bom + not_json), testing::ElementsAre(Piece{not_json, false, kNone}));
}

TEST(ByteOrderMarkBeforeJson, RefusedWhereTheReadingsDiffer) {
  const std::string bom = "\xEF\xBB\xBF";
  for (const std::string value : {
           "{\"a\": \"x\xC2\x85y\"}",      // go-yaml folds U+0085 as a line break
           "{\"a\": \"x\xC2\x80y\"}",      // go-yaml refuses a C1 control
           "{\"a\": \"x\x7Fy\"}",          // and DEL
           "{\"a\": \"x\xEF\xBF\xBEy\"}",  // and U+FFFE
           "{\"a\": \"x\\/y\"}",           // and the escape "\/"
           "{\"a\": \"\\ud83d\\ude00\"}",  // JSON pairs surrogates
           "{\"a\": 1e400}",               // JSON refuses it, YAML reads text
           "{}{}",                         // YAML reads one flow mapping at most
           "{}\n\t\n",                     // no YAML token starts with a tab
           "\t{}",                         // nor before the value
           "\xC2\xA0{}",                   // a non-breaking space is text to YAML
           "{}\nb: 2\n",                   // the value is no key to YAML
           "{}\n---#c\nb: 2\n",            // kubectl's YAML parses that "---" line
       }) {
    const std::vector<DocumentSpan> docs = SplitDocuments(bom + value);
    ASSERT_EQ(docs.size(), 1u) << testing::PrintToString(value);
    EXPECT_EQ(docs[0].problem, DocumentSpan::SplitProblem::kByteOrderMarkBeforeJson)
        << testing::PrintToString(value);
    EXPECT_EQ(docs[0].begin, 0u);
    EXPECT_EQ(docs[0].end, bom.size() + value.size());
  }
}

}  // namespace
}  // namespace rollcall
