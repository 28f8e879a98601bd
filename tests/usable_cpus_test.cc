#include "rollcall/usable_cpus.h"

#include <gtest/gtest.h>
#include <sched.h>

#include <cstdint>
#include <thread>

namespace rollcall {
namespace {

TEST(UsableCpus, ACgroupV2QuotaRoundedUp) {
  EXPECT_EQ(CpusOfCpuMax("100000 100000\n"), 1u);
  EXPECT_EQ(CpusOfCpuMax("150000 100000\n"), 2u);  // 1.5 CPUs' time: two threads
  EXPECT_EQ(CpusOfCpuMax("400000 100000"), 4u);
  EXPECT_EQ(CpusOfCpuMax("50000 100000\n"), 1u);          // half a CPU: still one thread
  EXPECT_EQ(CpusOfCpuMax("max 100000\n"), std::nullopt);  // no limit
  EXPECT_EQ(CpusOfCpuMax(""), std::nullopt);              // no such file
  EXPECT_EQ(CpusOfCpuMax("0 100000"), std::nullopt);
  EXPECT_EQ(CpusOfCpuMax("100000 0"), std::nullopt);
  EXPECT_EQ(CpusOfCpuMax("-5 100000"), std::nullopt);
  EXPECT_EQ(CpusOfCpuMax("1e5 100000"), std::nullopt);
  EXPECT_EQ(CpusOfCpuMax("100000"), std::nullopt);
  // No wrap-around: a quota near 2^64 is that many periods, not one CPU.
  EXPECT_EQ(CpusOfCpuMax("18446744073709551615 2"), static_cast<std::size_t>(UINT64_MAX / 2 + 1));
  EXPECT_EQ(CpusOfCpuMax("\t200000 100000\n"), 2u);  // blanks around either number
}

TEST(UsableCpus, ACgroupV1QuotaRoundedUp) {
  EXPECT_EQ(CpusOfCfsQuota("200000\n", "100000\n"), 2u);
  EXPECT_EQ(CpusOfCfsQuota("250000\n", "100000\n"), 3u);
  EXPECT_EQ(CpusOfCfsQuota("-1\n", "100000\n"), std::nullopt);  // no limit
  EXPECT_EQ(CpusOfCfsQuota("", ""), std::nullopt);              // not there
  EXPECT_EQ(CpusOfCfsQuota("200000", "x"), std::nullopt);
}

TEST(UsableCpus, NoMoreThanTheAffinityMaskAllows) {
  cpu_set_t before;
  CPU_ZERO(&before);
  ASSERT_EQ(sched_getaffinity(0, sizeof(before), &before), 0);
  std::size_t all = CountUsableCpus();
  EXPECT_GE(all, 1u);
  EXPECT_LE(all, static_cast<std::size_t>(CPU_COUNT(&before)));
  // Pinned to one of its CPUs, as `taskset -c N` or a CPU manager pins it.
  int first = 0;
  while (!CPU_ISSET(first, &before)) ++first;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof(one), &one), 0);
  std::size_t pinned = CountUsableCpus();
  ASSERT_EQ(sched_setaffinity(0, sizeof(before), &before), 0);
  EXPECT_EQ(pinned, 1u);
  EXPECT_EQ(CountUsableCpus(), all);
}

}  // namespace
}  // namespace rollcall
