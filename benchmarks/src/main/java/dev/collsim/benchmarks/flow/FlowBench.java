package dev.collsim.benchmarks.flow;

import dev.collsim.nccl.Collective;
import dev.collsim.simulator.network.Job;
import dev.collsim.simulator.network.NetworkModel;
import dev.collsim.simulator.schedule.DirectAllToAllSchedule;
import dev.collsim.simulator.schedule.RingSchedule;
import dev.collsim.simulator.schedule.Schedule;
import dev.collsim.simulator.schedule.ScheduleRequest;
import dev.collsim.topology.Topology;
import java.util.List;

/**
 * The setup the flow benchmarks share: a fabric of DGX H100 hosts ({@link BenchFabrics}) indexed once for the flow
 * backend, and the jobs they time on every GPU of it, 1 GiB per rank, 8 channels, NCCL's p2p rounds 8 in flight for
 * AllToAll. Building the fabric and its index is left out of the timed part; the schedule and the job are made per
 * call (cheap: a schedule stores its step pattern, not its flows). Immutable. (AllToAll's rounds: NCCL's p2p
 * schedule, 8 in flight, is the schedule's own; {@code ranksPerHost} is 8, a DGX H100's GPUs.)
 *
 * @param topology the fabric
 * @param model    its index for the flow backend (no failures, ECMP seed 0, PXN on)
 */
record FlowBench(Topology topology, NetworkModel model) {

    /** Bytes per rank of every benchmark job: 1 GiB. */
    static final long BYTES = 1L << 30;
    /** NCCL channels of every benchmark job. */
    static final int CHANNELS = 8;
    /** Consecutive ranks on one host: a DGX H100's 8 GPUs. */
    static final int RANKS_PER_HOST = 8;

    /** The fabrics the benchmarks choose from ({@code @Param}). */
    enum Fabric {
        /** {@link BenchFabrics#railOptimized}. */
        RAIL_OPTIMIZED,
        /** {@link BenchFabrics#fatTree2to1}. */
        FAT_TREE_2TO1
    }

    /**
     * @param fabric which fabric
     * @param hosts  DGX H100 hosts (8 GPUs each)
     * @return the fabric, built and indexed
     */
    static FlowBench of(Fabric fabric, int hosts) {
        Topology t = fabric == Fabric.RAIL_OPTIMIZED ? BenchFabrics.railOptimized(hosts)
                : BenchFabrics.fatTree2to1(hosts);
        return new FlowBench(t, NetworkModel.of(t));
    }

    /** @return a ring AllReduce on every GPU, rank i on GPU i */
    Job ringAllReduce() {
        Schedule s = new RingSchedule().schedule(new ScheduleRequest(Collective.ALL_REDUCE, BYTES,
                topology.gpus().size(), CHANNELS, RANKS_PER_HOST));
        return new Job("ar", s, topology.gpus(), 0);
    }

    /** @return a direct AllToAll on every GPU, rank i on GPU i */
    Job directAllToAll() {
        Schedule s = new DirectAllToAllSchedule().schedule(new ScheduleRequest(Collective.ALL_TO_ALL, BYTES,
                topology.gpus().size(), CHANNELS, RANKS_PER_HOST));
        return new Job("a2a", s, topology.gpus(), 0);
    }

    /** @param job a job; @return it as the one-job list the backends take */
    static List<Job> alone(Job job) {
        return List.of(job);
    }
}
