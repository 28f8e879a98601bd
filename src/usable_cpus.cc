#include "rollcall/usable_cpus.h"

#include <sched.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace rollcall {
namespace {

// A whole positive decimal number, surrounding blanks and a line break allowed.
std::optional<std::uint64_t> Positive(std::string_view text) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n'; };
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  std::uint64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value == 0) return std::nullopt;
  return value;
}

// A quota's CPUs, rounded up: 1.5 CPUs' worth of time lets two threads run.
std::size_t CpusOf(std::uint64_t quota, std::uint64_t period) {
  // Divided, not quota + period - 1 first: a quota near 2^64 must not wrap to one CPU.
  return static_cast<std::size_t>(
      std::max<std::uint64_t>(1, quota / period + (quota % period != 0 ? 1 : 0)));
}

// A small file of /proc or /sys, whole; empty when it cannot be read.
std::string ReadSmallFile(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// `path` and each cgroup above it, as directories under `mount`, the deepest first.
// Without a cgroup namespace /proc/self/cgroup names the host's path, which a
// container's mount does not have: those levels are simply not there to read.
std::vector<std::string> Levels(const std::string& mount, std::string path) {
  std::vector<std::string> out;
  while (!path.empty() && path != "/") {
    out.push_back(mount + path);
    path.erase(path.rfind('/'));
  }
  out.push_back(mount);
  return out;
}

// The lowest CPU quota of the cgroups the process is in, if any.
std::optional<std::size_t> CgroupCpus() {
  std::optional<std::size_t> lowest;
  auto take = [&](std::optional<std::size_t> cpus) {
    if (cpus && (!lowest || *cpus < *lowest)) lowest = cpus;
  };
  std::istringstream lines(ReadSmallFile("/proc/self/cgroup"));
  std::string line;
  while (std::getline(lines, line)) {
    // "0::/path" (v2), "3:cpu,cpuacct:/path" (v1).
    std::size_t first = line.find(':');
    std::size_t second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    std::string controllers = "," + line.substr(first + 1, second - first - 1) + ",";
    std::string path = line.substr(second + 1);
    if (controllers == ",,") {
      for (const std::string& level : Levels("/sys/fs/cgroup", path)) {
        take(CpusOfCpuMax(ReadSmallFile(level + "/cpu.max")));
      }
    } else if (controllers.find(",cpu,") != std::string::npos) {
      // The controller's mount under one name or the other (often both, one a link
      // to the other): the first that is there.
      for (const std::string mount : {"/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"}) {
        if (ReadSmallFile(mount + "/cpu.cfs_period_us").empty()) continue;
        for (const std::string& level : Levels(mount, path)) {
          take(CpusOfCfsQuota(ReadSmallFile(level + "/cpu.cfs_quota_us"),
                              ReadSmallFile(level + "/cpu.cfs_period_us")));
        }
        break;
      }
    }
  }
  return lowest;
}

// The CPUs of the affinity mask; 0 when it cannot be read.
std::size_t AffinityCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 0;
  return static_cast<std::size_t>(CPU_COUNT(&set));
}

}  // namespace

std::optional<std::size_t> CpusOfCpuMax(std::string_view cpu_max) {
  std::size_t space = cpu_max.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  std::optional<std::uint64_t> quota = Positive(cpu_max.substr(0, space));
  std::optional<std::uint64_t> period = Positive(cpu_max.substr(space + 1));
  if (!quota || !period) return std::nullopt;  // "max 100000": no limit
  return CpusOf(*quota, *period);
}

std::optional<std::size_t> CpusOfCfsQuota(std::string_view quota, std::string_view period) {
  std::optional<std::uint64_t> q = Positive(quota);
  std::optional<std::uint64_t> p = Positive(period);
  if (!q || !p) return std::nullopt;  // "-1": no limit
  return CpusOf(*q, *p);
}

std::size_t CountUsableCpus() {
  std::size_t cpus = AffinityCpus();
  if (cpus == 0) cpus = std::thread::hardware_concurrency();
  if (std::optional<std::size_t> quota = CgroupCpus()) cpus = std::min(cpus, *quota);
  return std::max<std::size_t>(1, cpus);
}

std::size_t UsableCpus() {
  static const std::size_t cpus = CountUsableCpus();
  return cpus;
}

}  // namespace rollcall
