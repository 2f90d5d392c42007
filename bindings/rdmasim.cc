/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rdmasim: the rdma module's experiments from Python (pybind11).
 *
 *   import rdmasim
 *   r = rdmasim.run("examples/configs/tiny.ini", **{"traffic.load": 0.5,
 *                   "output.dir": "out/tiny-0.5"}, force=True)
 *   r.summary["flows"]["completed"], r.flows["slowdown"]
 *   r = rdmasim.run("examples/configs/collective-ring.ini")
 *   r.collectives["busbw_gbps"], r.jobs["time_ns"]
 *
 * One experiment runs in the calling process (RdmaExperiment); the
 * simulator and attribute defaults are reset after each run, so runs can
 * follow one another. Files are written only when output.dir is set (by
 * the INI file, the dict or a keyword), and, as rdma-sim without --force,
 * a non-empty output folder is refused unless force=True. Configuration
 * errors raise rdmasim.ConfigError (a ValueError) with the message
 * rdma-sim prints.
 */

#include "ns3/nstime.h"
#include "ns3/rdma-config.h"
#include "ns3/rdma-experiment-config.h"
#include "ns3/rdma-experiment.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <initializer_list>

namespace py = pybind11;
using namespace ns3;

namespace
{

/// \return a value's text as a config value (bools as true/false)
std::string
ToText(const py::handle& v)
{
    if (py::isinstance<py::bool_>(v))
    {
        return v.cast<bool>() ? "true" : "false";
    }
    return py::str(v).cast<std::string>();
}

/// \return "group.key" from a keyword ("traffic__load" or "traffic.load")
std::string
KeyOf(std::string k)
{
    for (std::size_t i; (i = k.find("__")) != std::string::npos;)
    {
        k.replace(i, 2, ".");
    }
    return k;
}

/// \return rdma-sim's message with its hint for a non-empty output folder
/// ("use --force") as Python spells it ("use force=True")
std::string
PythonHint(std::string message)
{
    const std::string cli = "use --force";
    const std::size_t i = message.find(cli);
    if (i != std::string::npos)
    {
        message.replace(i, cli.size(), "use force=True");
    }
    return message;
}

/// \return the columns as a dict, in order, each a numpy array (a list of
/// strings becomes an array of them) \param columns (name, values) pairs
py::dict
Columns(std::initializer_list<std::pair<const char*, py::object>> columns)
{
    const py::object array = py::module_::import("numpy").attr("array");
    py::dict d;
    for (const auto& [name, values] : columns)
    {
        d[name] = py::isinstance<py::list>(values) ? array(values) : values;
    }
    return d;
}

/// Columns of the per-flow records, as numpy arrays.
py::dict
FlowArrays(const std::vector<RdmaFctRecord>& records)
{
    const std::size_t n = records.size();
    py::array_t<uint32_t> id(n), src(n), dst(n);
    py::array_t<uint64_t> size(n);
    py::array_t<double> start(n), fct(n), ideal(n), slowdown(n);
    py::list op, status;
    for (std::size_t i = 0; i < n; ++i)
    {
        const auto& r = records[i];
        id.mutable_at(i) = r.flow.id;
        src.mutable_at(i) = r.flow.src;
        dst.mutable_at(i) = r.flow.dst;
        size.mutable_at(i) = r.flow.size;
        start.mutable_at(i) = r.flow.start.GetNanoSeconds();
        fct.mutable_at(i) = r.completed ? double(r.fct.GetNanoSeconds()) : NAN;
        ideal.mutable_at(i) = r.ideal.GetNanoSeconds();
        slowdown.mutable_at(i) = r.Succeeded() ? r.slowdown : NAN;
        op.append(RdmaFlowOpName(r.flow.op));
        status.append(r.StatusName());
    }
    return Columns({{"id", id},
                    {"src", src},
                    {"dst", dst},
                    {"size", size},
                    {"start_ns", start},
                    {"fct_ns", fct},
                    {"ideal_fct_ns", ideal},
                    {"slowdown", slowdown},
                    {"op", op},
                    {"status", status}});
}

/// Columns of the collectives' records (collectives.csv's), as numpy arrays.
py::dict
CollectiveArrays(const std::vector<RdmaCollectiveRecord>& records)
{
    const std::size_t n = records.size();
    py::array_t<uint32_t> job(n), iteration(n), item(n), ranks(n);
    py::array_t<int64_t> slowestSrc(n), slowestDst(n);
    py::array_t<uint64_t> bytes(n);
    py::array_t<double> start(n), end(n), cct(n), algbw(n), busbw(n), slowestPair(n);
    py::list collective, algorithm, status;
    for (std::size_t i = 0; i < n; ++i)
    {
        const auto& r = records[i];
        job.mutable_at(i) = r.job;
        iteration.mutable_at(i) = r.iteration;
        item.mutable_at(i) = r.item;
        ranks.mutable_at(i) = r.schedule->GetRanks();
        bytes.mutable_at(i) = r.schedule->GetBytes();
        start.mutable_at(i) = r.start.GetNanoSeconds();
        end.mutable_at(i) = r.completed ? double(r.end.GetNanoSeconds()) : NAN;
        cct.mutable_at(i) = r.completed ? double(r.GetCct().GetNanoSeconds()) : NAN;
        algbw.mutable_at(i) = r.completed ? r.GetAlgBw() / 1e9 : NAN;
        busbw.mutable_at(i) = r.completed ? r.GetBusBw() / 1e9 : NAN;
        slowestSrc.mutable_at(i) = r.completed ? int64_t(r.lastSrc) : -1;
        slowestDst.mutable_at(i) = r.completed ? int64_t(r.lastDst) : -1;
        slowestPair.mutable_at(i) =
            r.completed ? double((r.lastLanded - r.start).GetNanoSeconds()) : NAN;
        collective.append(RdmaCollectiveName(r.schedule->GetKind()));
        algorithm.append(RdmaCollectiveAlgorithmName(r.schedule->GetAlgorithm()));
        status.append(r.completed ? "done" : (r.failed ? "failed" : "incomplete"));
    }
    return Columns({{"job", job},
                    {"iteration", iteration},
                    {"item", item},
                    {"collective", collective},
                    {"algorithm", algorithm},
                    {"bytes", bytes},
                    {"ranks", ranks},
                    {"start_ns", start},
                    {"end_ns", end},
                    {"cct_ns", cct},
                    {"algbw_gbps", algbw},
                    {"busbw_gbps", busbw},
                    {"slowest_src", slowestSrc},
                    {"slowest_dst", slowestDst},
                    {"slowest_pair_ns", slowestPair},
                    {"status", status}});
}

/// Columns of the jobs' iteration records (jobs.csv's), as numpy arrays.
py::dict
IterationArrays(const std::vector<RdmaIterationRecord>& records)
{
    const std::size_t n = records.size();
    py::array_t<uint32_t> job(n), iteration(n), ranks(n);
    py::array_t<double> start(n), end(n), time(n), compute(n), comm(n), share(n);
    py::list status;
    for (std::size_t i = 0; i < n; ++i)
    {
        const auto& r = records[i];
        const double t = r.completed ? double(r.GetTime().GetNanoSeconds()) : NAN;
        const double c = double(r.compute.GetNanoSeconds());
        job.mutable_at(i) = r.job;
        iteration.mutable_at(i) = r.iteration;
        ranks.mutable_at(i) = r.ranks;
        start.mutable_at(i) = r.start.GetNanoSeconds();
        end.mutable_at(i) = r.completed ? double(r.end.GetNanoSeconds()) : NAN;
        time.mutable_at(i) = t;
        compute.mutable_at(i) = c;
        comm.mutable_at(i) = t - c;
        share.mutable_at(i) = t > 0 ? (t - c) / t : (r.completed ? 0.0 : NAN);
        status.append(r.completed ? "done" : "incomplete");
    }
    return Columns({{"job", job},
                    {"iteration", iteration},
                    {"ranks", ranks},
                    {"start_ns", start},
                    {"end_ns", end},
                    {"time_ns", time},
                    {"compute_ns", compute},
                    {"comm_ns", comm},
                    {"exposed_comm_share", share},
                    {"status", status}});
}

} // namespace

PYBIND11_MODULE(rdmasim, m)
{
    m.doc() = "The rdma ns-3 module's experiments (RdmaExperiment) from Python.";
    // Picoseconds, as rdma-sim: set once, before any simulation time exists.
    if (Time::GetResolution() != Time::PS)
    {
        Time::SetResolution(Time::PS);
    }
    static py::exception<RdmaConfigError> configError(m, "ConfigError", PyExc_ValueError);
    py::register_exception_translator([](std::exception_ptr p) {
        try
        {
            if (p)
            {
                std::rethrow_exception(p);
            }
        }
        catch (const RdmaConfigError& e)
        {
            configError(e.what());
        }
    });

    py::class_<RdmaExperiment>(
        m,
        "Result",
        "One run's results: summary (dict), flows, collectives and jobs (numpy).")
        .def_property_readonly(
            "summary",
            [](const RdmaExperiment& e) {
                return py::module_::import("json").attr("loads")(e.GetSummaryJson());
            },
            "summary.json's content as a dict (rdma-sim's keys and units)")
        .def_property_readonly(
            "flows",
            [](const RdmaExperiment& e) { return FlowArrays(e.GetFlowRecords()); },
            "per-flow columns as numpy arrays: id, src, dst, op, size (bytes), start_ns, "
            "fct_ns, ideal_fct_ns, slowdown (NaN unless the flow succeeded), status")
        .def_property_readonly(
            "collectives",
            [](const RdmaExperiment& e) { return CollectiveArrays(e.GetCollectiveRecords()); },
            "per-collective columns as numpy arrays (traffic.pattern = collective; empty "
            "otherwise), as collectives.csv: job, iteration, item, collective, algorithm, bytes, "
            "ranks, start_ns, end_ns, cct_ns, algbw_gbps, busbw_gbps (nccl-tests' definitions, "
            "Gbit/s; NaN unless done), slowest_src, slowest_dst (the ranks of the WRITE that "
            "landed last; -1 unless done), slowest_pair_ns (when it landed, from start), status")
        .def_property_readonly(
            "jobs",
            [](const RdmaExperiment& e) { return IterationArrays(e.GetIterationRecords()); },
            "per-iteration columns as numpy arrays (traffic.pattern = collective; empty "
            "otherwise), as jobs.csv: job, iteration, ranks, start_ns, end_ns, time_ns, "
            "compute_ns, comm_ns (time - compute), exposed_comm_share, status (NaN where an "
            "iteration is not done)")
        .def(
            "summary_text",
            [](const RdmaExperiment& e) {
                std::ostringstream os;
                e.PrintSummary(os);
                return os.str();
            },
            "the readable summary rdma-sim prints");

    m.def(
        "run",
        [](py::object config, bool force, py::kwargs overrides) {
            RdmaConfig c = RdmaMakeExperimentConfig();
            if (config.is_none())
            {
                c.ReadIniText(RdmaDefaultExperimentText(), RdmaDefaultExperimentName());
            }
            else if (py::isinstance<py::dict>(config))
            {
                c.ReadIniText(RdmaDefaultExperimentText(), RdmaDefaultExperimentName());
                for (auto item : config.cast<py::dict>())
                {
                    const std::string k = KeyOf(py::str(item.first));
                    c.Set(k, ToText(item.second), "config dict key '" + k + "'");
                }
            }
            else
            {
                c.ReadIniFile(py::str(config).cast<std::string>());
            }
            for (auto item : overrides)
            {
                const std::string k = KeyOf(py::str(item.first));
                c.Set(k, ToText(item.second), "keyword " + k);
            }
            auto e = std::make_unique<RdmaExperiment>(c);
            // Outputs are written only when the caller names a folder.
            e->SetWriteOutputs(c.GetOrigin("output.dir") != "default");
            e->SetForce(force);
            try
            {
                py::gil_scoped_release release;
                e->Run();
            }
            catch (const RdmaConfigError& err)
            {
                throw RdmaConfigError(PythonHint(err.what()));
            }
            return e;
        },
        py::arg("config") = py::none(),
        py::kw_only(),
        py::arg("force") = false,
        "Run one experiment in this process.\n\n"
        "config: an INI file path, a dict of rdma-sim keys ('traffic.load': 0.5) over the "
        "embedded default, or None for the default. Keyword overrides take the same keys, "
        "with '.' or '__' between the parts (traffic__load=0.5).\n"
        "Files (fct.csv, summary.json, ...: rdma-sim's outputs) are written only when "
        "output.dir is set, by the INI file, the dict or a keyword (output__dir=PATH); the "
        "embedded default sets none, so then nothing is written.\n"
        "force: write into an output.dir that is not empty (rdma-sim --force); without it "
        "such a folder is refused with ConfigError before anything runs.\n"
        "Returns a Result. Raises ConfigError (ValueError) with rdma-sim's message for a bad "
        "key, value or input file, or an output.dir that is not empty (force=False) or not "
        "a folder; nothing is written then.");
}
