/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer harness: rdma-sim's configuration (RdmaMakeExperimentConfig's
 * schema) read from arbitrary bytes, as an INI file (first byte even) or as
 * command-line "--group.key=value" options, one a line (first byte odd),
 * parsed with Boost.Program_options as rdma-sim does. Bad input must end
 * in RdmaConfigError or Boost's parse error, never an abort; and whatever
 * RdmaConfig takes, Config::SetDefault takes too (Apply aborts otherwise).
 */

#include "rdma-fuzz.h"

#include "ns3/config.h"
#include "ns3/rdma-config.h"
#include "ns3/rdma-experiment-config.h"

#include <boost/program_options.hpp>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
namespace po = boost::program_options;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size == 0)
    {
        return 0;
    }
    static const RdmaConfig schema = RdmaMakeExperimentConfig();
    RdmaConfig config = schema;
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    try
    {
        if (data[0] % 2 == 0)
        {
            config.ReadIniText(text, "fuzz.ini");
        }
        else
        {
            std::vector<std::string> args{"rdma-sim"};
            std::istringstream lines(text);
            for (std::string line; std::getline(lines, line);)
            {
                args.push_back(line);
            }
            std::vector<const char*> argv;
            for (const auto& a : args)
            {
                argv.push_back(a.c_str());
            }
            po::options_description keys;
            for (const auto& k : config.GetKeys())
            {
                keys.add_options()(k.name.c_str(), po::value<std::string>());
            }
            po::parsed_options parsed =
                po::command_line_parser(static_cast<int>(argv.size()), argv.data())
                    .options(keys)
                    .run();
            for (const auto& opt : parsed.options)
            {
                config.Set(opt.string_key,
                           opt.value.empty() ? "" : opt.value.front(),
                           "command line --" + opt.string_key);
            }
        }
        config.Apply();
        Config::Reset();
    }
    catch (const RdmaConfigError&)
    {
    }
    catch (const po::error&)
    {
    }
    return 0;
}
