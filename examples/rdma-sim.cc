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
 * (RdmaExperiment::MakeConfig) is also a --group.name=value option that
 * overrides the file. Errors name the file and line or the option and exit
 * with status 2 before the simulation starts; nothing is written then.
 * SIGINT or SIGTERM stops the run cleanly (a message, nothing written, exit
 * 128 + the signal); a second one ends it at once. A full disk or a file
 * size limit while writing the outputs exits 2 with the reason, and the
 * output folder is left as it was.
 *
 * With the MPI build (make mpi), under mpirun -np N: one simulation on N
 * processes (sim.ranks, sim.partition, sim.mpiSync; doc/mpi.md); rank 0
 * prints and writes the outputs.
 */

#include "ns3/rdma-config.h"
#include "ns3/rdma-experiment.h"
#include "ns3/rdma-interrupt.h"
#include "ns3/rdma-mpi.h"

#include <boost/program_options.hpp>
#include <iostream>

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
    // Under mpirun (the MPI build, `make mpi`), one rank of a distributed
    // run; every rank runs the same checks, so a bad input exits 2 on all.
    RdmaMpi::Init(&argc, &argv);
    const int status = Main(argc, argv);
    RdmaMpi::Finalize();
    return status;
}

namespace
{

int
Main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS); // before any Time: a byte lasts 80 ps at 100 Gb/s
    RdmaInterrupt::Install();
    // Only rank 0 of a distributed run prints (the others' lines would repeat it).
    const bool speaker = RdmaMpi::GetRank() == 0;
    try
    {
        RdmaConfig config = RdmaExperiment::MakeConfig();
        po::options_description general("rdma-sim options");
        general.add_options()("help,h", "print every configuration key and exit")(
            "config,c",
            po::value<std::string>(),
            "INI configuration file (default: the embedded default experiment, or none with "
            "--hpcc.config)")("print-config",
                              "print the configuration a run would use (keys merged, "
                              "hpcc.config and cc.preset applied, each with its origin) and exit")(
            "check",
            "check every key and input as a run does (files, workload, output folder), "
            "run nothing, exit 0")("force", "write into a non-empty output folder")(
            "quiet,q",
            "no progress line on stderr");
        po::options_description keys("configuration keys (see --help)");
        for (const auto& k : config.GetKeys())
        {
            keys.add_options()(k.name.c_str(), po::value<std::string>());
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
                .run();
        po::store(parsed, vm);

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
            config.ReadIniText(RdmaExperiment::DefaultConfigText(), "(embedded default)");
        }
        for (const auto& opt : parsed.options)
        {
            if (config.HasKey(opt.string_key))
            {
                config.Set(opt.string_key,
                           opt.value.empty() ? "" : opt.value.front(),
                           "command line --" + opt.string_key);
            }
        }
        RdmaExperiment experiment(config);
        if (vm.count("print-config"))
        {
            // With hpcc.config and cc.preset applied, as the run would use it.
            experiment.GetResolvedConfig().Print(std::cout);
            return 0;
        }
        experiment.SetForce(vm.count("force") != 0);
        if (vm.count("check"))
        {
            const std::size_t flows = experiment.Check();
            std::cout << "rdma-sim: configuration checked, " << flows
                      << " flows; nothing run, nothing written\n";
            return 0;
        }
        experiment.SetProgressStream(vm.count("quiet") || !speaker ? nullptr : &std::cerr);
        experiment.Run();
        if (speaker)
        {
            experiment.PrintSummary(std::cout);
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
