// The pre-scan that decides, before any parse, which documents render skips: it
// must read the top-level apiVersion and kind exactly as yaml-cpp does, or give up.
#include "rollcall/kind_scan.h"

#include <gtest/gtest.h>

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
  // yaml-cpp reads the "kind: Secret" line as part of the annotation's value.
  EXPECT_EQ(Scan("apiVersion: v1\nkind: Widget\nmetadata:\n  annotations:\n    a: \"x\n"
                 "kind: Secret\"\n"),
            "unsure");
  EXPECT_EQ(Scan("apiVersion: v1\nkind: Widget\nspec:\n  args: [a,\nkind: Secret]\n"), "unsure");
  EXPECT_EQ(Scan("apiVersion: v1\nkind: Widget\ndescription: 'one\n  two'\n"), "unsure");
}

// Every document of the repository's test data: when the scan answers, yaml-cpp
// reads the same apiVersion and kind.
TEST(ScanTypeHeader, AgreesWithYamlCppOnAllTestData) {
  std::size_t answered = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(testing::TestdataPath(""))) {
    std::string path = entry.path().string();
    if (!entry.is_regular_file() ||
        (entry.path().extension() != ".yaml" && entry.path().extension() != ".json")) {
      continue;
    }
    Stream stream(testing::ReadFile(path), path);
    for (const DocumentSpan& span : stream.documents()) {
      std::optional<TypeHeader> type = ScanTypeHeader(span.Text(stream.bytes()));
      if (!type) continue;
      ++answered;
      try {
        Document doc = ParseDocument(stream, span, Limits{});
        EXPECT_EQ(doc.api_version() + " " + doc.kind(), type->api_version + " " + type->kind)
            << path << " document " << span.index;
      } catch (const InputError&) {
        // Malformed on purpose; the scan's answer is not used for such documents' errors.
      }
    }
  }
  EXPECT_GT(answered, 100u);
}

}  // namespace
}  // namespace rollcall
