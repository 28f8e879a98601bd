#include "rollcall/location.h"

namespace rollcall {

std::string Location::Describe() const {
  std::string out = origin.empty() ? std::string(kStandardInput) : origin;
  std::string detail;
  auto add = [&detail](const std::string& part) { detail += detail.empty() ? part : ", " + part; };
  if (document > 0) add("document " + std::to_string(document));
  if (line > 0) add("line " + std::to_string(line));
  if (column > 0) add("column " + std::to_string(column));
  if (!source.empty()) add("from " + source);
  if (!detail.empty()) out += " (" + detail + ")";
  return out;
}

}  // namespace rollcall

namespace rollcall {

std::string Location::Compact() const {
  std::string out = origin.empty() ? std::string(kStandardInput) : origin;
  if (line > 0) out += ":" + std::to_string(line);
  if (line > 0 && column > 0) out += ":" + std::to_string(column);
  return out;
}

}  // namespace rollcall
