// `arena sprt`: the GSPRT of a head-to-head as an offline calculator, from
// pentanomial (pairs) or trinomial (games) counts, with the head-to-head
// block (Elo, nElo, LOS, ...) in the form fastchess prints it.

#include <boost/program_options.hpp>
#include <cctype>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "arena/cli/commands.hpp"
#include "arena/cli/options.hpp"
#include "arena/rating/sprt.hpp"
#include "arena/rating/sprt_input.hpp"
#include "arena/report/head_to_head_text.hpp"
#include "arena/report/sprt_text.hpp"

namespace arena::cli {
namespace {

// Options whose value may be a negative number or start with one.
constexpr const char* kValueOptions[] = {"--elo0", "--elo1",  "--alpha",
                                         "--beta", "--penta", "--wdl"};

// Boost.Program_options reads "-1.75" after "--elo0" as an option of its
// own: join such a value to its option ("--elo0=-1.75").
std::vector<std::string> join_negative_values(const std::vector<std::string>& args) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < args.size(); ++i) {
        bool takes_value = false;
        for (const char* name : kValueOptions)
            takes_value = takes_value || args[i] == name;
        const bool next_negative =
            i + 1 < args.size() && args[i + 1].size() >= 2 && args[i + 1][0] == '-' &&
            (std::isdigit(static_cast<unsigned char>(args[i + 1][1])) || args[i + 1][1] == '.');
        const bool join = takes_value && next_negative;
        out.push_back(join ? args[i] + "=" + args[i + 1] : args[i]);
        i += join ? 1 : 0;
    }
    return out;
}

}  // namespace

int sprt_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    namespace po = boost::program_options;
    rating::SprtOptions options;
    std::string model_name = "normalized", penta_text, wdl_text;
    bool json = false;
    po::options_description opts("options");
    // clang-format off
    opts.add_options()
        ("help,h", "show this help")
        ("elo0", po::value<double>(&options.elo0), "H0: A is E0 stronger than B (required)")
        ("elo1", po::value<double>(&options.elo1), "H1: A is E1 stronger than B, E1 > E0 (required)")
        ("alpha", po::value<double>(&options.alpha)->default_value(0.05), "chance of accepting H1 when H0 holds")
        ("beta", po::value<double>(&options.beta)->default_value(0.05), "chance of accepting H0 when H1 holds")
        ("model", po::value<std::string>(&model_name)->default_value("normalized"),
         "normalized (E0, E1 in normalized Elo) or logistic (in Elo)")
        ("penta", po::value<std::string>(&penta_text), "pair counts LL,LD,DD+WL,WD,WW from A's side")
        ("wdl", po::value<std::string>(&wdl_text), "game counts W,D,L from A's side")
        ("json", po::bool_switch(&json), "print one JSON object");
    // clang-format on
    std::optional<rating::Pentanomial> pairs;
    std::optional<rating::Trinomial> games;
    const std::string usage =
        "usage: arena sprt --elo0 E0 --elo1 E1 [--alpha 0.05] [--beta 0.05]\n"
        "                  [--model normalized|logistic]\n"
        "                  (--penta LL,LD,DD+WL,WD,WW | --wdl W,D,L) [--json]\n\n"
        "The generalized SPRT of bot A against bot B: H0 'A is E0 stronger' against\n"
        "H1 'A is E1 stronger', from counts of colour-swapped game pairs (--penta) or\n"
        "of games (--wdl), both from A's side. Prints the log-likelihood ratio, its\n"
        "bounds, the decision (H0, H1 or continue) and the Elo of the head-to-head.\n"
        "Negative values may follow their option (--elo0 -1.75) or be joined to it\n"
        "(--elo0=-1.75). See docs/ratings.md.\n" +
        std::string(report::kHeadToHeadLegend) + "\n";
    const CommandLine line{"sprt", usage, opts};
    if (const auto done = parse_command_line(
            line, join_negative_values(args), out, err, [&](const po::variables_map& vm) {
                if (!vm.count("elo0")) throw std::invalid_argument("missing --elo0");
                if (!vm.count("elo1")) throw std::invalid_argument("missing --elo1");
                if (vm.count("penta") == vm.count("wdl")) {
                    throw std::invalid_argument(
                        "give the counts with exactly one of --penta and --wdl");
                }
                options.model = rating::parse_sprt_model_option("--model", model_name);
                if (const std::string problem = rating::sprt_options_problem(options, "--");
                    !problem.empty())
                    throw std::invalid_argument(problem);
                if (vm.count("penta"))
                    pairs = rating::parse_pentanomial("--penta", penta_text);
                else
                    games = rating::parse_trinomial("--wdl", wdl_text);
            }))
        return *done;
    try {
        report::print_sprt_calculation(out, options, pairs, games, json);
    } catch (const std::exception& e) {
        err << "arena sprt: " << e.what() << "\n";
        return kExitFailure;
    }
    return kExitOk;
}

}  // namespace arena::cli
