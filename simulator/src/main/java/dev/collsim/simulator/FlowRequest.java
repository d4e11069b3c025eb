package dev.collsim.simulator;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.nccl.RedOp;
import dev.collsim.simulator.network.FlowNetwork;
import dev.collsim.simulator.network.RankPlacement;
import dev.collsim.simulator.network.RoutingOptions;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.Topology;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A size sweep for the flow backend ({@link FlowSweep}): one collective placed on a fabric, optionally beside other
 * jobs, timed with or without link sharing.
 *
 * @param topology         the fabric, already rebuilt for any what-if
 * @param ranks            the GPUs the job may use: their count is the job size, their highest local index limits
 *                         the GPUs used per host
 * @param collective       the collective
 * @param dataType         element type (for NCCL's choice)
 * @param op               reduction operator (for NCCL's choice)
 * @param sizes            nccl-tests sizes, bytes, each {@code >= 0}
 * @param ncclEnv          NCCL_* settings, parsed once at the edge (for NCCL's choice)
 * @param placement        how the ranks are placed on the free GPUs
 * @param override         replacements of NCCL's schedule and channel count ({@link FlowChoice.Override#NONE})
 * @param rankOrder        true: schedules walk ranks in rank numbers instead of NCCL's topology order
 * @param rails            cabled compute NICs per host when only some are, else 0
 * @param routing          ECMP or spray, PXN, and the seed (also the seed of random placement)
 * @param failed           directed links out of service
 * @param jobs             other jobs on the same fabric, placed after this one on the GPUs left
 * @param congestionAware  true: the flow backend (max-min fair sharing); false: the links backend (each transfer
 *                         alone on its route)
 * @param timeline         record every flow for a timeline
 * @param completionWindow flow backend: finish together flows that end within this fraction of the step's elapsed
 *                         time, in [0, 1)
 * @param stepSamples      flow backend: time a lone job of more steps from this many of them, with a stated error
 *                         bound ({@link FlowNetwork#FlowNetwork(boolean, int, double, int)}); 0 simulates every
 *                         step
 * @param shardIndex       simulate only sizes k with {@code k mod shardCount == shardIndex}
 * @param shardCount       {@code >= 1}
 */
public record FlowRequest(Topology topology, List<Gpu> ranks, Collective collective, DataType dataType, RedOp op,
        List<Long> sizes, NcclSettings ncclEnv, RankPlacement placement, FlowChoice.Override override,
        boolean rankOrder, int rails, RoutingOptions routing, Set<Link> failed, List<FlowJob> jobs,
        boolean congestionAware, boolean timeline, double completionWindow, int stepSamples, int shardIndex,
        int shardCount) {

    /** @throws IllegalArgumentException on a completion window outside [0, 1) or a bad shard */
    public FlowRequest {
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(collective, "collective");
        Objects.requireNonNull(dataType, "dataType");
        Objects.requireNonNull(placement, "placement");
        Objects.requireNonNull(override, "override");
        Objects.requireNonNull(routing, "routing");
        ranks = List.copyOf(ranks);
        sizes = List.copyOf(sizes);
        Objects.requireNonNull(ncclEnv, "ncclEnv");
        failed = Set.copyOf(failed);
        jobs = List.copyOf(jobs);
        if (!(completionWindow >= 0 && completionWindow < 1)) {
            throw new IllegalArgumentException("--completion-window must be in [0, 1), got " + completionWindow);
        }
        if (stepSamples != 0 && stepSamples < FlowNetwork.MIN_STEP_SAMPLES) {
            throw new IllegalArgumentException("--step-samples must be 0 (every step) or >= "
                    + FlowNetwork.MIN_STEP_SAMPLES + ", got " + stepSamples);
        }
        if (shardCount < 1 || shardIndex < 0 || shardIndex >= shardCount) {
            throw new IllegalArgumentException("shard " + shardIndex + "/" + shardCount + ": need 0 <= I < N");
        }
    }
}
