// How many threads the parse pool runs (parallel.h): the CPUs this process may
// actually use, not the machine's. `std::thread::hardware_concurrency()` counts
// every hardware thread of the host, so a repo-server container limited to one CPU
// on a 64-core node started 64 threads: each holds a document's tree while it reads
// it (docs/performance.md), and the container's CPU quota throttled them all.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace rollcall {

// The CPUs of the process's affinity mask (taskset, a kubelet CPU manager's
// pinned CPUs), at most its cgroup's CPU quota rounded up (a container's CPU
// limit: cgroup v2's cpu.max, or v1's cpu.cfs_quota_us over cpu.cfs_period_us, at
// its own level and each level above), and at least 1. Read once per process.
std::size_t UsableCpus();

// The same, read again now (for tests).
std::size_t CountUsableCpus();

// The CPUs a cgroup v2 `cpu.max` ("150000 100000": quota and period in µs) allows,
// rounded up; nullopt for "max …" (no limit) or text that is not a quota.
std::optional<std::size_t> CpusOfCpuMax(std::string_view cpu_max);

// The same for cgroup v1's cpu.cfs_quota_us and cpu.cfs_period_us ("-1": no limit).
std::optional<std::size_t> CpusOfCfsQuota(std::string_view quota, std::string_view period);

}  // namespace rollcall
