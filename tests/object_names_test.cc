// Names as the API server and Helm check them: the same answers as Kubernetes'
// IsDNS1123Subdomain / IsDNS1123Label and Helm's ValidateReleaseName, and every
// hostile name of the security review refused.
#include "rollcall/object_names.h"

#include <gtest/gtest.h>

#include <string>

namespace rollcall {
namespace {

const char* const kHostile[] = {
    "--server=https://attacker:443",
    "--insecure-skip-tls-verify",
    "-A",
    "--post-renderer=sh",
    "-",
    "--",
    "web;touch /tmp/x;#",
    "$(id)",
    "a b",
    "a\x1b[2Jb",
    "a\nb",
    "a/b",
    "..",
    "",
};

TEST(ObjectNames, HostileNamesAreNoNames) {
  for (const char* name : kHostile) {
    SCOPED_TRACE(QuotedName(name));
    EXPECT_FALSE(IsSourceName(name));
    EXPECT_FALSE(IsNamespaceName(name));
    EXPECT_FALSE(IsHelmReleaseName(name));
    EXPECT_FALSE(IsWorkloadName("Deployment", name));
    EXPECT_FALSE(IsWorkloadName("StatefulSet", name));
  }
}

TEST(ObjectNames, Dns1123Subdomain) {
  for (const char* name : {"a", "0", "db-credentials", "tls.example.com", "a-1.b-2", "9lives"}) {
    EXPECT_TRUE(IsDns1123Subdomain(name)) << name;
  }
  for (const char* name : {"A", "a_b", "-a", "a-", ".a", "a.", "a..b", "a.-b", "a-.b", "é"}) {
    EXPECT_FALSE(IsDns1123Subdomain(name)) << name;
  }
  // 253 characters in all; a part between dots has no length of its own.
  std::string longest = std::string(100, 'a') + "." + std::string(152, 'b');
  EXPECT_TRUE(IsDns1123Subdomain(longest));
  EXPECT_FALSE(IsDns1123Subdomain(longest + "b"));
}

TEST(ObjectNames, Dns1123Label) {
  EXPECT_TRUE(IsDns1123Label("kube-system"));
  EXPECT_TRUE(IsDns1123Label(std::string(63, 'a')));
  EXPECT_FALSE(IsDns1123Label(std::string(64, 'a')));
  EXPECT_FALSE(IsDns1123Label("a.b"));  // a subdomain, not a label
  EXPECT_FALSE(IsNamespaceName("a.b"));
  EXPECT_TRUE(IsSourceName("a.b"));
}

TEST(ObjectNames, HelmReleaseNames) {
  EXPECT_TRUE(IsHelmReleaseName("webapp"));
  EXPECT_TRUE(IsHelmReleaseName("web.app-2"));
  EXPECT_TRUE(IsHelmReleaseName(std::string(53, 'a')));
  EXPECT_FALSE(IsHelmReleaseName(std::string(54, 'a')));
  EXPECT_FALSE(IsHelmReleaseName("My_Chart"));
  EXPECT_FALSE(IsHelmReleaseName("a.-b"));
}

TEST(ObjectNames, WorkloadNamesFollowTheirKind) {
  EXPECT_TRUE(IsWorkloadName("Deployment", "api.v2"));
  EXPECT_TRUE(IsWorkloadName("DaemonSet", std::string(253, 'a')));
  EXPECT_TRUE(IsWorkloadName("Rollout", "api.v2"));
  EXPECT_FALSE(IsWorkloadName("StatefulSet", "db.v2"));
  EXPECT_TRUE(IsWorkloadName("StatefulSet", std::string(63, 'a')));
  EXPECT_FALSE(IsWorkloadName("StatefulSet", std::string(64, 'a')));
  EXPECT_TRUE(IsWorkloadName("CronJob", std::string(52, 'a')));
  EXPECT_FALSE(IsWorkloadName("CronJob", std::string(53, 'a')));
}

TEST(ObjectNames, ReleaseNameForAChartDirectory) {
  EXPECT_EQ(ReleaseNameFor("webapp"), "webapp");
  EXPECT_EQ(ReleaseNameFor("web.app"), "web.app");  // valid: kept as it is
  EXPECT_EQ(ReleaseNameFor("--post-renderer=sh"), "post-renderer-sh");
  EXPECT_EQ(ReleaseNameFor("My_Chart"), "my-chart");
  EXPECT_EQ(ReleaseNameFor("a.-b"), "a-b");
  EXPECT_EQ(ReleaseNameFor(std::string(60, 'x')), std::string(53, 'x'));
  EXPECT_EQ(ReleaseNameFor(std::string(52, 'x') + "-yz"), std::string(52, 'x'));
  EXPECT_EQ(ReleaseNameFor("---"), "release");
  EXPECT_EQ(ReleaseNameFor(""), "release");
  for (const char* name : kHostile) EXPECT_TRUE(IsHelmReleaseName(ReleaseNameFor(name))) << name;
}

TEST(ObjectNames, QuotedNameShowsNoControlByteRaw) {
  EXPECT_EQ(QuotedName("-A"), "\"-A\"");
  EXPECT_EQ(QuotedName("a\x1b[2J\r\n\"\\"), "\"a\\x1b[2J\\r\\n\\\"\\\\\"");
}

}  // namespace
}  // namespace rollcall
