package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.AlgoChoice;
import dev.collsim.simulator.tuning.CostTable;
import dev.collsim.simulator.tuning.GpuGeneration;
import dev.collsim.simulator.tuning.HardwareClass;
import dev.collsim.simulator.tuning.NcclTuningModel;

/**
 * What an LL128 Ring step over NVLink on one Hopper host costs less than NCCL's per-step figure, in microseconds,
 * which {@link PerformanceModel} takes off the call's latency. Used for collsim's time only; NCCL's choice and its
 * own estimate keep NCCL's figure.
 *
 * <p>NCCL prices an LL128 Ring step over NVLink at {@code hwLat[NVLINK][Ring][LL128]} = 1.9 us, after a base of
 * 14.0 us ({@code baseLat[Ring][LL128]}), the same for every GPU generation (NCCL 2.18.5 to 2.30.7 {@code
 * src/graph/tuning.cc}): an 8-rank Ring LL128 AllReduce, 2 x 7 steps, is 14.0 + 14 x 1.9 = 40.6 us before its data.
 * LL128 hands data on per 128-byte line whose last 8 bytes carry the flag ({@code src/device/prims_ll128.h}), as
 * LL does per 16-byte line, and NCCL's LL step on Hopper NVLink is 0.6 us, which the 8x H100 LL floors meet
 * ({@link NvlinkLlHop}); what an LL128 step costs on Hopper is not in NCCL's source, so the figure is measured.
 *
 * <p>Measured ({@link #HOPPER_STEP_US}): the one 8-GPU Hopper file that forces the Ring (Together AI 8x H100 SXM,
 * NCCL 2.26.2, {@code NCCL_ALGO=RING}, A-allreduce-allgather-reducescatter-1x8xH100-together-ring-nccl2.26.txt)
 * runs LL128 at 4-32 MiB (AllReduce) and 8-16 MiB (AllGather, ReduceScatter), where collsim with NCCL's 1.9 us was
 * 4-18 us slow at every size, with its data rate right (per added byte at 4-32 MiB 319 GB/s busbw measured, 318
 * collsim: NCCL's 0.92 x 12 x 30 GB/s x 0.96). The step it implies, 1.9 - (collsim - measured) / nsteps per size:
 * AllReduce (line 27, 14 steps) 0.88, 1.16, 1.10, 0.62 at 4, 8, 16, 32 MiB (median 0.99); AllGather (line 81, 7
 * steps) 0.83, 0.82 (median 0.83); ReduceScatter (line 135) 1.32, 0.98 (median 1.15); median of the three 0.99,
 * rounded to 1.0. The sizes below are not used: NCCL's choice there is LL. A second Hopper host agrees: 2x H200
 * (NV18, NCCL 2.28.3, {@code NCCL_PROTO=LL128}, data/device/h200x2-2026-11-29/collsim-sweep-NCCL_PROTO.txt line 45)
 * takes 20.62 and 24.32 us at 512 KiB and 2 MiB on 2 steps, less its data at NCCL's 331.2 GB/s (1.6 and 6.3 us)
 * and collsim's 1.5 us launch: 17.5 and 16.5 us = base + 2 x step; with the 8x H100 AllReduce's intercept (30 us
 * at 4-32 MiB, the least-squares line through its LL128 sizes) = 1.5 + base + 14 x step, the two hosts give a step
 * of 0.9-1.0 us and a base of 14.5-15.7 us, NCCL's base 14.0 within 2 us. Not used for Blackwell or Ampere: the
 * 4x GB200 Ring LL128 sizes (A-allreduce-4xGB200-azure-ndgb200v6-ring-nccl2.25-busbw-table.txt, 8-16 MiB) are
 * already 2-8 % fast with NCCL's step, and the 8x A100 ones are held by collsim's measured per-channel cap
 * ({@link PerformanceParameters#perChannelCap}). Not between hosts: the network classes were fitted with NCCL's
 * NVLink steps inside each host. Stateless.
 */
public final class NvlinkLl128Hop {

    /** One LL128 Ring step over NVLink between Hopper GPUs, microseconds (class comment: median 0.99). */
    public static final double HOPPER_STEP_US = 1.0;

    private NvlinkLl128Hop() {
    }

    /**
     * @param plan   the channel plan
     * @param table  NCCL's cost table of the communicator (its hwLat table, by release)
     * @param func   collective
     * @param choice NCCL's (algorithm, protocol)
     * @return microseconds taken off NCCL's latency (before {@link PerformanceParameters#latencyScale()}): NCCL's
     *         Ring steps, {@link NcclTuningModel#nSteps}, x (hwLat[NVLINK][Ring][LL128] - {@link #HOPPER_STEP_US}),
     *         >= 0; 0 where it does not apply ({@link #applies})
     */
    public static double savedUs(ChannelPlan plan, CostTable table, Collective func, AlgoChoice choice) {
        if (!applies(plan, func, choice.algorithm(), choice.protocol())) {
            return 0;
        }
        double ncclStep = table.input().constants().hwLatency(HardwareClass.NVLINK, Algorithm.RING, Protocol.LL128);
        return NcclTuningModel.nSteps(func, plan.nRanks()) * Math.max(0, ncclStep - HOPPER_STEP_US);
    }

    /**
     * @return true for a Ring LL128 AllReduce, AllGather or ReduceScatter on one host of 2 or more Hopper GPUs whose
     *         ring graph is NVLink
     */
    static boolean applies(ChannelPlan plan, Collective func, Algorithm a, Protocol p) {
        return a == Algorithm.RING && p == Protocol.LL128 && plan.nNodes() == 1 && plan.nRanks() >= 2
                && GpuGeneration.of(plan.minSm()) == GpuGeneration.HOPPER
                && PerformanceModel.linkClass(plan) == HardwareClass.NVLINK
                && (func == Collective.ALL_REDUCE || func == Collective.ALL_GATHER
                        || func == Collective.REDUCE_SCATTER);
    }
}
