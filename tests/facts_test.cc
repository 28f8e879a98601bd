// Facts read right after the parse (facts.h) and the captured shapes the edits use
// once the trees are gone (node_shape.h).
#include "rollcall/facts.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>

#include "rollcall/annotate.h"
#include "rollcall/model.h"
#include "rollcall/node_shape.h"
#include "rollcall/template_hash.h"
#include "test_support.h"

namespace rollcall {
namespace {

const char* const kStream = R"(apiVersion: v1
kind: Secret
metadata:
  name: db
stringData:
  password: s3cret
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  annotations:
    rollcall.dev/ignore: "bare-pod: not one"
    rollcall.dev/ignore: "missing-key: the last one counts"
spec:
  template:
    metadata:
      labels: {app: api}
    spec:
      containers:
        - name: api
          envFrom:
            - secretRef: {name: db}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
spec:
  template:
    spec:
      containers:
        - name: migrate
          envFrom:
            - secretRef: {name: db}
---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: tls
spec:
  secretName: tls-cert
)";

TEST(FactReader, KeepsOnlyThePlainJobsTree) {
  Stream stream(kStream, "in.yaml");
  std::vector<Document> docs = ParseStream(stream, Limits{}, nullptr, FactReader(FactOptions{}));
  ASSERT_EQ(docs.size(), 4u);
  EXPECT_FALSE(docs[0].has_tree());
  EXPECT_FALSE(docs[1].has_tree());
  EXPECT_TRUE(docs[2].has_tree());  // renamed after its whole pod template
  EXPECT_FALSE(docs[3].has_tree());
  Model model = BuildModel(docs, {}, "default");
  ASSERT_EQ(model.consumers.size(), 2u);
  EXPECT_FALSE(model.consumers[0].pod_template().IsDefined());
  EXPECT_TRUE(model.consumers[1].pod_template().IsMap());
  // Found again where its capture says: spec.template, not the Job itself.
  EXPECT_TRUE(Child(model.consumers[1].pod_template(), "spec").IsMap());
  EXPECT_FALSE(Child(model.consumers[1].pod_template(), "kind").IsDefined());
  // A dropped tree is a bug to read, not an empty document.
  EXPECT_THROW(docs[1].root(), std::logic_error);
}

TEST(FactReader, KeepsEveryTreeWhenAPreviousReleaseIsCompared) {
  Stream stream(kStream, "in.yaml");
  FactOptions options;
  options.keep_trees = true;
  std::vector<Document> docs = ParseStream(stream, Limits{}, nullptr, FactReader(options));
  for (const Document& doc : docs) EXPECT_TRUE(doc.has_tree()) << doc.Describe();
}

TEST(FactReader, ReadsWhatTheAnalysisNeedsBeforeTheTreeGoes) {
  Stream stream(kStream, "in.yaml");
  std::vector<Document> docs = ParseStream(stream, Limits{}, nullptr, FactReader(FactOptions{}));
  EXPECT_EQ(docs[0].facts()->source->entries.at("password"), "s3cret");
  const Consumer& api = *docs[1].consumer();
  EXPECT_EQ(docs[1].facts(), nullptr);  // none but its consumer: no record of facts
  ASSERT_EQ(api.references.size(), 1u);
  EXPECT_EQ(api.references[0].source().name, "db");
  EXPECT_EQ(docs[1].Locate().line, 8u);  // where findings on the consumer point
  // Annotations are the last of duplicates, with where they are written.
  const WrittenValue* ignore = docs[1].Annotation("rollcall.dev/ignore");
  ASSERT_NE(ignore, nullptr);
  EXPECT_EQ(ignore->text, "missing-key: the last one counts");
  EXPECT_EQ(docs[1].LocateAt(ignore->pos).line, 14u);
  ASSERT_EQ(docs[1].duplicate_keys().size(), 1u);
  EXPECT_EQ(docs[1].duplicate_keys()[0].key, "rollcall.dev/ignore");
  EXPECT_EQ(docs[1].LocateAt(docs[1].duplicate_keys()[0].first_pos).line, 13u);
  EXPECT_EQ(docs[3].facts()->rotation->secret.name, "tls-cert");
}

// A consumer is held in the document's record beside what else it keeps (here its
// annotations) or alone in its place, and goes with the record when it moves.
TEST(Document, HoldsItsConsumerBesideWhatElseItKeepsOrAlone) {
  Stream stream(std::string(kStream) + R"(---
apiVersion: apps/v1
kind: Deployment
metadata: {name: plain}
spec: {template: {spec: {containers: [{name: a, envFrom: [{secretRef: {name: db}}]}]}}}
)",
                "in.yaml");
  std::vector<Document> docs = ParseStream(stream, Limits{}, nullptr, FactReader(FactOptions{}));
  ASSERT_EQ(docs.size(), 5u);
  for (std::size_t i : {std::size_t{1}, std::size_t{4}}) {
    Document moved = std::move(docs[i]);
    const Consumer* consumer = moved.consumer();
    ASSERT_NE(consumer, nullptr);
    EXPECT_EQ(moved.facts(), nullptr);
    Document again = std::move(moved);
    EXPECT_EQ(again.consumer(), consumer);
    std::unique_ptr<Consumer> taken = again.TakeConsumer();
    EXPECT_EQ(taken.get(), consumer);
    EXPECT_EQ(again.consumer(), nullptr);
    EXPECT_TRUE(again.has_facts());
    // What else the record kept stays when its consumer is taken.
    EXPECT_EQ(again.Annotation("rollcall.dev/ignore") != nullptr, i == 1);
    // Its type and name are read from its record (it is not an item of a List).
    taken->document = &again;
    EXPECT_EQ(taken->Describe(), i == 1 ? "Deployment default/api" : "Deployment default/plain");
  }
}

// Documents that define sources: the first, the second and the last keep no record.
const char* const kSources = R"(# Source: app/templates/plain.yaml
apiVersion: v1
kind: ConfigMap
metadata: {name: plain}
data: {k: v}
---
apiVersion: v1
kind: Secret
metadata:
  name: annotated
  annotations:
    postrenderer.helm.sh/postrender-filename: app/templates/annotated.yaml
---
apiVersion: v1
kind: Secret
metadata:
  name: ignored
  annotations:
    postrenderer.helm.sh/postrender-filename: app/templates/ignored.yaml
    rollcall.dev/ignore: "missing-key: read by a job that checks it"
---
# SECRET-VERSION: pending
apiVersion: v1
kind: Secret
metadata: {name: marked}
---
apiVersion: v1
kind: List
items:
  - {apiVersion: v1, kind: ConfigMap, metadata: {name: listed}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: twice, name: twice}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      containers: [{name: web, envFrom: [{configMapRef: {name: plain}}]}]
---
# Source: app/templates/last.yaml
apiVersion: v1
kind: ConfigMap
metadata: {name: last}
)";

std::vector<std::string> Described(const std::vector<Document>& docs) {
  std::vector<std::string> out;
  for (const Document& doc : docs) out.push_back(doc.Describe());
  return out;
}

// "name@document:line (template)" of each source.
template <typename Sources>
std::vector<std::string> Defined(const Sources& sources) {
  std::vector<std::string> out;
  for (const Source& source : sources) {
    Location where = source.Where();
    out.push_back(source.id.name + "@" + std::to_string(where.document) + ":" +
                  std::to_string(where.line) + " (" + where.source + ")");
  }
  return out;
}

TEST(SourceTaker, TakesEverySourceInStreamOrderAndDropsOnlyTheRecordsNothingElseReads) {
  Stream stream(kSources, "in.yaml");
  SourceDefinitions definitions;
  std::vector<Document> docs = ParseStream(stream, Limits{}, nullptr, FactReader(FactOptions{}),
                                           nullptr, SourceTaker(&definitions, FactOptions{}));
  // An annotation (Helm 4's template annotation aside), a marker's text, a List, a key
  // written twice, a consumer: kept.
  EXPECT_THAT(Described(docs),
              ::testing::ElementsAre("Secret ignored", "Secret marked", "List (unnamed)",
                                     "ConfigMap twice", "Deployment web"));
  for (const Document& doc : docs) {
    if (doc.facts() != nullptr) {
      EXPECT_EQ(doc.facts()->source, nullptr) << doc.Describe();
    }
  }
  // Each named after its template: the "# Source:" line, else Helm 4's annotation.
  const std::vector<std::string> in_stream_order = {"plain@1:2 (app/templates/plain.yaml)",
                                                    "annotated@2:7 (app/templates/annotated.yaml)",
                                                    "ignored@3:14 (app/templates/ignored.yaml)",
                                                    "marked@4:23 ()",
                                                    "listed@5:30 ()",
                                                    "twice@6:32 ()",
                                                    "last@8:45 (app/templates/last.yaml)"};
  EXPECT_EQ(Defined(definitions), in_stream_order);
  Model model = BuildModel(docs, std::move(definitions), "default");
  EXPECT_THAT(Defined(model.sources),  // ConfigMaps, then Secrets, by name
              ::testing::ElementsAre(in_stream_order[6], in_stream_order[4], in_stream_order[0],
                                     in_stream_order[5], in_stream_order[1], in_stream_order[2],
                                     in_stream_order[3]));
  EXPECT_TRUE(model.findings.empty());
  ASSERT_EQ(model.consumers.size(), 1u);
}

TEST(SourceTaker, KeepsEveryRecordWhenAPreviousReleaseIsCompared) {
  Stream stream(kSources, "in.yaml");
  FactOptions options;
  options.keep_trees = true;
  SourceDefinitions definitions;
  std::vector<Document> docs = ParseStream(stream, Limits{}, nullptr, FactReader(options), nullptr,
                                           SourceTaker(&definitions, options));
  EXPECT_EQ(docs.size(), 8u);
  EXPECT_EQ(definitions.size(), 7u);
  // Each defined once: the facts left with a kept record are not read again (a
  // source defined twice was a duplicate-source warning on every --previous render).
  Model model = BuildModel(docs, std::move(definitions), "default");
  EXPECT_EQ(model.sources.size(), 7u);
  EXPECT_TRUE(model.findings.empty());
}

// Documents read without a taker (a previous release, --state) keep their sources
// in their facts until the model takes them, named after the template the same way.
TEST(SourceTaker, TheModelOfDocumentsReadWithoutOneLocatesTheSameWay) {
  Stream stream(kSources, "in.yaml");
  std::vector<Document> docs = ParseStream(stream, Limits{});
  EXPECT_EQ(docs.size(), 8u);
  Model model = BuildModel(docs, {}, "default");
  const Source* annotated =
      model.sources.Find(SourceId{SourceKind::kSecret, "default", "annotated"});
  ASSERT_NE(annotated, nullptr);
  EXPECT_EQ(annotated->Where().source, "app/templates/annotated.yaml");
  EXPECT_EQ(annotated->Where().line, 7u);
  EXPECT_EQ(model.sources.size(), 7u);
}

TEST(ReadMissingFacts, ReadsDocumentsParsedWithoutAReader) {
  Stream stream(kStream, "in.yaml");
  std::vector<Document> docs = ParseStream(stream, Limits{});
  EXPECT_FALSE(docs[0].has_facts());
  EXPECT_EQ(docs[0].facts(), nullptr);
  ReadMissingFacts(docs, FactOptions{});
  EXPECT_TRUE(docs[0].has_facts());
  EXPECT_NE(docs[0].facts()->source, nullptr);
  EXPECT_NE(docs[1].consumer(), nullptr);
  EXPECT_TRUE(docs[0].has_tree());
}

// Small workloads: their captures, several times their text in a stream of them,
// go once the facts are read, unless something but render's editor reads them.
const char* const kSmallWorkloads = R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: small}
spec: {template: {spec: {containers: [{name: a, envFrom: [{secretRef: {name: s}}]}]}}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: hashed}
spec: {template: {metadata: {annotations: {rollcall.dev/config-hash: x}}, spec: {containers: [{name: a}]}}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: aliased}
spec: {template: {metadata: {labels: &l {a: b}, annotations: *l}, spec: {containers: [{name: a}]}}}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: large
  labels:
    a: "a long label that makes this document many times its capture's size, ..........."
    b: "a long label that makes this document many times its capture's size, ..........."
    c: "a long label that makes this document many times its capture's size, ..........."
spec: {template: {spec: {containers: [{name: a, envFrom: [{secretRef: {name: s}}]}]}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: job}
spec: {template: {spec: {containers: [{name: a}]}}}
)";

TEST(FactReader, LetsASmallConsumersCaptureGoWhereNothingButTheEditorReadsIt) {
  Stream stream(kSmallWorkloads, "in.yaml");
  FactOptions render;
  render.plans_edits = true;
  std::vector<Document> docs = ParseStream(stream, Limits{}, nullptr, FactReader(render));
  ASSERT_EQ(docs.size(), 5u);
  EXPECT_TRUE(docs[0].consumer()->template_shape.empty());
  EXPECT_FALSE(docs[1].consumer()->template_shape.empty());  // the rules read its hash
  EXPECT_NE(docs[1].consumer()->TemplateAnnotation(kConfigHashAnnotation), nullptr);
  // Its edit fails: render must say so before any output, from the capture.
  EXPECT_FALSE(docs[2].consumer()->template_shape.empty());
  EXPECT_FALSE(docs[3].consumer()->template_shape.empty());  // small beside its text
  EXPECT_FALSE(docs[4].consumer()->template_shape.empty());  // a plain Job keeps its tree
  // Lint never edits: the aliased annotations' capture goes too.
  std::vector<Document> linted = ParseStream(stream, Limits{}, nullptr, FactReader(FactOptions{}));
  EXPECT_TRUE(linted[0].consumer()->template_shape.empty());
  EXPECT_TRUE(linted[2].consumer()->template_shape.empty());
  // A previous release compared: every tree and capture stays.
  FactOptions compared = render;
  compared.keep_trees = true;
  std::vector<Document> kept = ParseStream(stream, Limits{}, nullptr, FactReader(compared));
  EXPECT_FALSE(kept[0].consumer()->template_shape.empty());
}

TEST(CaptureTemplateAgain, TakesTheCaptureTheFactsLetGoFromTheText) {
  Stream stream(kSmallWorkloads, "in.yaml");
  FactOptions render;
  render.plans_edits = true;
  std::vector<Document> docs = ParseStream(stream, Limits{}, nullptr, FactReader(render));
  Model model = BuildModel(docs, {}, "default");  // where each consumer finds its document
  const Consumer& small = model.consumers[0];
  ASSERT_EQ(small.name(), "small");
  ASSERT_TRUE(small.template_shape.empty());
  CapturedShape again = CaptureTemplateAgain(small, Limits{});
  ASSERT_TRUE(again.root().IsMap());
  EXPECT_EQ(again.root().entries().size(), 1u);
  EXPECT_NE(FindValue(again, "spec"), nullptr);
  std::vector<Edit> edits =
      EditAnnotations(docs[0], again, ConfigHashChange(TemplateHash{"sha256:ab", "secret/s"}));
  ASSERT_EQ(edits.size(), 1u);
  EXPECT_EQ(stream.bytes().substr(edits[0].begin - 1, 7), "{spec: ");
  EXPECT_EQ(edits[0].text,
            "\"metadata\": {\"annotations\": {\"rollcall.dev/config-hash\": \"sha256:ab\", "
            "\"rollcall.dev/config-sources\": \"secret/s\"}}, ");
}

TEST(CaptureShape, CapturesTheEntriesAlongThePathAndOnlyIndentationBeside) {
  testing::ParsedYaml node = testing::ParseYaml(
      "metadata:\n  labels: {a: b, c: d}\n  annotations:\n    x: \"1\"\n    y: {z: 2}\n"
      "spec:\n  replicas: 2\n  paused: true\n");
  CapturedShape shape = CaptureForEdit(node);
  ASSERT_TRUE(shape.root().IsMap());
  ASSERT_EQ(shape.root().entries().size(), 2u);
  const NodeShape* spec = FindValue(shape, "spec");
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(spec->size, 2u);
  EXPECT_TRUE(spec->entries().empty());  // off the path: its first key's column, for indentation
  EXPECT_EQ(spec->column, 2u);
  const NodeShape* annotations = FindValue(*FindValue(shape, "metadata"), "annotations");
  ASSERT_NE(annotations, nullptr);
  ASSERT_EQ(annotations->entries().size(), 2u);
  EXPECT_EQ(FindValue(*annotations, "x")->scalar, "1");
  EXPECT_EQ(FindValue(*annotations, "y")->type, NodeShape::Type::kMap);
  EXPECT_EQ(FindValue(*annotations, "absent"), nullptr);
}

// A capture's nodes point into its one array of entries: moving it (as a consumer
// is moved into the model, and a vector of them grows) keeps them readable.
TEST(CaptureShape, ReadsTheSameAfterBeingMoved) {
  testing::ParsedYaml node =
      testing::ParseYaml("metadata:\n  annotations:\n    x: \"1\"\nspec: {}\n");
  std::vector<CapturedShape> shapes;
  for (int i = 0; i < 100; ++i) shapes.push_back(CaptureForEdit(node));  // grows: moves each
  for (const CapturedShape& shape : shapes) {
    const NodeShape* metadata = FindValue(shape, "metadata");
    ASSERT_NE(metadata, nullptr);
    const NodeShape* annotations = FindValue(*metadata, "annotations");
    ASSERT_NE(annotations, nullptr);
    EXPECT_EQ(FindValue(*annotations, "x")->scalar, "1");
  }
}

// Every repeat of a key points at its first occurrence; findings come in the order
// the document is written: a nested mapping's before the keys that follow it.
TEST(Document, DuplicateKeysInDocumentOrderEachAtItsFirst) {
  Stream stream(
      "apiVersion: v1\n"                // 1
      "kind: ConfigMap\n"               // 2
      "metadata:\n"                     // 3
      "  name: c\n"                     // 4
      "  labels: {b: 1, a: 2, b: 3}\n"  // 5
      "data:\n"                         // 6
      "  k: one\n"                      // 7
      "  j: other\n"                    // 8
      "  k: two\n"                      // 9
      "  k: three\n"                    // 10
      "metadata: {name: d}\n",          // 11
      "in.yaml");
  Document doc = ParseDocument(stream, stream.documents().back(), Limits{});
  std::vector<std::string> found;
  for (const DuplicateKey& duplicate : doc.duplicate_keys()) {
    found.push_back(duplicate.key + " " + std::to_string(doc.LocateAt(duplicate.pos).line) + ":" +
                    std::to_string(doc.LocateAt(duplicate.pos).column) + " first " +
                    std::to_string(doc.LocateAt(duplicate.first_pos).line) + ":" +
                    std::to_string(doc.LocateAt(duplicate.first_pos).column));
  }
  EXPECT_THAT(found, ::testing::ElementsAre("b 5:24 first 5:12", "k 9:3 first 7:3",
                                            "k 10:3 first 7:3", "metadata 11:1 first 3:1"));
}

}  // namespace
}  // namespace rollcall
