// Findings in a chart that lint rendered, cited where the user can act on them: the
// line of a chart file that holds what the finding is about. A rendered stream's
// own lines exist in no file the user has, so a finding located there moves to
//   1. the template file's line that the alignment of rendered document and
//      template proves to hold it: the same text, or a line whose {{ … }} actions
//      stand for what was rendered around its own literal text;
//   2. else, for a finding about a name (a reference's source), the line of a values
//      file (-f, last given first, then the chart's values.yaml) holding that name;
//   3. else the template file without a line (or the chart directory, for a document
//      Helm named no template for).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "rollcall/finding.h"
#include "rollcall/inputs.h"

namespace rollcall {

// Moves every finding located in a rendered chart's stream to a chart file.
void MapToTemplates(const Inputs& inputs, std::vector<Finding>& findings);

// Whether a template line (trimmed) proves to have produced `rendered` (trimmed): the
// same text, or each {{ … }} action standing for some text between literal parts
// that hold a letter ("secretName: {{ .Values.name }}"; not "{{ toYaml . }}").
bool TemplateLineProduces(std::string_view template_line, std::string_view rendered);

// The 1-based line of a chart template (its trimmed lines) proven to have produced
// line `line` of the rendered stream; 0 when none is.
std::size_t TemplateLine(const Stream& stream, std::size_t line,
                         const std::vector<std::string>& template_lines);

}  // namespace rollcall
