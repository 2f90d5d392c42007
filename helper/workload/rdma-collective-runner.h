/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_COLLECTIVE_RUNNER_H
#define RDMA_COLLECTIVE_RUNNER_H

#include "rdma-collective-memo.h"
#include "rdma-collective-steady.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/rdma-collective-schedule.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-qp-cc.h"
#include "ns3/traced-callback.h"

#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * \brief One item of a training iteration: a collective or a compute gap.
 */
struct RdmaJobItem
{
    /// The collective's schedule; null for a compute gap.
    std::shared_ptr<const RdmaCollectiveSchedule> collective;
    Time compute; //!< a compute gap: how long each rank computes (the longest, with rankCompute)
    /// The parallelism group a workload file runs the collective in ("TP",
    /// "DP", "EP", "DP_EP": RdmaSimaiGroupName), empty for job.sequence's
    /// collectives (the whole job)
    std::string group;
    std::string layer; //!< a workload file's layer and phase ("attention fwd"), else empty
    /// A compute gap whose ranks compute for different times (Chakra traces):
    /// per rank, its time; empty: every rank computes `compute`
    std::vector<Time> rankCompute{};

    /// \return how long rank r computes in this gap \param r the rank
    Time GetCompute(uint32_t r) const
    {
        return rankCompute.empty() ? compute : rankCompute[r];
    }
};

/**
 * \ingroup rdma
 * \brief A training job: ranks placed on hosts running the same sequence
 * of collectives and compute gaps (one iteration) a number of times.
 */
struct RdmaJob
{
    std::vector<uint32_t> hosts;    //!< rank r runs on host hosts[r] (distinct)
    /// Empty, or per rank a second host: its port on an intra-server link
    /// (RdmaTopologySpec::Rail's NVLink ports); a WRITE between two ranks of
    /// one server (servers) goes between these, any other between hosts
    std::vector<uint32_t> intraHosts;
    std::vector<uint32_t> servers; //!< with intraHosts: per rank, its server
    std::vector<RdmaJobItem> items; //!< one iteration, in order
    uint32_t iterations{1};         //!< how many times the items run
    Time start;                     //!< when the ranks start (QPs are connected then)
    uint8_t priority{3};            //!< traffic class of its QPs (0-7), as RdmaFlow's
};

/**
 * \ingroup rdma
 * \brief One collective of one iteration of a job, measured.
 *
 * start is when its first rank entered it (a send-recv's: its first
 * sending rank; a receiver that waits before is not the transfer's time),
 * end when its last rank had every receive landed (and reduced) and every
 * WRITE completed (ACKed): CCT = end - start. A rank with no send and no
 * receive in it (RdmaCollectiveSchedule::IsActive) is not one of its ranks. algbw and busbw are
 * nccl-tests' (bytes / CCT, times RdmaBusBandwidthFactor).
 */
struct RdmaCollectiveRecord
{
    uint32_t job{0};       //!< job index
    uint32_t iteration{0}; //!< iteration, from 0
    uint32_t item{0};      //!< index of the collective in the iteration's items
    std::shared_ptr<const RdmaCollectiveSchedule> schedule; //!< what ran
    Time start;                //!< first rank (send-recv: sending rank) entered, if started
    bool started{false};       //!< start is set
    Time end;                  //!< last rank done (valid if completed)
    uint32_t ranksEntered{0};  //!< ranks that entered it
    uint32_t ranksDone{0};     //!< ranks done with it
    bool completed{false};     //!< every active rank done
    bool failed{false};        //!< a WRITE completed with an error
    /// If failed: the rank whose work request completed in error first, its
    /// host, when, and the status (IBV_WC_RETRY_EXC_ERR across a failed link)
    uint32_t failedRank{0};
    uint32_t failedHost{0};                    //!< see failedRank
    Time failedAt;                             //!< see failedRank
    RdmaWcStatus failedStatus{IBV_WC_SUCCESS}; //!< see failedRank
    /// The pair that finished last: the sender and receiver rank of the
    /// last WRITE to land (and be reduced, where it is), and when it landed.
    /// For an all-to-all, the slowest of its n(n-1) pairs.
    uint32_t lastSrc{0};
    uint32_t lastDst{0}; //!< see lastSrc
    Time lastLanded;     //!< see lastSrc (valid if a WRITE landed)
    /// The key of the event in which that WRITE landed
    /// (RdmaEventScheduler::GetRunningKey): of landings at one time, a
    /// sequential run keeps the last to run, the one with the largest key
    uint64_t lastKey{0};

    /**
     * \brief Add another MPI rank's record of the same collective (its
     * ranks' part; doc/mpi.rst): the earlier start, the later end, the
     * ranks summed, failed if either failed, the later landing (at one
     * time, the larger lastKey: the event a sequential run runs last);
     * completed once every rank is done.
     * \param other the other rank's record of (job, iteration, item)
     */
    void Merge(const RdmaCollectiveRecord& other);

    /// \return end - start (zero unless completed)
    Time GetCct() const;
    /// \return nccl-tests' algbw: bytes x 8 / CCT, bit/s (0 unless completed)
    double GetAlgBw() const;
    /// \return nccl-tests' busbw: algbw x RdmaBusBandwidthFactor, bit/s
    double GetBusBw() const;
};

/**
 * \ingroup rdma
 * \brief One iteration of a job, measured: from its first rank's start to
 * its last rank's end; compute is the busiest rank's compute gaps, summed
 * (each rank computes them in turn; every rank's when the ranks compute
 * alike), the rest of the time is exposed communication, waits included
 * (the model does not overlap the two).
 */
struct RdmaIterationRecord
{
    uint32_t job{0};          //!< job index
    uint32_t iteration{0};    //!< from 0
    uint32_t ranks{0};        //!< the job's ranks
    Time start;               //!< first rank started it
    Time end;                 //!< last rank finished it (valid if completed)
    Time compute;             //!< the busiest rank's compute gaps, summed
    uint32_t ranksDone{0};    //!< ranks done with it
    bool started{false};      //!< a rank started it
    bool completed{false};    //!< every rank finished it

    /// \return end - start (zero unless completed)
    Time GetTime() const;
    /**
     * \brief Add another MPI rank's record of the same iteration (its
     * ranks' part): the earlier start, the later end, the ranks done
     * summed; completed once every rank is done.
     * \param other the other rank's record of (job, iteration)
     */
    void Merge(const RdmaIterationRecord& other);
};

/**
 * \ingroup rdma
 * \brief Runs training jobs on RdmaNic hosts: each collective's schedule
 * (RdmaCollectiveSchedule) as RDMA WRITE-with-immediate work requests on RC
 * queue pairs, as NCCL's IB transport posts them.
 *
 * At a job's start every (sender, receiver, channel) of its schedules gets
 * an RC QP pair in the traffic class of the job's priority
 * (RdmaHelper::CreateConnectedQps); each host gets a protection
 * domain, one memory region as long as its largest WRITE (every WRITE uses
 * offset 0 at both ends) and one completion queue delivered by callback.
 * The receiving QP keeps RecvDepth receive work requests posted, one
 * reposted per receive completion, as NCCL reposts its receives.
 *
 * Each rank runs its job's items in order: a compute gap is a wait; a
 * collective posts every WRITE of the rank whose dependencies have landed
 * and each further WRITE as its dependencies land. A WRITE's immediate
 * names the collective (its sequence number modulo 4096) and the receive
 * (its index among the rank's receives), so a WRITE that arrives before
 * its receiver has entered that collective is kept until it does. A
 * received chunk that is reduced counts as landed after the rank's
 * reduction of it, bytes x 8 / ReduceRate, one chunk after another per
 * rank. A rank is done with a collective when its receives have landed and
 * its WRITEs have completed; it then goes on to its next item (ranks do not
 * wait for each other beyond what the schedule says).
 *
 * With FastForward (doc/fast-forward.rst), a collective that starts from a
 * state already simulated is replayed (RdmaCollectiveMemo), and a ring
 * collective whose ranks all receive at one rate has its remainder computed
 * (RdmaSteadyCollective); GetFastForwardStats() says what was skipped.
 *
 * What it does not model: NCCL's flow control of its buffers (the
 * receiver's free slots, a credit per step): a WRITE goes as soon as its
 * data is there; GPU kernels' launch and copy times. Intra-server links
 * are hosts of their own (RdmaJob::intraHosts: RDMA WRITEs over an
 * NVLink-rate link through a switch), not NVLink's own protocol.
 */
class RdmaCollectiveRunner : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaCollectiveRunner();
    ~RdmaCollectiveRunner() override;

    /**
     * \brief The hosts: host h is nics[h] (a null entry is not a host
     * unless SetFarHosts names it).
     * \param nics the NICs by host index
     */
    void SetHosts(const std::vector<Ptr<RdmaNic>>& nics);
    /**
     * \brief The attributes RdmaHelper::Connect gives every QP pair.
     * \param config the connection settings
     */
    void SetConnectionConfig(const RdmaConnectionConfig& config);
    /**
     * \brief With FastForward: the run's counters, which a replayed
     * collective advances by what it counted when it was simulated, and a
     * steady collective's computed remainder by the counts per byte of its
     * simulated part (RdmaStatsHelper::Credit; doc/fast-forward.rst).
     * \param counters the run's statistics (outliving the run), or null: none advanced
     */
    void SetCounters(RdmaStatsHelper* counters);
    /**
     * \brief Add a job (after SetHosts, before Start).
     * \param job the job
     * \throw std::invalid_argument if a host (or intra-server host) is not
     *        one or is already used by a job, intraHosts or servers is
     *        neither empty nor one per rank, a schedule's rank count is not the job's, a rank
     *        receives 2^20 or more WRITEs in one collective (the
     *        immediate's field), or there are no items or iterations
     */
    void AddJob(const RdmaJob& job);
    /**
     * \brief Run one MPI rank's share of a distributed simulation (before
     * AddJob; doc/mpi.rst). Every rank keeps every job's bookkeeping and
     * takes every QP pair's numbers in a sequential run's order (so QP
     * numbers, hence UDP source ports and ECMP paths, are a sequential
     * run's): a QP is created on a local host's NIC, and a far host's QP
     * numbers and memory key come from its ids (RdmaNicIds); only the job ranks whose
     * hosts are local run: they post their WRITEs and receives, take their
     * completions and update the records, which then hold those ranks'
     * part (RdmaCollectiveRecord::Merge adds the other MPI ranks'). A job
     * rank's dependencies are completions at its own hosts, so they stay
     * on its MPI rank; its NIC and intra-server host must be on one. The
     * counts (GetCompletedCount, GetFailedCount, GetLandedBytes) are then
     * this MPI rank's, and CollectiveComplete fires only for a collective
     * all of whose ranks are local.
     * \param far per host index: null where this MPI rank simulates the
     *        host (its NIC from SetHosts), else the ids of a host another
     *        rank simulates (no NIC here: its SetHosts entry is dropped)
     */
    void SetFarHosts(const std::vector<Ptr<RdmaNicIds>>& far);
    /**
     * \brief Register every job's memory regions (each host's PD, CQ and
     * region as long as its job's largest WRITE) and schedule the jobs'
     * starts (call once, before Simulator::Run).
     * \throws std::runtime_error naming the host if a NIC cannot register
     *         its region (ibv_reg_mr: its MPT or MTT store is full)
     */
    void Start();
    /**
     * \brief Called once when every job has finished or failed (e.g. to
     * stop the simulation); with SetFarHosts, when every local job rank
     * has finished (or its job failed here).
     * \param cb the callback
     */
    void SetAllDoneCallback(Callback<void> cb);

    /// \return the jobs, in the order added
    const std::vector<RdmaJob>& GetJobs() const;
    /// \return every collective of every iteration of every job that a rank entered,
    /// by job, iteration and item
    std::vector<RdmaCollectiveRecord> GetCollectiveRecords() const;
    /// \return every iteration a rank started, by job and iteration
    std::vector<RdmaIterationRecord> GetIterationRecords() const;
    /// \return whether the all-done callback's condition holds (every job,
    /// or with SetFarHosts every local job rank, over; true without one)
    bool IsAllDone() const;
    /// \return collectives (of every iteration of every job) the jobs will run
    uint64_t GetCollectiveCount() const;
    /// \return collectives every rank has finished
    uint64_t GetCompletedCount() const;
    /// \return collectives in which a WRITE failed
    uint64_t GetFailedCount() const;
    /// \return collectives of failed jobs that did not finish besides the
    /// failed one: after it, or under way on other ranks when the job stopped
    uint64_t GetNotRunCount() const;
    /// \return why a job could not start ("" if none): its QPs could not be
    /// made (ibv_create_qp: the NIC's QP context memory is full); the
    /// runner then stopped the simulation (Simulator::Stop)
    const std::string& GetError() const;
    /// \return payload bytes landed at receivers so far
    uint64_t GetLandedBytes() const;
    /// \return payload bytes the jobs will land
    uint64_t GetTotalBytes() const;
    /// \return what the FastForward attribute skipped (all zero without it)
    const RdmaCollectiveMemo::Stats& GetFastForwardStats() const;

    /// Signature of the CollectiveComplete trace.
    typedef void (*CollectiveTracedCallback)(const RdmaCollectiveRecord& record);

  protected:
    void DoDispose() override;

  private:
    /// A host's verbs resources.
    struct Host : RdmaHostVerbs
    {
        Ptr<RdmaMemoryRegion> mr;     //!< its region (with a NIC)
        uint32_t rkey{0};             //!< its key (a far host's from its ids)
        uint32_t job{UINT32_MAX};     //!< the job using it
        uint32_t rank{0};             //!< its rank there
        std::unordered_map<uint32_t, Ptr<RdmaQueuePair>> receivers; //!< by QPN
    };

    /// A rank's progress.
    struct Rank
    {
        uint32_t host{0};              //!< its host
        uint64_t item{0};              //!< flattened item (iteration x items + i) it is at
        uint32_t seq{0};               //!< collectives entered so far (the current one's number)
        bool inCollective{false};      //!< inside item's collective
        std::vector<uint32_t> waiting; //!< per send: dependencies not yet landed
        uint32_t sendsLeft{0};         //!< WRITEs not completed
        uint32_t recvsLeft{0};         //!< receives not landed
        Time reduceFree;               //!< when its reduction unit is free
        Time itemEnd;                  //!< when its current item ends, if endKnown
        bool endKnown{true};           //!< false inside a simulated collective
        bool replaying{false};         //!< inside a replayed collective
        bool replayDone{false};        //!< its replayed end came before its entry (same time)
        std::map<uint32_t, std::vector<uint32_t>> early; //!< seq -> receives that came first
    };

    /// A job's state.
    struct JobState
    {
        RdmaJob job;                                  //!< as added
        std::vector<Rank> ranks;                      //!< by rank
        std::vector<uint32_t> collectiveItems;        //!< items that are collectives
        std::unordered_map<uint64_t, Ptr<RdmaQueuePair>> senders; //!< (src, dst, channel) key
        std::vector<RdmaCollectiveRecord> records;    //!< by seq
        std::vector<RdmaIterationRecord> iterations;  //!< by iteration
        uint32_t ranksFinished{0};                    //!< ranks past the last item
        uint32_t localRanks{0};                       //!< ranks this MPI rank runs
        std::vector<Ptr<RdmaQpCc>> senderCc;          //!< FastForward: each sending QP's CC
        const RdmaCollectiveMemo::Outcome* replay{nullptr}; //!< the collective being replayed
        uint32_t replaySeq{0};                        //!< its number
        Time replayFirst;                             //!< its first rank's entry
        uint32_t recordingSeq{0};                     //!< the collective being recorded
        std::unique_ptr<RdmaSteadyCollective> steady; //!< the collective watched for a steady state
        uint32_t steadySeq{0};                        //!< its number
        bool frozen{false};                           //!< steady: its WRITEs no longer posted
        bool planned{false};                          //!< its remainder is computed
        RdmaSteadyCollective::Plan plan;              //!< the remainder
        Time frozenAt;                                //!< when the remainder was computed
        RdmaStatsHelper::Counts steadyCounts;         //!< the run's counters at its start
        uint64_t steadyLanded{0};                     //!< payload bytes landed before it
        bool failed{false};                           //!< a WRITE failed
    };

    /**
     * \return the hosts a WRITE from src to dst goes between: the ranks'
     * intra-server hosts if both are in one server, else their hosts
     * \param s the job \param src sender rank \param dst receiver rank
     */
    static std::pair<uint32_t, uint32_t> Endpoints(const JobState& s, uint32_t src, uint32_t dst);
    /**
     * \brief Check a job's hosts: each a host with a NIC, in no other job,
     * once in this one; one intra-server host and server per rank or none.
     * \param job the job \param where "job J: " \throws std::invalid_argument
     */
    void CheckJobHosts(const RdmaJob& job, const std::string& where) const;
    /// Make a job's collective and iteration records. \param s the job \param j its index
    static void MakeRecords(JobState& s, uint32_t j);
    /// Set up a host's PD, MR and CQ. \param host index \param bytes region length
    /// \throws std::runtime_error if its NIC cannot register the region
    void PrepareHost(uint32_t host, uint64_t bytes);
    /**
     * \brief A job stops: its current collective is failed, it counts as
     * over, and its ranks go no further.
     * \param j the job \param rank the rank whose work request failed
     * \param status the completion's status
     */
    void FailJob(uint32_t j, uint32_t rank, RdmaWcStatus status);
    /// A job starts: connect its QPs, start its ranks. \param j job index
    void StartJob(uint32_t j);
    /// A rank goes to its current item. \param j job \param r rank
    void EnterItem(uint32_t j, uint32_t r);
    /// A rank is done with its current item. \param j job \param r rank
    void LeaveItem(uint32_t j, uint32_t r);
    /// Post one WRITE. \param j job \param r rank (its sender) \param op operation index
    void Post(uint32_t j, uint32_t r, uint32_t op);
    /// A WRITE for the rank's current collective arrived. \param j job \param r rank
    /// \param recv its receive index
    void Arrive(uint32_t j, uint32_t r, uint32_t recv);
    /// A received chunk is usable (landed, reduced). \param j job \param r rank
    /// \param op the operation
    void Landed(uint32_t j, uint32_t r, uint32_t op);
    /// Leave the collective if the rank is done with it. \param j job \param r rank
    void CheckRankDone(uint32_t j, uint32_t r);
    /**
     * \brief The first rank enters a collective (FastForward): key its start,
     * then replay it (a kept outcome) or record it.
     * \param j job \param r the rank
     */
    void BeginCollective(uint32_t j, uint32_t r);
    /**
     * \brief When a rank will enter a flattened item: known if it is not
     * inside a simulated collective and only compute gaps lie between.
     * \param s the job \param r the rank \param target the item
     * \param at receives the time \return whether it is known
     */
    static bool KnownEntry(const JobState& s, uint32_t r, uint64_t target, Time& at);
    /// A rank's end of a replayed collective. \param j job \param r rank
    void ReplayDone(uint32_t j, uint32_t r);
    /// \return the job's watched collective if the rank is in it (else null) \param j job
    /// \param r rank
    RdmaSteadyCollective* Watched(uint32_t j, uint32_t r);
    /// \return the run's counters now (SetCounters), or none
    RdmaStatsHelper::Counts CountsNow() const;
    /// Freeze the watched collective if it is steady; plan its remainder once
    /// nothing is in flight. \param j job
    void CheckSteady(uint32_t j);
    /// A rank's end of a computed remainder, or of a replay: nothing left to land or complete.
    /// \param j job \param r rank
    void SteadyDone(uint32_t j, uint32_t r);
    /// A completion on a host's CQ. \param host index \param wc the completion
    void OnCompletion(uint32_t host, const RdmaWorkCompletion& wc);
    /// \return the schedule of the rank's current item \param j job \param r rank
    const RdmaCollectiveSchedule& Current(uint32_t j, uint32_t r) const;
    /// Run the all-done callback if every job is over.
    void CheckAllDone();
    /// \return whether this MPI rank simulates a host \param host host index
    bool IsLocal(uint32_t host) const;

    DataRate m_reduceRate;              //!< the accelerator's reduction rate
    uint32_t m_recvDepth;               //!< receives kept posted per QP
    RdmaConnectionConfig m_config;      //!< Connect attributes
    std::vector<Host> m_hosts;          //!< by host index
    std::vector<JobState> m_jobs;       //!< by job index
    std::vector<RdmaJob> m_jobList;     //!< as added
    uint64_t m_collectives{0};          //!< to run
    uint64_t m_completed{0};            //!< done
    uint64_t m_failed{0};               //!< failed
    std::string m_error;                //!< GetError
    uint64_t m_landedBytes{0};          //!< landed so far
    uint64_t m_totalBytes{0};           //!< to land
    uint32_t m_jobsOver{0};             //!< jobs finished or failed (their local ranks)
    bool m_fastForward{false};          //!< FastForward attribute
    uint32_t m_steadyWindow{16};        //!< FastForwardWindow attribute
    double m_steadyTolerance{0.01};     //!< FastForwardTolerance attribute
    RdmaCollectiveMemo m_memo;          //!< outcomes kept, recordings, counts
    RdmaStatsHelper* m_counters{nullptr}; //!< SetCounters
    Callback<void> m_allDone;           //!< every job over
    TracedCallback<const RdmaCollectiveRecord&> m_collectiveComplete; //!< trace
};

} // namespace ns3

#endif // RDMA_COLLECTIVE_RUNNER_H
