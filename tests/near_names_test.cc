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

std::string Meant(const Model& model, const SourceId& wanted) {
  const Source* found = NearNames(model).Find(wanted);
  return found == nullptr ? "" : found->id.Describe();
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
