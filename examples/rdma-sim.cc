/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rdma-sim: one config in, one run, all outputs (RdmaExperiment).
 *
 *   rdma-sim                                   the embedded default experiment
 *   rdma-sim -c examples/configs/fat-tree-websearch.ini --traffic.load=0.5
 *   rdma-sim --help                            every key, its unit and default
 *   rdma-sim -c FILE --print-config            the configuration a run uses
 *   rdma-sim -c FILE --check                   every check of a run, nothing run
 *
 * Command-line parsing is Boost.Program_options'; every configuration key
 * (RdmaMakeExperimentConfig) is also a --group.name=value option that
 * overrides the file. Errors name the file and line or the option and exit
 * with status 2 before the simulation starts; nothing is written then.
 * SIGINT or SIGTERM stops the run cleanly (a message, nothing written, exit
 * 128 + the signal); a second one ends it at once. A full disk or a file
 * size limit while writing the outputs exits 2 with the reason, and the
 * output folder is left as it was.
 *
 * With sim.fastForward = check, the run is made again packet by packet (this
 * program, with sim.fastForward = off, into <output.dir>/fast-forward-off)
 * and the two compared (RdmaCompareFastForward).
 *
 * With the MPI build (make mpi), under mpirun -np N: one simulation on N
 * processes (sim.ranks, sim.partition, sim.mpiSync; doc/mpi.rst); rank 0
 * prints and writes the outputs.
 */

#include "ns3/rdma-config.h"
#include "ns3/rdma-experiment-config.h"
#include "ns3/rdma-experiment.h"
#include "ns3/rdma-fast-forward-check.h"
#include "ns3/rdma-huge-page-heap.h"
#include "ns3/rdma-interrupt.h"
#include "ns3/rdma-key-names.h"
#include "ns3/rdma-mpi.h"
#include "ns3/rdma-partition.h"
#include "ns3/rdma-version.h"

#include <boost/program_options.hpp>
#include <cstring>
#include <iostream>
#include <spawn.h>
#include <strings.h>
#include <sys/wait.h>

using namespace ns3;
namespace po = boost::program_options;

namespace
{

/// main's body; its return value is the exit status.
int Main(int argc, char* argv[]);

} // namespace

int
main(int argc, char* argv[])
{
    // First, before the heap grows: frames, events and QPs on 2 MiB pages.
    RdmaHugePageHeap::Enable();
    // Under mpirun (the MPI build, `make mpi`), one rank of a distributed
    // run; every rank runs the same checks, so a bad input exits 2 on all.
    RdmaMpi::Init(&argc, &argv);
    const int status = Main(argc, argv);
    RdmaMpi::Finalize();
    return status;
}

namespace
{

/**
 * Refuse what the command line gave that is neither an option nor a key in
 * any case (RdmaConfig::Resolve): the error names it and the nearest names.
 * \param parsed the command line, parsed with unregistered names allowed
 * \param general the options that are not keys
 * \param config the keys
 * \throws RdmaConfigError for an unknown name, a key without "=value", or a
 * positional argument
 */
void
CheckUnregistered(const po::parsed_options& parsed,
                  const po::options_description& general,
                  const RdmaConfig& config)
{
    std::vector<std::string> names = config.GetKeyNames();
    for (const auto& o : general.options())
    {
        names.push_back(o->long_name());
    }
    for (const auto& opt : parsed.options)
    {
        if (!opt.unregistered)
        {
            continue;
        }
        const std::string typed = opt.original_tokens.empty() ? opt.string_key
                                                              : opt.original_tokens.front();
        if (opt.string_key.empty() || opt.position_key >= 0)
        {
            throw RdmaConfigError("command line: '" + typed +
                                  "' is not an option (options are --name or --group.key=value)");
        }
        if (opt.string_key.find('.') == std::string::npos)
        {
            const std::string name = typed.substr(0, typed.find('='));
            const bool output = name == "-o" || name.rfind("--out", 0) == 0;
            throw RdmaConfigError("command line: unknown option '" + name + "'" +
                                  (output ? std::string(" (the output folder is --output.dir=DIR)")
                                          : RdmaDidYouMean(opt.string_key, names)) +
                                  " (rdma-sim --help lists every option)");
        }
        const std::string key = config.Resolve(opt.string_key, "command line --" + opt.string_key);
        if (opt.value.empty())
        {
            throw RdmaConfigError("command line --" + opt.string_key + ": " + key +
                                  " needs a value (--" + key + "=VALUE)");
        }
    }
}

/**
 * sim.fastForward = check's second run: this program again, with the same
 * arguments but sim.fastForward = off and the output folder outDir +
 * "/fast-forward-off", then the comparison.
 * \param argc \param argv the command line \param outDir the first run's output folder
 * \throws RdmaConfigError if the second run cannot start or fails
 */
void
CheckFastForward(int argc, char* argv[], const std::string& outDir)
{
    const std::string packetDir = outDir + "/fast-forward-off";
    std::vector<std::string> args;
    for (int i = 0; i < argc; ++i)
    {
        const char* a = argv[i];
        const bool replaced = !strncasecmp(a, "--sim.fastForward", 17) ||
                              !strncasecmp(a, "--output.dir", 12) || !strcmp(a, "--quiet") ||
                              !strcmp(a, "-q") || !strcmp(a, "--force");
        if (replaced)
        {
            // "--key value": its value goes too (not after a flag: --quiet, -q, --force)
            i += std::strchr(a, '=') == nullptr && a[2] != 'q' && a[2] != 'f' && a[1] == '-';
            continue;
        }
        args.emplace_back(a);
    }
    args.insert(args.end(),
                {"--sim.fastForward=off", "--output.dir=" + packetDir, "--force", "--quiet"});
    std::vector<char*> cargs;
    for (std::string& a : args)
    {
        cargs.push_back(a.data());
    }
    cargs.push_back(nullptr);
    std::cout << "rdma-sim: sim.fastForward = check: the same case packet by packet, into "
              << packetDir << "/" << std::endl;
    pid_t pid;
    if (posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, cargs.data(), environ) != 0)
    {
        throw RdmaConfigError("sim.fastForward = check: cannot start the packet-level run: " +
                              std::string(std::strerror(errno)));
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    {
        throw RdmaConfigError("sim.fastForward = check: the packet-level run into " + packetDir +
                              " failed (status " + std::to_string(status) + ")");
    }
    try
    {
        std::cout << "rdma-sim: " << RdmaCompareFastForward(outDir, packetDir).Describe()
                  << "; per row in " << outDir << "/fast-forward-check.csv\n";
    }
    catch (const std::exception& e)
    {
        throw RdmaConfigError(std::string("sim.fastForward = check: ") + e.what());
    }
}

int
Main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS); // before any Time: a byte lasts 80 ps at 100 Gb/s
    RdmaInterrupt::Install();
    // Only rank 0 of a distributed run prints (the others' lines would repeat it).
    const bool speaker = RdmaMpi::GetRank() == 0;
    try
    {
        RdmaConfig config = RdmaMakeExperimentConfig();
        po::options_description general("rdma-sim options");
        general.add_options()("help,h", "print every configuration key and exit")(
            "config,c",
            po::value<std::string>(),
            "INI configuration file (default: the embedded default experiment, or none with "
            "--hpcc.config)")(
            "print-config",
            "print the configuration a run would use (keys merged, "
            "hpcc.config, cc.preset and nic.preset applied, each with its origin) and "
            "exit")(
            "changed",
            "with --print-config: only the keys whose value is not their default and that the "
            "run uses (what it prints runs the same experiment again with -c)")(
            "check",
            "check every key and input as a run does (files, workload, output folder, the "
            "memory estimate), run nothing, exit 0; with sim.ranks = N outside mpirun, as the "
            "launch of N ranks would (the partition, each rank's part)")(
            "force",
            "write into a non-empty output folder")("quiet,q", "no progress line on stderr")(
            "version",
            "print the module's and ns-3's versions and exit");
        // The keys the command line names, so that "--group.key value" parses
        // too. Only those: Boost looks an option up by walking every one it
        // knows, and all of the hundreds of keys took 11 M instructions, a
        // tenth of a small run.
        po::options_description keys("configuration keys (see --help)");
        for (int i = 1; i < argc; ++i)
        {
            const std::string arg = argv[i];
            if (arg.rfind("--", 0) == 0)
            {
                const std::string name = arg.substr(2, arg.find('=') - 2);
                if (config.HasKey(name) && !keys.find_nothrow(name, false))
                {
                    keys.add_options()(name.c_str(), po::value<std::string>());
                }
            }
        }
        po::options_description all;
        all.add(general).add(keys);
        po::variables_map vm;
        // Whole key names only: Boost's default style takes an unambiguous
        // prefix for the key (--switch.EcnAtDequeu ran as EcnAtDequeue), so a
        // mistyped key would run, and change meaning once another key shares
        // the prefix.
        po::parsed_options parsed =
            po::command_line_parser(argc, argv)
                .options(all)
                .style(po::command_line_style::default_style &
                       ~po::command_line_style::allow_guessing)
                .allow_unregistered()
                .run();
        po::store(parsed, vm);

        if (vm.count("version"))
        {
            std::cout << "rdma-sim " << RdmaModuleVersion() << " (the rdma module), ns-3 "
                      << RdmaNs3Version() << "\n";
            return 0;
        }
        CheckUnregistered(parsed, general, config);
        if (vm.count("help"))
        {
            std::cout << "Usage: rdma-sim [-c FILE] [--group.key=value ...] [--print-config] "
                         "[--check] [--force] [--quiet]\n\n"
                      << general
                      << "\nConfiguration keys ([group] in an INI file, or --group.key=value "
                         "here), with their defaults:\n";
            config.PrintHelp(std::cout);
            return 0;
        }
        if (vm.count("config"))
        {
            config.ReadIniFile(vm["config"].as<std::string>());
        }
        else if (!vm.count("hpcc.config"))
        {
            // (An HPCC simulator config.txt is the whole experiment by itself.)
            config.ReadIniText(RdmaDefaultExperimentText(),
                              RdmaDefaultExperimentName());
        }
        for (const auto& opt : parsed.options)
        {
            // Keys, declared or in another case (Resolve); not the general options.
            if (!opt.string_key.empty() && !general.find_nothrow(opt.string_key, false))
            {
                config.Set(opt.string_key,
                           opt.value.empty() ? "" : opt.value.front(),
                           "command line --" + opt.string_key);
            }
        }
        if (vm.count("changed") && !vm.count("print-config"))
        {
            throw RdmaConfigError("command line: --changed is an option of --print-config "
                                  "(rdma-sim --print-config --changed)");
        }
        RdmaExperiment experiment(config);
        if (vm.count("print-config"))
        {
            // With hpcc.config and cc.preset applied, as the run would use it.
            const std::vector<std::string> changed =
                vm.count("changed") ? experiment.GetChangedKeys() : std::vector<std::string>();
            experiment.GetResolvedConfig().Print(std::cout, vm.count("changed") ? &changed : nullptr);
            return 0;
        }
        experiment.SetForce(vm.count("force") != 0);
        if (vm.count("check"))
        {
            // Outside a launch, sim.ranks = N checks the launch of N ranks
            // before it (doc/mpi.rst, "On a cluster"): the partition, and
            // each rank's part against sim.maxMemory.
            const uint64_t planned = config.GetUinteger("sim.ranks");
            const bool plan = RdmaMpi::GetSize() == 1 && planned > 1;
            if (plan)
            {
                RdmaPartition::SetWorld(0, static_cast<uint32_t>(planned));
            }
            std::size_t collectives = 0;
            std::string memory;
            const std::size_t flows = experiment.Check(&collectives, &memory);
            std::cout << "rdma-sim: configuration checked"
                      << (plan ? " as a launch of " + std::to_string(planned) + " MPI ranks"
                               : std::string())
                      << ", " << (collectives ? collectives : flows)
                      << (collectives ? " collectives" : " flows") << "; " << memory
                      << "; nothing run, nothing written\n";
            return 0;
        }
        experiment.SetProgressStream(vm.count("quiet") || !speaker ? nullptr : &std::cerr);
        experiment.Run();
        if (speaker)
        {
            experiment.PrintSummary(std::cout);
        }
        // (Neither key is one that hpcc.config or cc.preset set: the file and
        // command line's values are the run's, read without resolving again.)
        if (speaker && config.Get("sim.fastForward") == "check")
        {
            CheckFastForward(argc, argv, config.Get("output.dir"));
        }
        return 0;
    }
    catch (const po::error& e)
    {
        std::cerr << "rdma-sim: " << e.what() << " (rdma-sim --help lists every option)\n";
    }
    catch (const RdmaConfigError& e)
    {
        if (speaker)
        {
            std::cerr << "rdma-sim: " << e.what() << "\n";
        }
    }
    catch (const RdmaInterrupted& e)
    {
        std::cerr << "\nrdma-sim: " << e.what() << "\n";
        return 128 + e.GetSignal();
    }
    return 2;
}

} // namespace
