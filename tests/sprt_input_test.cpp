// The SPRT's settings and counts as people type them (rating/sprt_input):
// `arena match --sprt` and `arena sprt --penta/--wdl/--model`.

#include "arena/rating/sprt_input.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "thrown.hpp"

namespace arena::rating {
namespace {

using arena::testing::message_of;

TEST(SprtInput, ReadsEveryKeyInAnyOrder) {
    const auto o =
        parse_sprt_options("model=logistic,beta=0.1,elo1=0.25,alpha=0.2,elo0=-1.75", "--sprt");
    EXPECT_DOUBLE_EQ(o.elo0, -1.75);
    EXPECT_DOUBLE_EQ(o.elo1, 0.25);
    EXPECT_DOUBLE_EQ(o.alpha, 0.2);
    EXPECT_DOUBLE_EQ(o.beta, 0.1);
    EXPECT_EQ(o.model, SprtModel::logistic);
    const auto d = parse_sprt_options("elo0=0,elo1=5", "--sprt");
    EXPECT_DOUBLE_EQ(d.alpha, 0.05);
    EXPECT_DOUBLE_EQ(d.beta, 0.05);
    EXPECT_EQ(d.model, SprtModel::normalized);
}

TEST(SprtInput, NamesTheBadPartOfTheOptions) {
    const std::string expected =
        " (expected elo0=E0,elo1=E1[,alpha=A,beta=B,model=normalized|logistic])";
    const auto bad = [](const std::string& text) {
        return message_of<std::invalid_argument>([&] { (void)parse_sprt_options(text, "--sprt"); });
    };
    EXPECT_EQ(bad(""), "--sprt: an empty part" + expected);
    EXPECT_EQ(bad("elo0=0,elo1=5,"), "--sprt: an empty part" + expected);
    EXPECT_EQ(bad("elo0,elo1=5"), "--sprt: 'elo0' is not KEY=VALUE" + expected);
    EXPECT_EQ(bad("elo1=5"), "--sprt: elo0 is missing" + expected);
    EXPECT_EQ(bad("elo0=0,elo0=1,elo1=5"), "--sprt: elo0 is given twice");
    EXPECT_EQ(bad("elo0=0,elo1=inf"), "--sprt: elo1='inf' is not a finite number");
    EXPECT_EQ(bad("elo0=0,elo1=5x"), "--sprt: elo1='5x' is not a finite number");
    EXPECT_EQ(bad("elo0=0,elo1=5,model=bayes"),
              "--sprt: model='bayes' is not a model (normalized or logistic)");
    EXPECT_EQ(bad("elo0=0,elo1=5,speed=2"),
              "--sprt: unknown key 'speed' (keys: elo0, elo1, alpha, beta, model)");
    EXPECT_EQ(bad("elo0=3,elo1=1"), "--sprt: elo0 (3.00) must be below elo1 (1.00)");
    EXPECT_EQ(bad("elo0=0,elo1=5,alpha=0.6,beta=0.5"), "--sprt: alpha + beta must be below 1");
}

TEST(SprtInput, ModelByName) {
    EXPECT_EQ(parse_sprt_model_option("--model", "logistic"), SprtModel::logistic);
    EXPECT_EQ(parse_sprt_model_option("--model", "normalized"), SprtModel::normalized);
    EXPECT_EQ(message_of<std::invalid_argument>(
                  [] { (void)parse_sprt_model_option("--model", "Logistic"); }),
              "--model: 'Logistic' is not a model (normalized or logistic)");
}

TEST(SprtInput, CountsAreWholeAndNotNegative) {
    EXPECT_EQ(parse_counts("--x", "0,12,3", 3, "a,b,c"), (std::vector<std::int64_t>{0, 12, 3}));
    const auto bad = [](const std::string& text) {
        return message_of<std::invalid_argument>(
            [&] { (void)parse_counts("--wdl", text, 3, "W,D,L"); });
    };
    EXPECT_EQ(bad("1,2"), "--wdl: expected 3 comma-separated counts (W,D,L), got 2");
    EXPECT_EQ(bad("1,2,3,"), "--wdl: expected 3 comma-separated counts (W,D,L), got 4");
    EXPECT_EQ(bad(""), "--wdl: expected 3 comma-separated counts (W,D,L), got 0");
    EXPECT_EQ(bad("1,2.5,3"), "--wdl: '2.5' is not a whole number");
    EXPECT_EQ(bad("1,,3"), "--wdl: '' is not a whole number");
    EXPECT_EQ(bad("1,-2,3"), "--wdl: a count cannot be negative (-2)");
}

TEST(SprtInput, PentanomialAndTrinomial) {
    const auto p = parse_pentanomial("--penta", "1,2,3,4,5");
    EXPECT_EQ(p.bins, (std::array<std::int64_t, 5>{1, 2, 3, 4, 5}));
    const auto t = parse_trinomial("--wdl", "7,8,9");
    EXPECT_EQ(t.wins, 7);
    EXPECT_EQ(t.draws, 8);
    EXPECT_EQ(t.losses, 9);
    EXPECT_EQ(
        message_of<std::invalid_argument>([] { (void)parse_pentanomial("--penta", "0,0,0,0,0"); }),
        "--penta: every count is 0");
    EXPECT_EQ(message_of<std::invalid_argument>([] { (void)parse_trinomial("--wdl", "0,0,0"); }),
              "--wdl: every count is 0");
    EXPECT_EQ(
        message_of<std::invalid_argument>([] { (void)parse_pentanomial("--penta", "1,2,3,4"); }),
        "--penta: expected 5 comma-separated counts (LL,LD,DD+WL,WD,WW), got 4");
}

}  // namespace
}  // namespace arena::rating
