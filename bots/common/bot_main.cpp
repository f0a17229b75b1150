#include "bots/common/bot_main.hpp"

#include <iostream>

namespace arena::bots {

int bot_main(int argc, char** argv, BotProgram& program) {
    namespace po = boost::program_options;
    CommonFlags common;
    int level = 0;
    po::options_description options("options");
    // clang-format off
    options.add_options()
        ("help,h", "show this help")
        ("seed", po::value<std::uint64_t>(&common.seed)->default_value(1), "seed of every random choice")
        ("level", po::value<int>(&level), "play weaker: 1 is the weakest level")
        ("bench", "run the fixed benchmark and print the node count and speed");
    // clang-format on
    options.add(program.flags);
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, options), vm);
        po::notify(vm);
        if (vm.count("level")) {
            if (level < 1) throw std::invalid_argument("--level must be at least 1");
            common.level = level;
        }
    } catch (const std::exception& e) {
        std::cerr << program.info.name << ": " << e.what() << "\n"
                  << "usage: " << program.info.name << " [options] (--help lists them)\n";
        return 2;
    }
    if (vm.count("help")) {
        std::cout << "usage: " << program.info.name << " [options]\n"
                  << program.summary << "\nSpeaks protocol v1 on stdin/stdout.\n\n"
                  << options;
        return 0;
    }
    if (vm.count("bench")) {
        if (!program.bench) {
            std::cerr << program.info.name << ": no benchmark (this bot does not search)\n";
            return 2;
        }
        return program.bench(common);
    }
    std::unique_ptr<Engine> engine;
    try {
        engine = program.make_engine(common);
    } catch (const std::exception& e) {
        std::cerr << program.info.name << ": " << e.what() << "\n";
        return 2;
    }
    std::ios::sync_with_stdio(false);
    const int code = run_bot(program.info, *engine, std::cin, std::cout);
    return program.after_loop ? program.after_loop(code) : code;
}

}  // namespace arena::bots
