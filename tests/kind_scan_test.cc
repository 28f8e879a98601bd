// The pre-scan that decides, before any parse, which documents render skips: it
// must read the top-level apiVersion and kind exactly as the parser does, or give up.
#include "rollcall/kind_scan.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "rollcall/document.h"
#include "rollcall/input_error.h"
#include "test_support.h"

namespace rollcall {
namespace {

// "apiVersion kind", or "unsure" when the scan gives up.
std::string Scan(const std::string& text) {
  std::optional<TypeHeader> type = ScanTypeHeader(text);
  return type ? type->api_version + " " + type->kind : "unsure";
}

TEST(ScanTypeHeader, ReadsBlockStyleTopLevelKeys) {
  EXPECT_EQ(Scan("apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n"), "v1 Secret");
  EXPECT_EQ(Scan("metadata:\n  name: db\nkind: Secret\napiVersion: v1\n"), "v1 Secret");
}

TEST(ScanTypeHeader, SkipsMarkersCommentsAndSourceLines) {
  EXPECT_EQ(Scan("---\n# Source: chart/templates/crd.yaml\n# kind: Secret\n"
                 "apiVersion: apiextensions.k8s.io/v1 # the group\n"
                 "kind: CustomResourceDefinition   # trailing comment\n"),
            "apiextensions.k8s.io/v1 CustomResourceDefinition");
  EXPECT_EQ(Scan("%YAML 1.1\n---\napiVersion: v1\nkind: Service\n...\n"), "v1 Service");
  EXPECT_EQ(Scan("apiVersion: v1\r\nkind: Service\r\n"), "v1 Service");
}

TEST(ScanTypeHeader, ReadsQuotedKeysAndValues) {
  EXPECT_EQ(Scan("\"apiVersion\": \"v1\"\n'kind': 'Service'\n"), "v1 Service");
  EXPECT_EQ(Scan("apiVersion: v1\nkind: 'It''s'\n"), "v1 It's");
}

TEST(ScanTypeHeader, ReadsFlowMappingsAndJson) {
  EXPECT_EQ(Scan("{apiVersion: v1, kind: Service, metadata: {name: web}}\n"), "v1 Service");
  EXPECT_EQ(Scan("{\n  \"apiVersion\": \"rbac.authorization.k8s.io/v1\",\n"
                 "  \"metadata\": {\"name\": \"x\", \"labels\": {\"kind\": \"Secret\"}},\n"
                 "  \"subjects\": [{\"kind\": \"User\", \"name\": \"a\"}],\n"
                 "  \"kind\": \"RoleBinding\"\n}\n"),
            "rbac.authorization.k8s.io/v1 RoleBinding");
  EXPECT_EQ(Scan("---\n{\"apiVersion\":\"v1\",\"kind\":\"Service\"} # one line\n"), "v1 Service");
}

TEST(ScanTypeHeader, NestedKindDoesNotCount) {
  EXPECT_EQ(Scan("apiVersion: v1\nmetadata:\n  kind: Secret\n"), "unsure");
  EXPECT_EQ(Scan("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nsubjects:\n"
                 "- kind: ServiceAccount\n  name: a\nroleRef:\n  kind: Role\n"),
            "rbac.authorization.k8s.io/v1 RoleBinding");
  EXPECT_EQ(Scan("apiVersion: v1\nkind: ConfigMap\ndata:\n  manifest: |\n    kind: Secret\n"
                 "    apiVersion: v2\n"),
            "v1 ConfigMap");
  EXPECT_EQ(Scan("{apiVersion: v1, spec: {kind: Secret}, kind: Widget}"), "v1 Widget");
}

TEST(ScanTypeHeader, LastOfDuplicateKeysWins) {
  EXPECT_EQ(Scan("apiVersion: v1\nkind: Secret\nkind: Widget\n"), "v1 Widget");
  EXPECT_EQ(Scan("{apiVersion: v1, kind: Secret, kind: Widget}"), "v1 Widget");
}

TEST(ScanTypeHeader, GivesUpWhenNotPlainlyAnObject) {
  EXPECT_EQ(Scan("kind: Secret\n"), "unsure");                          // no apiVersion
  EXPECT_EQ(Scan("apiVersion: v1\nkind: \"\"\n"), "unsure");            // empty: not an object
  EXPECT_EQ(Scan("apiVersion: v1\nkind:\n  Secret\n"), "unsure");       // value on next line
  EXPECT_EQ(Scan("apiVersion: v1\nkind: !!str Secret\n"), "unsure");    // tag
  EXPECT_EQ(Scan("apiVersion: v1\nkind: &k Secret\n"), "unsure");       // anchor
  EXPECT_EQ(Scan("apiVersion: v1\nkind: *k\n"), "unsure");              // alias
  EXPECT_EQ(Scan("apiVersion: v1\nkind: ~\n"), "unsure");               // null
  EXPECT_EQ(Scan("apiVersion: v1\nkind: \"Secr\\x65t\"\n"), "unsure");  // escape
  EXPECT_EQ(Scan("apiVersion: v1\n<<: *base\nkind: Widget\n"), "unsure");
  EXPECT_EQ(Scan("- apiVersion: v1\n  kind: Secret\n"), "unsure");
  EXPECT_EQ(Scan("? kind\n: Secret\napiVersion: v1\n"), "unsure");
  EXPECT_EQ(Scan("--- !!map\napiVersion: v1\nkind: Secret\n"), "unsure");
  EXPECT_EQ(Scan("  apiVersion: v1\n  kind: Secret\n"), "unsure");
  EXPECT_EQ(Scan("{apiVersion: v1, kind: Secret"), "unsure");
  EXPECT_EQ(Scan("just a scalar\n"), "unsure");
}

TEST(ScanTypeHeader, GivesUpOnQuotesAndFlowThatRunOntoOtherLines) {
  // the parser reads the "kind: Secret" line as part of the annotation's value.
  EXPECT_EQ(Scan("apiVersion: v1\nkind: Widget\nmetadata:\n  annotations:\n    a: \"x\n"
                 "kind: Secret\"\n"),
            "unsure");
  EXPECT_EQ(Scan("apiVersion: v1\nkind: Widget\nspec:\n  args: [a,\nkind: Secret]\n"), "unsure");
  // A line it runs onto that is not deeper than its key; text after the close.
  EXPECT_EQ(Scan("apiVersion: v1\nkind: Widget\ndescription: 'one\ntwo'\n"), "unsure");
  EXPECT_EQ(Scan("apiVersion: v1\nkind: Widget\nspec:\n  a: 'one\n  two'\n"), "unsure");
  EXPECT_EQ(Scan("apiVersion: v1\nkind: Widget\nspec:\n  a: 'one\n   two' x\n"), "unsure");
  EXPECT_EQ(Scan("apiVersion: v1\nkind: Widget\nspec:\n  a: 'one\n\ttwo'\n"), "unsure");
  EXPECT_EQ(Scan("apiVersion: v1\nkind: Widget\nspec:\n  a: 'never closed\n"), "unsure");
}

std::string NotAnObject(const std::string& text) {
  TypeScan scan = ScanType(text);
  return scan.plainly_not_an_object ? "no object at " + std::to_string(scan.first_key) : "unsure";
}

// A values file in a stream is told from its text: read to the end, a mapping, neither
// key at the top level. Anything else is left to the parse.
TEST(ScanType, TellsAMappingWithNeitherKeyWithoutAParse) {
  EXPECT_EQ(NotAnObject("replicaCount: 2\nimage:\n  kind: x\n"), "no object at 0");
  EXPECT_EQ(NotAnObject("---\n# Source: c/values.yaml\nreplicaCount: 2\n"), "no object at 28");
  EXPECT_EQ(NotAnObject("# c\n{a: 1, b: [2]}\n"), "no object at 4");
  EXPECT_EQ(NotAnObject("apiVersion: v1\nreplicaCount: 2\n"), "unsure");  // half an object
  EXPECT_EQ(NotAnObject("  a: 1\n  b: 2\n"), "unsure");                   // an indented root
  EXPECT_EQ(NotAnObject("a: 1\n<<: *base\n"), "unsure");                  // a merge key
  EXPECT_EQ(NotAnObject("- a: 1\n"), "unsure");                           // a sequence
  EXPECT_EQ(NotAnObject("a: 'x\nkind: Secret'\n"), "unsure");             // a quote runs on
  EXPECT_EQ(NotAnObject("{}\n"), "unsure");
  EXPECT_EQ(NotAnObject("# only a comment\n"), "unsure");
}

// CRDs write long descriptions and CEL rules as quoted scalars over several lines
// (kube-prometheus-stack's CRDs do): the scan reads past them, so such a CRD is not
// parsed.
TEST(ScanTypeHeader, ReadsPastQuotesAndFlowOverDeeperLines) {
  EXPECT_EQ(Scan("apiVersion: apiextensions.k8s.io/v1\nspec:\n  a:\n    description: 'Container "
                 "name: required,\n      kind: Secret.'\n    rule: \"x\n\n      y\" # c\n"
                 "    enum: [a,\n      b]\nkind: CustomResourceDefinition\n"),
            "apiextensions.k8s.io/v1 CustomResourceDefinition");
  EXPECT_EQ(Scan("apiVersion: v1\nkind: Widget\ndescription: 'one\n  kind: Secret'\n"),
            "v1 Widget");
}

// Every document under `root`: when the scan answers, the parser reads the same
// apiVersion and kind. Returns how many documents the scan answered for.
std::size_t ExpectScanAgreesWithYamlCpp(const std::string& root) {
  std::size_t answered = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    std::string path = entry.path().string();
    if (!entry.is_regular_file() ||
        (entry.path().extension() != ".yaml" && entry.path().extension() != ".json")) {
      continue;
    }
    Stream stream(testing::ReadFile(path), path);
    for (const DocumentSpan& span : stream.documents()) {
      TypeScan scan = ScanType(span.Text(stream.bytes()));
      EXPECT_EQ(ScanTypeHeader(span.Text(stream.bytes())).has_value(), scan.type.has_value());
      if (!scan.type && !scan.plainly_not_an_object) continue;
      ++answered;
      try {
        Document doc = ParseDocument(stream, span, Limits{});
        if (scan.type) {
          EXPECT_EQ(doc.api_version() + " " + doc.kind(),
                    scan.type->api_version + " " + scan.type->kind)
              << path << " document " << span.index;
        } else {
          // Not an object, located where the parser puts the root.
          EXPECT_EQ(doc.shape(), Document::Shape::kNotObject) << path << " document " << span.index;
          EXPECT_EQ(doc.api_version() + doc.kind(), "") << path << " document " << span.index;
          EXPECT_EQ(doc.Locate().line,
                    Document::NotAnObject(stream, span, scan.first_key).Locate().line)
              << path << " document " << span.index;
        }
      } catch (const InputError&) {
        // Malformed on purpose; the scan's answer is not used for such documents' errors.
      }
    }
  }
  return answered;
}

TEST(ScanTypeHeader, AgreesWithYamlCppOnAllTestData) {
  EXPECT_GT(ExpectScanAgreesWithYamlCpp(testing::TestdataPath("")), 100u);
}

// The real-world corpus: Helm output of public charts, CRDs included.
TEST(ScanTypeHeader, AgreesWithYamlCppOnTheCorpus) {
  const char* corpus = std::getenv("ROLLCALL_CORPUS");
  if (corpus == nullptr || !std::filesystem::is_directory(corpus)) {
    GTEST_SKIP() << "no corpus at ROLLCALL_CORPUS";
  }
  EXPECT_GT(ExpectScanAgreesWithYamlCpp(corpus), 700u);
  // Render parses none of kube-prometheus-stack's CRDs (4.5 of its 4.7 MB): the scan
  // names every one.
  std::string path = std::string(corpus) + "/prometheus-community/kube-prometheus-stack.yaml";
  Stream stream(testing::ReadFile(path), path);
  std::size_t crds = 0;
  for (const DocumentSpan& span : stream.documents()) {
    std::string_view text = span.Text(stream.bytes());
    if (text.find("\nkind: CustomResourceDefinition\n") == std::string_view::npos) continue;
    ++crds;
    std::optional<TypeHeader> type = ScanTypeHeader(text);
    EXPECT_TRUE(type && type->kind == "CustomResourceDefinition")
        << path << " document " << span.index;
  }
  EXPECT_EQ(crds, 10u);
}

}  // namespace
}  // namespace rollcall
