// "Did you mean": which source an unresolved reference is told about, and which not.
#include "rollcall/near_names.h"

#include <gtest/gtest.h>

namespace rollcall {
namespace {

Model ModelOf(std::initializer_list<SourceId> ids) {
  Model model;
  std::vector<Source> sources;
  for (const SourceId& id : ids) sources.emplace_back().id = id;
  model.sources.Add(std::move(sources), SourceTable::OnSameId::kReplace);
  return model;
}

SourceId Secret(const char* name_space, const char* name) {
  return {SourceKind::kSecret, Name(name_space), Name(name)};
}

// The sources named, "; " between them.
std::string Meant(const Model& model, const SourceId& wanted) {
  std::string out;
  const NearNames near(model);  // Find's answer lives as long as it does
  for (const Source* found : near.Find(wanted)) {
    out += (out.empty() ? "" : "; ") + found->id.Describe();
  }
  return out;
}

TEST(EditDistance, CountsInsertionsDeletionsAndReplacements) {
  EXPECT_EQ(EditDistance("db", "db"), 0u);
  EXPECT_EQ(EditDistance("db", "dc"), 1u);
  EXPECT_EQ(EditDistance("postgres", "postgre"), 1u);
  EXPECT_EQ(EditDistance("", "abc"), 3u);
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
}

// The oauth2-proxy chart: it creates <release>-google and mounts <secretName>-google.
TEST(NearNames, OnePartMoreOrFewerIsNear) {
  Model model = ModelOf({Secret("default", "oauth2-proxy-google")});
  EXPECT_EQ(Meant(model, Secret("default", "oauth2-proxy-creds-google")),
            "Secret default/oauth2-proxy-google");
  EXPECT_EQ(Meant(model, Secret("default", "oauth2-google")), "Secret default/oauth2-proxy-google");
  // One part left is too little to call it the same name.
  Model short_names = ModelOf({Secret("default", "proxy-google")});
  EXPECT_EQ(Meant(short_names, Secret("default", "google")), "");
}

// An existingSecret of the user's own is no typo of a Secret the chart makes.
TEST(NearNames, OnePartForAnotherIsNotNear) {
  Model model = ModelOf({Secret("default", "oauth2-proxy-google")});
  EXPECT_EQ(Meant(model, Secret("default", "oauth2-proxy-creds")), "");
}

// harbor: the values name harbor-core-existing, a Secret of the user's own named after
// the chart's harbor-core: no typo of it, so no hint.
TEST(NearNames, ANameExtendingARenderedOneIsTheUsersOwn) {
  Model model = ModelOf({Secret("default", "harbor-core"), Secret("default", "ab-cd")});
  EXPECT_EQ(Meant(model, Secret("default", "harbor-core-existing")), "");
  EXPECT_EQ(Meant(model, Secret("default", "ab-cd-x")), "") << "within two edits, still no hint";
  EXPECT_EQ(Meant(model, Secret("default", "harbor-cor")), "Secret default/harbor-core");
  // A part wholly another is a variant, not a typo, however near the whole name.
  Model variants =
      ModelOf({Secret("default", "existing-secret-core-tls"), Secret("default", "shard-a")});
  EXPECT_EQ(Meant(variants, Secret("default", "existing-secret-core-mine")), "");
  EXPECT_EQ(Meant(variants, Secret("default", "shard-b")), "");
  EXPECT_EQ(Meant(variants, Secret("default", "existing-secret-core-tsl")),
            "Secret default/existing-secret-core-tls");
}

// oauth2-proxy renders both oauth2-proxy-creds and oauth2-proxy-google, and mounts
// oauth2-proxy-creds-google: only the second is a mismatch of it, the first a prefix.
TEST(NearNames, OfEquallyNearOnesAllAreNamedTheDistinguishingPartFirst) {
  Model model =
      ModelOf({Secret("default", "oauth2-proxy-creds"), Secret("default", "oauth2-proxy-google")});
  EXPECT_EQ(Meant(model, Secret("default", "oauth2-proxy-creds-google")),
            "Secret default/oauth2-proxy-google");
  // Two typos as near: both named, the one ending in the wanted name's last part first.
  Model typos = ModelOf({Secret("shop", "svc-tl"), Secret("shop", "svx-tls")});
  EXPECT_EQ(Meant(typos, Secret("shop", "svc-tls")), "Secret shop/svx-tls; Secret shop/svc-tl");
}

TEST(NearNames, ATypoIsNearAndTheNearestWins) {
  Model model = ModelOf({Secret("shop", "postgres-auth"), Secret("shop", "postgres-auth-x"),
                         Secret("shop", "redis")});
  EXPECT_EQ(Meant(model, Secret("shop", "postgres-aut")), "Secret shop/postgres-auth");
  EXPECT_EQ(Meant(model, Secret("shop", "mysql-auth")), "");
}

TEST(NearNames, TheSameNameInAnotherNamespaceComesFirst) {
  Model model = ModelOf({Secret("prod", "db"), Secret("dev", "dc")});
  EXPECT_EQ(Meant(model, Secret("dev", "db")), "Secret prod/db");
}

TEST(NearNames, OnlyTheSameKindAndNamespace) {
  Model model = ModelOf(
      {{SourceKind::kConfigMap, Name("shop"), Name("settings")}, Secret("other", "settingz")});
  EXPECT_EQ(Meant(model, Secret("shop", "settings")), "");
}

}  // namespace
}  // namespace rollcall
