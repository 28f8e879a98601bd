#include "cli/input.h"

#include <cstdlib>
#include <iostream>

#include "rollcall/input_error.h"

namespace rollcall::cli {

std::string DefaultNamespace(const std::string& flag) {
  if (!flag.empty()) return flag;
  const char* helm = std::getenv("HELM_NAMESPACE");
  if (helm != nullptr && *helm != '\0') return helm;
  return "default";
}

}  // namespace rollcall::cli

namespace rollcall::cli {

Config LoadProjectConfig(const std::string& flag) {
  std::string path = flag.empty() ? FindConfigFile(".") : flag;
  return path.empty() ? Config{} : LoadConfig(path);
}

void PrintFindings(const std::vector<Finding>& findings, const CoverageSummary& summary) {
  for (const Finding& finding : findings) {
    std::cerr << "rollcall: " << FormatFinding(finding) << "\n";
  }
  std::cerr << "rollcall: " << summary.Line() << "\n";
}

}  // namespace rollcall::cli
