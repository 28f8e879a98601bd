#include "rollcall/object_names.h"

#include <algorithm>
#include <cstddef>

#include "rollcall/printable.h"

namespace rollcall {
namespace {

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// [a-z0-9]([-a-z0-9]*[a-z0-9])? with no length bound: one part of a subdomain.
bool IsLabelPattern(std::string_view text) {
  if (text.empty() || !IsLowerAlnum(text.front()) || !IsLowerAlnum(text.back())) return false;
  return std::all_of(text.begin(), text.end(), [](char c) { return IsLowerAlnum(c) || c == '-'; });
}

// The subdomain pattern with no length bound: labels joined by single dots.
bool IsSubdomainPattern(std::string_view text) {
  for (;;) {
    std::size_t dot = text.find('.');
    if (!IsLabelPattern(text.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    text.remove_prefix(dot + 1);
  }
}

}  // namespace

bool IsDns1123Subdomain(std::string_view text) {
  return text.size() <= 253 && IsSubdomainPattern(text);
}

bool IsDns1123Label(std::string_view text) { return text.size() <= 63 && IsLabelPattern(text); }

bool IsSourceName(std::string_view name) { return IsDns1123Subdomain(name); }

bool IsNamespaceName(std::string_view name) { return IsDns1123Label(name); }

bool IsWorkloadName(std::string_view kind, std::string_view name) {
  if (kind == "StatefulSet") return IsDns1123Label(name);
  if (kind == "CronJob") return name.size() <= 52 && IsDns1123Subdomain(name);
  return IsDns1123Subdomain(name);
}

bool IsHelmReleaseName(std::string_view name) {
  return name.size() <= 53 && IsSubdomainPattern(name);
}

std::string ReleaseNameFor(std::string_view directory_name) {
  if (IsHelmReleaseName(directory_name)) return std::string(directory_name);
  std::string name;
  for (char c : directory_name) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (IsLowerAlnum(c)) {
      name += c;
    } else if (!name.empty() && name.back() != '-') {
      name += '-';
    }
    if (name.size() > 53) break;
  }
  name.resize(std::min<std::size_t>(name.size(), 53));
  while (!name.empty() && name.back() == '-') name.pop_back();
  return name.empty() ? "release" : name;
}

std::optional<std::string> NamespaceNameProblem(std::string_view name) {
  if (IsNamespaceName(name)) return std::nullopt;
  return QuotedName(name) + " is not a valid namespace name (" + kDns1123LabelRule + ")";
}

std::optional<std::string> HelmReleaseNameProblem(std::string_view name) {
  if (IsHelmReleaseName(name)) return std::nullopt;
  return QuotedName(name) + " is not a valid Helm release name (" + kHelmReleaseNameRule + ")";
}

std::string QuotedName(std::string_view name) {
  std::string escaped;
  escaped.reserve(name.size());
  for (char c : name) {
    if (c == '"' || c == '\\') escaped += '\\';
    escaped += c;
  }
  return "\"" + Printable(escaped) + "\"";
}

}  // namespace rollcall
