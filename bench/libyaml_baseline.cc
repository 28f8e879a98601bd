// libyaml beside the yaml-cpp baseline: the same documents of stdin (SplitDocuments,
// as parse_baseline splits them), each read by libyaml's event parser
// (yaml_parser_parse up to STREAM-END, every event deleted as it comes), one thread,
// building nothing. What reading every document costs without a tree: the floor
// under any parser rollcall could build its own tree from (docs/performance.md).
// libyaml is the C library go-yaml was ported from, and reads YAML 1.1 as
// Kubernetes does; rollcall already runs it over every document it parses
// (yaml_refusals.h).
#include <yaml.h>

#include "baseline_main.h"

namespace {

// yaml_parser_parse over `text` until the end of the stream; libyaml's problem, or
// nothing.
std::optional<std::string> ReadEvents(std::string_view text) {
  yaml_parser_t parser;
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(text.data()),
                               text.size());
  std::optional<std::string> error;
  for (bool end = false; !end;) {
    yaml_event_t event;
    if (yaml_parser_parse(&parser, &event) == 0) {
      error = std::string(parser.problem != nullptr ? parser.problem : "cannot be parsed") +
              " (line " + std::to_string(parser.problem_mark.line + 1) + ")";
      break;
    }
    end = event.type == YAML_STREAM_END_EVENT;
    yaml_event_delete(&event);
  }
  yaml_parser_delete(&parser);
  return error;
}

}  // namespace

int main(int argc, char** argv) {
  return rollcall::bench::ParseEveryDocument(argc, argv, "libyaml_baseline", ReadEvents);
}
