// Which template line proves to have produced a rendered line.
#include "rollcall/chart_findings.h"

#include <gtest/gtest.h>

namespace rollcall {
namespace {

TEST(TemplateLineProduces, TheSameTextOrActionsBetweenLiteralText) {
  EXPECT_TRUE(TemplateLineProduces("name: db", "name: db"));
  EXPECT_TRUE(TemplateLineProduces("secretName: {{ .Values.tls }}", "secretName: web-tls"));
  EXPECT_TRUE(TemplateLineProduces("secretName: {{ include \"x\" . }}-tls", "secretName: a-tls"));
  EXPECT_TRUE(TemplateLineProduces("name:  {{ template \"s\" . }}", "name:  creds"));
  EXPECT_TRUE(TemplateLineProduces("- --secret-name={{ .Release.Name }}-admission",
                                   "- --secret-name=r-admission"));
}

// A line that is all action, or whose literal text holds no letter, proves nothing:
// "{{ toYaml .Values.extraVolumes | nindent 8 }}" stands for any line at all.
TEST(TemplateLineProduces, NotWhatAnyLineWouldMatch) {
  EXPECT_FALSE(TemplateLineProduces("{{- toYaml .Values.extraVolumes | nindent 8 }}",
                                    "secretName: corp-ca"));
  EXPECT_FALSE(TemplateLineProduces("- {{ . }}", "- corp-ca"));
  EXPECT_FALSE(TemplateLineProduces("- name: home", "- name: HTTP_PROXY"));
  EXPECT_FALSE(TemplateLineProduces("secretName: {{ .Values.tls }}", "name: web-tls"));
  EXPECT_FALSE(TemplateLineProduces("secretName: {{ .Values.tls", "secretName: web-tls"));
  EXPECT_FALSE(TemplateLineProduces("", ""));
}

// The rendered document's lines aligned with the template's: a line that came
// through unchanged is itself; a templated one is the line its actions stand for.
TEST(TemplateLine, ProvenLinesOnly) {
  Stream stream(
      "---\n# Source: c/templates/d.yaml\nkind: Deployment\nspec:\n  volumes:\n"
      "    - name: home\n      emptyDir: {}\n    - name: extra\n      secret:\n"
      "        secretName: corp-ca\n    - name: tls\n      secret:\n"
      "        secretName: web-tls\n",
      "chart");
  std::vector<std::string> template_lines = {
      "kind: Deployment", "spec:",        "volumes:",
      "- name: home",     "emptyDir: {}", "{{- toYaml .Values.extraVolumes | nindent 4 }}",
      "- name: tls",      "secret:",      "secretName: {{ .Values.tls }}"};
  EXPECT_EQ(TemplateLine(stream, 6, template_lines), 4u);   // - name: home
  EXPECT_EQ(TemplateLine(stream, 13, template_lines), 9u);  // secretName: {{ … }}
  EXPECT_EQ(TemplateLine(stream, 10, template_lines), 0u);  // from values: no template line
  EXPECT_EQ(TemplateLine(stream, 8, template_lines), 0u);
}

// A 20,000-line document from a template with 200,000 comment lines before it: an
// exact table of them would be 4 billion cells (it was 1.6 GB and 16 s for a tenth
// of that); the alignment still proves the line, and the templated one after it.
TEST(TemplateLine, LargeTemplatesAreAlignedInBoundedWork) {
  std::string text = "---\n# Source: c/templates/d.yaml\nkind: Deployment\nenv:\n";
  std::vector<std::string> template_lines;
  for (int i = 0; i < 200000; ++i) template_lines.push_back("comment " + std::to_string(i));
  template_lines.insert(template_lines.end(), {"kind: Deployment", "env:"});
  for (int i = 0; i < 20000; ++i) {
    text += "  - {name: E" + std::to_string(i) + ", value: v}\n";
    template_lines.push_back("- {name: E" + std::to_string(i) + ", value: v}");
  }
  text += "  - secretName: web-tls\n";
  template_lines.push_back("- secretName: {{ .Values.tls }}");
  Stream stream(text, "chart");
  EXPECT_EQ(TemplateLine(stream, 5, template_lines), 200003u);      // - {name: E0 …}
  EXPECT_EQ(TemplateLine(stream, 20004, template_lines), 220002u);  // - {name: E19999 …}
  EXPECT_EQ(TemplateLine(stream, 20005, template_lines), 220003u);  // {{ .Values.tls }}
}

}  // namespace
}  // namespace rollcall
