#include "rollcall/restart_controllers.h"

#include <algorithm>

#include "rollcall/yaml_text.h"

namespace rollcall {
namespace {

constexpr const char* kReloader = "Stakater Reloader";
constexpr const char* kWave = "Wave";

// The names of a reload annotation: "a, b,c" → a, b, c.
std::vector<std::string> SplitNames(std::string_view text) {
  std::vector<std::string> names;
  while (!text.empty()) {
    std::size_t comma = text.find(',');
    std::string_view name = TrimBlanks(text.substr(0, comma));
    if (!name.empty()) names.emplace_back(name);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return names;
}

// Both controllers compare the annotation's text with "true", as written.
bool IsTrue(const std::optional<std::string>& text) { return text && *text == "true"; }

std::optional<RestartWatch> ReloaderWatch(const AnnotationReader& read) {
  RestartWatch watch;
  watch.controller = kReloader;
  auto note = [&watch](const char* key) {
    if (watch.annotation.empty()) watch.annotation = key;
  };
  if (IsTrue(read("reloader.stakater.com/auto"))) {
    watch.every_secret = watch.every_config_map = true;
    note("reloader.stakater.com/auto");
  }
  if (IsTrue(read("secret.reloader.stakater.com/auto"))) {
    watch.every_secret = true;
    note("secret.reloader.stakater.com/auto");
  }
  if (IsTrue(read("configmap.reloader.stakater.com/auto"))) {
    watch.every_config_map = true;
    note("configmap.reloader.stakater.com/auto");
  }
  if (std::optional<std::string> names = read("secret.reloader.stakater.com/reload")) {
    watch.secrets = SplitNames(*names);
    if (!watch.secrets.empty()) note("secret.reloader.stakater.com/reload");
  }
  if (std::optional<std::string> names = read("configmap.reloader.stakater.com/reload")) {
    watch.config_maps = SplitNames(*names);
    if (!watch.config_maps.empty()) note("configmap.reloader.stakater.com/reload");
  }
  if (watch.annotation.empty()) return std::nullopt;
  return watch;
}

std::optional<RestartWatch> WaveWatch(const AnnotationReader& read) {
  constexpr const char* kKey = "wave.pusher.com/update-on-config-change";
  if (!IsTrue(read(kKey))) return std::nullopt;
  RestartWatch watch;
  watch.controller = kWave;
  watch.every_secret = watch.every_config_map = true;
  watch.annotation = kKey;
  return watch;
}

bool Among(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

bool RestartWatch::Watches(bool secret, std::string_view name) const {
  return secret ? every_secret || Among(secrets, name)
                : every_config_map || Among(config_maps, name);
}

std::vector<RestartWatch> ReadRestartWatches(std::string_view kind,
                                             const AnnotationReader& workload,
                                             const AnnotationReader& pod_template) {
  std::vector<RestartWatch> out;
  const bool apps = kind == "Deployment" || kind == "StatefulSet" || kind == "DaemonSet";
  if (apps || kind == "Rollout" || kind == "DeploymentConfig") {
    for (const AnnotationReader* read : {&workload, &pod_template}) {
      if (std::optional<RestartWatch> watch = ReloaderWatch(*read)) {
        out.push_back(std::move(*watch));
        break;
      }
    }
  }
  if (apps) {
    if (std::optional<RestartWatch> watch = WaveWatch(workload)) out.push_back(std::move(*watch));
  }
  return out;
}

}  // namespace rollcall
