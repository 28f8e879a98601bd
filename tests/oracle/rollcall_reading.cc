// rollcall_reading: prints rollcall's reading of YAML streams in the oracle's
// canonical form (docs/yaml.md, "The oracle"), the same lines k8sread prints for
// Kubernetes' reading: every object, every reference of a pod template, and a
// SHA-256 of every key of every Secret and ConfigMap. Never a value.
//
// It reads each stream with the pipeline lint uses (ParseStream with a FactReader,
// then an Analysis, whose model is what render and lint hash and report), so what
// it prints is what rollcall acts on.
//
// Usage: rollcall_reading FILE... (or the files one a line on stdin when none is
// given). A stream rollcall refuses prints one "error" line.
#include <algorithm>
#include <cstdint>
#include <exception>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "rollcall/analysis.h"
#include "rollcall/document.h"
#include "rollcall/facts.h"
#include "rollcall/hashing.h"
#include "rollcall/input_error.h"
#include "rollcall/limits.h"
#include "rollcall/model.h"
#include "rollcall/object_type.h"
#include "rollcall/stream.h"

namespace rollcall {
namespace {

using Json = nlohmann::json;

// Invalid UTF-8 (what yaml-cpp makes of some escapes) becomes U+FFFD, as Go's
// encoding/json writes it, rather than aborting the dump.
std::string Line(Json fields, const std::string& file) {
  fields["file"] = file;
  return fields.dump(-1, ' ', false, Json::error_handler_t::replace);
}

const char* ViaSlug(ReadVia via) {
  switch (via) {
    case ReadVia::kEnv:
      return "env";
    case ReadVia::kEnvFrom:
      return "envFrom";
    case ReadVia::kVolume:
      return "volume";
    case ReadVia::kProjected:
      return "projected";
  }
  return "?";
}

std::string ObjectId(const std::string& kind, const std::string& name_space,
                     const std::string& name) {
  return kind + " " + name_space + "/" + name;
}

std::vector<std::string> Read(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    lines.push_back(Line({{"type", "error"}, {"message", "cannot read the file"}}, path));
    return lines;
  }
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  try {
    Stream stream(std::move(bytes), path);
    AnalysisOptions options;
    // Namespaces as written: "" where the object names none.
    options.default_namespace = "";
    FactOptions facts = FactOptionsFor(options);
    // Which documents kubectl reads as Lists (object_type.h), asked while their trees
    // are there: the product's own rule, not a guess from what was read in them.
    std::set<std::uint32_t> lists;
    std::mutex lists_mutex;
    const ReadTree read_facts = FactReader(facts);
    std::vector<Document> documents = ParseStream(stream, Limits{}, nullptr, [&](Document& doc) {
      if (IsList(doc)) {
        std::lock_guard<std::mutex> lock(lists_mutex);
        lists.insert(doc.span().index);
      }
      read_facts(doc);
    });
    RefuseHalfObjects(documents);  // as render does
    Analysis analysis(std::move(documents), std::move(options));
    // By the index of the document that defines them: one stream here.
    std::map<std::uint32_t, std::vector<const Source*>> listed;
    for (const Source& source : analysis.model().sources) listed[source.span].push_back(&source);
    std::map<const Document*, std::vector<const Consumer*>> listed_consumers;
    for (const Consumer& consumer : analysis.model().consumers) {
      if (consumer.listed()) listed_consumers[consumer.document].push_back(&consumer);
    }
    for (const Document& doc : analysis.documents()) {
      if (doc.shape() != Document::Shape::kObject && doc.shape() != Document::Shape::kUnread) {
        continue;
      }
      if (lists.count(doc.span().index) > 0) {
        // A List: rollcall reads its Secrets, ConfigMaps and workloads, and those
        // are its objects.
        for (const Consumer* consumer : listed_consumers[&doc]) {
          lines.push_back(Line({{"type", "object"},
                                {"apiVersion", consumer->api_version().str()},
                                {"kind", consumer->kind().str()},
                                {"namespace", consumer->name_space.str()},
                                {"name", consumer->name().str()}},
                               path));
        }
        for (const Source* source : listed[doc.span().index]) {
          const SourceId& id = source->id;
          lines.push_back(Line({{"type", "object"},
                                {"apiVersion", "v1"},
                                {"kind", SourceKindName(id.kind)},
                                {"namespace", id.name_space.str()},
                                {"name", id.name.str()}},
                               path));
        }
        continue;
      }
      lines.push_back(Line({{"type", "object"},
                            {"apiVersion", doc.api_version()},
                            {"kind", doc.kind()},
                            {"namespace", doc.declared_namespace()},
                            {"name", doc.name()}},
                           path));
    }
    for (const Consumer& consumer : analysis.model().consumers) {
      std::string object = ObjectId(consumer.kind(), consumer.name_space, consumer.name());
      for (const Reference& ref : consumer.references) {
        Json keys = nullptr;
        if (ref.keys) {
          keys = Json::array();
          for (const Name& key : *ref.keys) keys.push_back(key.str());
        }
        lines.push_back(Line({{"type", "ref"},
                              {"object", object},
                              {"source", std::string(SourceKindName(ref.source().kind)) + "/" +
                                             ref.source().name.str()},
                              {"keys", keys},
                              {"optional", ref.optional},
                              {"via", ViaSlug(ref.via)},
                              {"container", ref.container().str()},
                              {"volume", ref.volume().str()}},
                             path));
      }
    }
    for (const Source& source : analysis.model().sources) {
      const SourceId& id = source.id;
      std::string name = ObjectId(SourceKindName(id.kind), id.name_space, id.name);
      for (const auto& [key, value] : source.entries) {
        lines.push_back(Line({{"type", "entry"},
                              {"source", name},
                              {"key", std::string(key)},
                              {"sha256", Sha256Hex(value)}},
                             path));
      }
    }
  } catch (const InputError& e) {
    lines.clear();
    lines.push_back(Line({{"type", "error"}, {"message", e.what()}}, path));
  } catch (const std::exception& e) {
    // Not a refusal rollcall means: a bug, which the comparison shows as such.
    lines.clear();
    lines.push_back(
        Line({{"type", "error"}, {"message", std::string("internal error: ") + e.what()}}, path));
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

}  // namespace
}  // namespace rollcall

int main(int argc, char** argv) {
  std::vector<std::string> paths(argv + 1, argv + argc);
  if (paths.empty()) {
    std::string line;
    while (std::getline(std::cin, line)) {
      if (!line.empty()) paths.push_back(line);
    }
  }
  std::ostringstream out;
  for (const std::string& path : paths) {
    for (const std::string& line : rollcall::Read(path)) out << line << '\n';
  }
  std::cout << out.str();
  return 0;
}
