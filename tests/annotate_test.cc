// Placement of annotations in every shape a pod template can be written in.
#include "rollcall/annotate.h"

#include <gtest/gtest.h>

#include "rollcall/input_error.h"

namespace rollcall {
namespace {

const AnnotationChange kSet = {{{"x/hash", "H"}, {"x/sources", "S"}}, {}};
const AnnotationChange kRemove = {{}, {"x/hash", "x/sources"}};

// Applies `change` to spec.template of the first document of `text`.
std::string Apply(const std::string& text, const AnnotationChange& change = kSet) {
  Stream stream(text, "<stdin>");
  std::vector<Document> docs = ParseStream(stream, Limits{});
  CapturedShape pod_template = CaptureForEdit(Child(Child(docs[0].root(), "spec"), "template"));
  return Splice(stream.bytes(), EditAnnotations(docs[0], pod_template, change));
}

TEST(EditAnnotations, AddsToExistingBlockMapping) {
  EXPECT_EQ(Apply("spec:\n  template:\n    metadata:\n      annotations:\n        a: b\n"),
            "spec:\n  template:\n    metadata:\n      annotations:\n        x/hash: \"H\"\n"
            "        x/sources: \"S\"\n        a: b\n");
}

TEST(EditAnnotations, CreatesAnnotationsWithTheDocumentsIndentation) {
  EXPECT_EQ(Apply("spec:\n    template:\n        metadata:\n            labels:\n"
                  "                app: x\n        spec: {}\n"),
            "spec:\n    template:\n        metadata:\n            annotations:\n"
            "                x/hash: \"H\"\n                x/sources: \"S\"\n"
            "            labels:\n                app: x\n        spec: {}\n");
}

TEST(EditAnnotations, CreatesMetadataWhenMissing) {
  EXPECT_EQ(Apply("spec:\n  template:\n    # the pod\n    spec:\n      containers: []\n"),
            "spec:\n  template:\n    # the pod\n    metadata:\n      annotations:\n"
            "        x/hash: \"H\"\n        x/sources: \"S\"\n    spec:\n      containers: []\n");
}

TEST(EditAnnotations, FlowMetadata) {
  EXPECT_EQ(Apply("spec:\n  template:\n    metadata: {labels: {a: b}}\n    spec: {}\n"),
            "spec:\n  template:\n    metadata: {\"annotations\": {\"x/hash\": \"H\", "
            "\"x/sources\": \"S\"}, labels: {a: b}}\n    spec: {}\n");
}

// A tagged flow mapping gets commas between its entries (they were once placed as a
// block mapping's lines, which made output that rollcall itself refused).
TEST(EditAnnotations, TaggedFlowMapping) {
  EXPECT_EQ(Apply("spec:\n  template:\n    metadata:\n      annotations: !!map {a: b}\n"),
            "spec:\n  template:\n    metadata:\n      annotations: !!map {\"x/hash\": \"H\", "
            "\"x/sources\": \"S\", a: b}\n");
  EXPECT_EQ(Apply("spec:\n  template:\n    metadata: !!map {labels: {a: b}}\n"),
            "spec:\n  template:\n    metadata: !!map {\"annotations\": {\"x/hash\": \"H\", "
            "\"x/sources\": \"S\"}, labels: {a: b}}\n");
}

// yaml-cpp ends a tag at a '{' written straight after it; go-yaml, as YAML says,
// wants a blank there and refuses the document.
TEST(EditAnnotations, RefusesAFlowMappingGluedToItsTag) {
  try {
    Apply("spec:\n  template:\n    metadata:\n      annotations: !!map{a: b}\n");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.Describe(),
              "<stdin> (document 1, line 4, column 7): invalid YAML: did not find expected "
              "whitespace or line break; Kubernetes' YAML reader (go-yaml) refuses the document");
  }
}

TEST(EditAnnotations, EmptyFlowAnnotations) {
  EXPECT_EQ(Apply("spec: {template: {metadata: {annotations: {}}}}\n"),
            "spec: {template: {metadata: {annotations: {\"x/hash\": \"H\", \"x/sources\": "
            "\"S\"}}}}\n");
}

TEST(EditAnnotations, NullAnnotationsAndMetadata) {
  EXPECT_EQ(Apply("spec:\n  template:\n    metadata:\n      annotations: # none yet\n"
                  "    spec: {}\n"),
            "spec:\n  template:\n    metadata:\n      annotations: {\"x/hash\": \"H\", "
            "\"x/sources\": \"S\"} # none yet\n    spec: {}\n");
  EXPECT_EQ(Apply("spec:\n  template:\n    metadata: ~\n    spec: {}\n"),
            "spec:\n  template:\n    metadata: {\"annotations\": {\"x/hash\": \"H\", "
            "\"x/sources\": \"S\"}}\n    spec: {}\n");
}

TEST(EditAnnotations, JsonDocumentStaysJson) {
  EXPECT_EQ(Apply("{\"spec\": {\"template\": {\"spec\": {}}}}"),
            "{\"spec\": {\"template\": {\"metadata\": {\"annotations\": {\"x/hash\": \"H\", "
            "\"x/sources\": \"S\"}}, \"spec\": {}}}}");
}

TEST(EditAnnotations, KeepsCrlf) {
  EXPECT_EQ(Apply("spec:\r\n  template:\r\n    metadata:\r\n      labels: {}\r\n"),
            "spec:\r\n  template:\r\n    metadata:\r\n      annotations:\r\n"
            "        x/hash: \"H\"\r\n        x/sources: \"S\"\r\n      labels: {}\r\n");
}

TEST(EditAnnotations, ReplacesStaleValuesInPlaceAndLeavesCurrentOnes) {
  EXPECT_EQ(Apply("spec:\n  template:\n    metadata:\n      annotations:\n"
                  "        x/hash: 'old' # note\n        x/sources: \"S\"\n"),
            "spec:\n  template:\n    metadata:\n      annotations:\n"
            "        x/hash: \"H\" # note\n        x/sources: \"S\"\n");
  std::string current =
      "spec:\n  template:\n    metadata:\n      annotations: {x/hash: \"H\","
      " \"x/sources\": \"S\"}\n";
  EXPECT_EQ(Apply(current), current);
}

TEST(EditAnnotations, RemovesFromBlockAndFlowMappings) {
  EXPECT_EQ(Apply("spec:\n  template:\n    metadata:\n      annotations:\n        a: b\n"
                  "        x/hash: \"H\"\n        x/sources: \"S\"\n        c: d\n",
                  kRemove),
            "spec:\n  template:\n    metadata:\n      annotations:\n        a: b\n        c: d\n");
  EXPECT_EQ(Apply("spec: {template: {metadata: {annotations: {a: b, x/hash: H, x/sources: S}}}}\n",
                  kRemove),
            "spec: {template: {metadata: {annotations: {a: b}}}}\n");
  EXPECT_EQ(Apply("spec: {template: {metadata: {annotations: {x/hash: H, a: b, x/sources: S}}}}\n",
                  kRemove),
            "spec: {template: {metadata: {annotations: {a: b}}}}\n");
  EXPECT_EQ(
      Apply("spec: {template: {metadata: {annotations: {x/hash: H, x/sources: S}}}}\n", kRemove),
      "spec: {template: {metadata: {annotations: {}}}}\n");
}

TEST(EditAnnotations, RemovalKeepsADuplicatedKeyThatWouldLetTheOtherOneCount) {
  // Removing the emptied second "metadata" would make the first one (a scalar) the
  // pod template's metadata; only rollcall's entries go. Found by the render fuzzer.
  EXPECT_EQ(Apply("spec:\n  template:\n    metadata: e\n    metadata:\n      annotations:\n"
                  "        x/hash: \"H\"\n",
                  kRemove),
            "spec:\n  template:\n    metadata: e\n    metadata:\n      annotations:\n");
  // Both entries go (reading the entries once wrote each into the previous one's
  // nodes, so that only the last was removed).
  EXPECT_EQ(Apply("spec:\n  template:\n    metadata:\n      annotations: {a: b}\n"
                  "      annotations:\n        x/hash: \"H\"\n        x/sources: \"S\"\n",
                  kRemove),
            "spec:\n  template:\n    metadata:\n      annotations: {a: b}\n      annotations:\n");
}

TEST(SetScalarValue, QuotesWhatWouldNotReadBackAsTheSameString) {
  // Found by the render fuzzer: a Job named " " was renamed to an unquoted
  // " -e7b825e6", which does not parse as that name.
  auto set = [](const std::string& text, const std::string& value) {
    Stream stream(text, "<stdin>");
    std::vector<Document> docs = ParseStream(stream, Limits{});
    CapturedShape metadata = CaptureForEdit(Child(docs[0].root(), "metadata"));
    return Splice(stream.bytes(), SetScalarValue(docs[0], metadata, "name", value));
  };
  EXPECT_EQ(set("metadata:\n  name: a\n", "migrate-3f2a9c1e"),
            "metadata:\n  name: migrate-3f2a9c1e\n");
  EXPECT_EQ(set("metadata:\n  name: \" \"\n", " -3f2a9c1e"), "metadata:\n  name: \" -3f2a9c1e\"\n");
  // An empty value keeps its anchor in front (found by the render fuzzer).
  EXPECT_EQ(set("metadata:\n  name: &n\n", "x"), "metadata:\n  name: &n x\n");
  EXPECT_EQ(set("metadata:\n  name: &n a\n", "x"), "metadata:\n  name: &n x\n");
}

TEST(EditAnnotations, RemovalUndoesWhatRenderCreated) {
  // Render created metadata and annotations; removing rollcall's keys takes them away.
  std::string original = "spec:\n  template:\n    spec: {}\n";
  std::string annotated = Apply(original);
  EXPECT_EQ(Apply(annotated, kRemove), original);
  // Other metadata stays, and so do other annotations.
  std::string labelled = "spec:\n  template:\n    metadata:\n      labels: {a: b}\n    spec: {}\n";
  EXPECT_EQ(Apply(Apply(labelled), kRemove), labelled);
  std::string kept = "spec:\n  template:\n    metadata:\n      annotations:\n        a: b\n";
  EXPECT_EQ(Apply(Apply(kept), kRemove), kept);
}

TEST(EditAnnotations, RemovingNothingChangesNothing) {
  std::string text = "spec:\n  template:\n    spec: {}\n";
  EXPECT_EQ(Apply(text, kRemove), text);
}

TEST(EditAnnotations, RefusesAnnotationsThatAreNotAMapping) {
  EXPECT_THROW(Apply("spec:\n  template:\n    metadata:\n      annotations:\n      - a\n"),
               InputError);
}

TEST(EditAnnotations, RefusesAliasedAnnotations) {
  std::string text =
      "metadata:\n  annotations: &ann\n    a: b\nspec:\n  template:\n"
      "    metadata:\n      annotations: *ann\n";
  try {
    Apply(text);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.Describe(),
              "<stdin> (document 1, line 7, column 7): object (unnamed): pod template "
              "metadata.annotations is a YAML alias; rollcall would change every place that "
              "uses it");
  }
}

// Found by fuzzing render: an alias of an anchor defined twice, the second time
// on an empty value, resolves to a null; rollcall filled it in by writing a flow
// mapping before "*meta", which no YAML reader accepts.
TEST(EditAnnotations, RefusesAliasOfANullAndAliasOnTheNextLine) {
  std::string null_alias =
      "a: &meta\nb: &meta\nspec:\n  template:\n    metadata: *meta\n    spec: {}\n";
  try {
    Apply(null_alias);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.Describe(),
              "<stdin> (document 1, line 5, column 5): object (unnamed): pod template "
              "metadata is a YAML alias; rollcall would change every place that uses it");
  }
  EXPECT_THROW(Apply("a: &ann\n  x: y\nspec:\n  template:\n    metadata:\n"
                     "      annotations: # shared\n        *ann\n"),
               InputError);
  // An anchored empty value aliased elsewhere is shared just as a mapping is.
  EXPECT_THROW(Apply("spec:\n  template:\n    metadata: &m\nother: *m\n"), InputError);
}

TEST(EditAnnotations, RefusesAnchoredAnnotationsUsedElsewhere) {
  std::string text =
      "spec:\n  template:\n    metadata:\n      annotations: &ann\n        a: b\n"
      "other: *ann\n";
  EXPECT_THROW(Apply(text), InputError);
  // An anchor nobody aliases is fine.
  EXPECT_NO_THROW(
      Apply("spec:\n  template:\n    metadata:\n      annotations: &ann\n"
            "        a: b\n"));
}

TEST(EditAnnotations, RefusesBlockScalarValue) {
  EXPECT_THROW(Apply("spec:\n  template:\n    metadata:\n      annotations:\n"
                     "        x/hash: |\n          old\n"),
               InputError);
}

}  // namespace
}  // namespace rollcall
