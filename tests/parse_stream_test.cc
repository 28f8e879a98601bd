// ParseStream on all hardware threads: stream order, the first error in stream
// order, and the documents it leaves unread.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "rollcall/analysis.h"
#include "rollcall/document.h"
#include "rollcall/input_error.h"
#include "rollcall/lint.h"

namespace rollcall {
namespace {

using ::testing::HasSubstr;

std::string ConfigMaps(std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) {
    out += "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm" + std::to_string(i) +
           "\ndata:\n  k: v\n";
  }
  return out;
}

// The message of the InputError that parsing `text` throws, or "" for none.
std::string ErrorOf(const std::string& text, const NeedsTree& needs_tree = nullptr) {
  Stream stream(text, "in.yaml");
  try {
    ParseStream(stream, Limits{}, needs_tree);
  } catch (const InputError& e) {
    return e.Describe();
  }
  return "";
}

TEST(ParseStream, KeepsStreamOrder) {
  Stream stream(ConfigMaps(500), "in.yaml");
  std::vector<Document> docs = ParseStream(stream, Limits{});
  ASSERT_EQ(docs.size(), 500u);
  for (std::size_t i = 0; i < docs.size(); ++i) {
    EXPECT_EQ(docs[i].name(), "cm" + std::to_string(i));
    EXPECT_EQ(docs[i].span().index, i + 1);
  }
}

TEST(ParseStream, ReportsTheFirstErrorInStreamOrder) {
  // Document 101 has invalid YAML, 201 an unterminated quote (a text check), 301
  // a sequence at the root; the first always wins, however threads interleave.
  std::string text = ConfigMaps(100) + "---\nkind: [a,\n" + ConfigMaps(99) + "---\nkind: \"open\n" +
                     ConfigMaps(99) + "---\n- a\n" + ConfigMaps(100);
  std::string first = ErrorOf(text);
  EXPECT_THAT(first, HasSubstr("document 101"));
  EXPECT_THAT(first, HasSubstr("invalid YAML"));
  for (int run = 0; run < 20; ++run) EXPECT_EQ(ErrorOf(text), first);
  // Without the first, the text check of the second.
  std::string later = ConfigMaps(200) + "---\nkind: \"open\n" + ConfigMaps(99) + "---\n- a\n";
  EXPECT_THAT(ErrorOf(later), HasSubstr("document 201"));
  EXPECT_THAT(ErrorOf(later), HasSubstr("never closed"));
}

// A declined document is never parsed and leaves no record: a stream of a million
// small unread objects held a million records (88 bytes each) for nothing.
TEST(ParseStream, LeavesDeclinedDocumentsOut) {
  std::string crd =
      "---\n# Source: chart/templates/crd.yaml\napiVersion: apiextensions.k8s.io/v1\n"
      "kind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\n";
  auto skip_crds = [](const TypeHeader& type, std::string_view) {
    return type.kind != "CustomResourceDefinition";
  };
  Stream stream(crd + ConfigMaps(1), "in.yaml");
  std::vector<Document> docs = ParseStream(stream, Limits{}, skip_crds);
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0].shape(), Document::Shape::kObject);
  EXPECT_EQ(docs[0].name(), "cm0");
  EXPECT_EQ(docs[0].span().index, 2u);

  // Over several of the chunks the records are made in: the read ones, in order.
  std::string many;
  for (int i = 0; i < 40000; ++i) many += i % 4 == 3 ? ConfigMaps(1) : crd;
  Stream large(many, "large.yaml");
  docs = ParseStream(large, Limits{}, skip_crds);
  ASSERT_EQ(docs.size(), 10000u);
  for (std::size_t i = 0; i < docs.size(); ++i) {
    ASSERT_EQ(docs[i].span().index, 4 * i + 4) << i;
  }
  // The first error in stream order, past the first chunk, unread documents around it.
  std::string broken = many + "---\nkind: \"open\n" + crd + "---\n- a\n";
  EXPECT_THAT(ErrorOf(broken, skip_crds), HasSubstr("document 40001"));
}

TEST(ParseStream, UnreadDocumentsStillGetTheTextChecks) {
  auto read_nothing = [](const TypeHeader&, std::string_view) { return false; };
  // the parser never sees the broken indentation ("end of map not found")...
  std::string broken = "apiVersion: v1\nkind: Widget\nspec:\n  a: b\n c: d\n";
  EXPECT_THAT(ErrorOf(broken), HasSubstr("invalid YAML"));
  EXPECT_EQ(ErrorOf(broken, read_nothing), "");
  // ...but a quote that never closes, or nesting past the limit, is refused as before.
  EXPECT_THAT(ErrorOf("apiVersion: v1\nkind: Widget\nspec: {a: \"open}\n", read_nothing),
              HasSubstr("never closed"));
  EXPECT_THAT(
      ErrorOf("apiVersion: v1\nkind: Widget\nspec: " + std::string(600, '[') + "\n", read_nothing),
      HasSubstr("nesting deeper than 512"));
}

// An empty document (comments only) is read only for a marker's text: a stream of a
// million empty ones kept a record of each.
TEST(ParseStream, LeavesEmptyDocumentsNoOneReadsOut) {
  Stream stream("---\n# Source: c/templates/off.yaml\n---\n# SECRET-VERSION: pending\n---\n",
                "in.yaml");
  auto markers_only = [](const TypeHeader&, std::string_view text) {
    return text.find("SECRET-VERSION") != std::string_view::npos;
  };
  std::vector<Document> docs = ParseStream(stream, Limits{}, markers_only);
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0].shape(), Document::Shape::kEmpty);
  EXPECT_EQ(docs[0].span().index, 2u);
  EXPECT_EQ(ParseStream(stream, Limits{}).size(), 3u);
}

// Values-like documents (sixth and later of the stream's not-objects) are counted
// rather than recorded: a stream of a million of them kept a million records only for
// not-an-object to count them. Parsed not-objects (a kustomization without its
// apiVersion) keep their records wherever they are.
std::string ValuesAndKustomizations() {
  std::string text;
  auto values = [&](int n) {
    for (int i = 0; i < n; ++i) text += "---\nreplicaCount: " + std::to_string(i) + "\n";
  };
  const std::string kustomization = "---\nkind: Kustomization\nresources: [a.yaml]\n";
  values(3);                                        // documents 1-3
  text += kustomization;                            // 4
  values(2);                                        // 5, 6
  text += kustomization;                            // 7
  values(1000);                                     // 8-1007
  text += kustomization + ConfigMaps(1) + "---\n";  // 1008, 1009, 1010 (empty)
  values(1);                                        // 1011
  return text;
}

TEST(ParseStream, CountsValuesLikeDocumentsPastTheFirstFew) {
  Stream stream(ValuesAndKustomizations(), "in.yaml");
  auto read_nothing = [](const TypeHeader&, std::string_view) { return false; };
  CountedNotObjects counted;
  std::vector<Document> docs = ParseStream(stream, Limits{}, read_nothing, nullptr, &counted);
  std::vector<std::uint32_t> recorded;
  for (const Document& doc : docs) recorded.push_back(doc.span().index);
  // The first five not-objects and the parsed ones past them; the ConfigMap and the
  // empty document are declined, so unread.
  EXPECT_THAT(recorded, ::testing::ElementsAre(1, 2, 3, 4, 5, 7, 1008));
  EXPECT_EQ(counted.count(), 1u + 1000u + 1u);
  ASSERT_NE(counted.first(), nullptr);
  EXPECT_EQ(counted.first()->span().index, 6u);
  EXPECT_EQ(counted.last()->span().index, 1011u);
  EXPECT_EQ(counted.first()->Locate().line, 13u);
  EXPECT_EQ(counted.last()->Locate().line, 2029u);

  // Without `counted`, or when every document is parsed, each has its record.
  EXPECT_EQ(ParseStream(stream, Limits{}, read_nothing).size(), 1009u);
  EXPECT_EQ(ParseStream(stream, Limits{}).size(), 1011u);
}

// not-an-object says the same whether the documents past the first five of an input
// were recorded or counted: the first five one by one, then one finding from the
// sixth to the last, over two inputs.
TEST(ParseStream, NotAnObjectSaysTheSameOfCountedDocuments) {
  Stream first(ValuesAndKustomizations(), "first.yaml");
  Stream second("---\na: 1\n" + ValuesAndKustomizations(), "second.yaml");
  auto findings = [&](bool count) {
    auto read_nothing = [](const TypeHeader&, std::string_view) { return false; };
    std::vector<Document> docs;
    std::vector<CountedNotObjects> counted;
    for (const Stream* stream : {&first, &second}) {
      CountedNotObjects tally;
      for (Document& doc :
           ParseStream(*stream, Limits{}, read_nothing, nullptr, count ? &tally : nullptr)) {
        docs.push_back(std::move(doc));
      }
      EXPECT_EQ(tally.count(), !count ? 0u : stream == &first ? 1002u : 1003u);
      counted.push_back(std::move(tally));
    }
    Analysis analysis(std::move(docs), AnalysisOptions{}, std::move(counted));
    std::vector<std::string> out;
    for (const Finding& finding : RunRules(analysis)) out.push_back(FormatFinding(finding));
    return out;
  };
  std::vector<std::string> recorded = findings(false);
  EXPECT_EQ(findings(true), recorded);
  EXPECT_THAT(recorded,
              ::testing::Contains(
                  "first.yaml:13:1: info[not-an-object] and 1004 more documents of this input, "
                  "from here to line 2029, that are not Kubernetes objects; skipped"));
}

}  // namespace
}  // namespace rollcall
