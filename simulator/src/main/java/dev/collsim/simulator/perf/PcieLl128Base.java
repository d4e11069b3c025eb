package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.AlgoChoice;
import dev.collsim.simulator.tuning.CostTable;
import dev.collsim.simulator.tuning.TimeTable;
import dev.collsim.topology.PathType;

/**
 * The part of NCCL's LL128 base latency ({@code baseLat[Tree|Ring][LL128]} = 14.0 us) that a one-host Tree or Ring
 * LL128 call over PCIe does not wait, in microseconds, which {@link PerformanceModel} takes off the call's latency.
 * Used for collsim's time prediction only; NCCL's choice and its own estimate keep NCCL's 14.0.
 *
 * <p>Why NCCL's figure is not a measurement there: NCCL enables LL128 by default only where the graph's intra-node
 * path is at most NVB ({@code pEnable &= (graphs[a]->typeIntra <= PATH_NVB)}, NCCL 2.30.7 {@code src/graph/tuning.cc
 * ncclTopoTuneModel} line 531, 2.28.9 line 493; the comment above it: LL128 is enabled "only on ... NVLink", "other
 * cases are not tested"). On PCIe paths LL128 runs only when NCCL_PROTO names it, so NCCL's base latency, one figure
 * for every hardware class, was never set by PCIe runs; NCCL's per-hop PCI figures (hwLat[PCI][Tree][LL128] 1.9,
 * hwLat[PCI][Ring][LL128] 2.5 us) are kept.
 *
 * <p>The base collsim charges, {@link #BASE_US}, is fitted: the forced LL128 runs of the FarmShare L40S files
 * (NCCL 2.29.2, PCIe Gen4, every pair over SHM), the Tree/LL128 sizes 8 B to 1 KiB where NCCL's latency is the whole
 * time: {@code A-allreduce-1x2xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt} run 5 (lines 198-205, 15.16-15.73
 * us) and {@code A-allreduce-1x4xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt} run 7 (lines 309-316, 22.96-24.03
 * us). The model with NCCL's 14.0 (launch 1.5 us, NCCL's hops 2 (nRanks - 1) x 1.9, the first call's launch skew
 * over 20 calls) says 19.74-19.90 and 27.78-27.97 us; the median of measured - predicted over the 16 points is
 * -4.46 us, so the base is 14.0 - 4.46 = 9.5 us (0.1 us grid; 10.0 with the former launch 1.0, the same fit). Per
 * file: 9.7 (2 ranks) and 9.3 (4 ranks); leave-one-file-out, each file's value predicts the other's points to
 * +1.7 % (4 ranks from 9.7) and -2.6 % (2 ranks from 9.3) at the median, against +24 % and +18 % with 14.0. The hops are not refitted: the 4-rank chain's four
 * more hops cost (23.10 - 0.88 - (15.46 - 0.44)) / 4 = 1.80 us each (median times less each run's launch skew), NCCL's
 * 1.9 within 0.1 us. One site, two hosts (oat-02, oat-04) and two rank counts: a PCIe host of another CPU or a
 * release with another LL128 kernel may differ. Applied to the one-host Ring too (NCCL's base is one figure for
 * both), which those Ring/LL128 points support though they were not fitted: from 64 KiB to 512 KiB, less launch,
 * skew, this base and the bytes at each run's 128 MiB rate (8.89 and 9.93 GB/s busbw), they leave 2.6-3.0 us a step
 * on 2 ranks and 2.1-2.7 on 4, about NCCL's hwLat[PCI][Ring][LL128] 2.5 (with 14.0 the steps would be 0.6-1.0 and
 * 1.4-2.0 us). The first Ring sizes, 16 and 32 KiB, leave 3.2-3.9 us a step and read 8-13 % fast. Stateless and
 * thread-safe.
 */
public final class PcieLl128Base {

    /** LL128's fixed cost per call on PCIe paths, microseconds (fitted, see the class note). */
    public static final double BASE_US = 9.5;

    private PcieLl128Base() {
    }

    /**
     * @param plan   the channel plan
     * @param table  NCCL's cost table of the communicator (its input: the base latency the time reads, {@link
     *               TimeTable#baseLatency})
     * @param choice NCCL's (algorithm, protocol)
     * @return microseconds of NCCL's latency (before {@link PerformanceParameters#latencyScale()}) the call does not
     *         wait: baseLat[a][LL128] - {@link #BASE_US}, >= 0; 0 where it does not apply ({@link #applies})
     */
    public static double overchargeUs(ChannelPlan plan, CostTable table, AlgoChoice choice) {
        if (!applies(plan, choice.algorithm(), choice.protocol())) {
            return 0;
        }
        return Math.max(0, TimeTable.baseLatency(table.input(), choice.algorithm(), Protocol.LL128) - BASE_US);
    }

    /**
     * @return true for LL128 Ring or Tree on one host of 2 or more ranks whose graph for the algorithm is a PCIe path
     *         (typeIntra beyond NVB: where NCCL does not enable LL128 by default)
     */
    static boolean applies(ChannelPlan plan, Algorithm a, Protocol p) {
        if (p != Protocol.LL128 || a != Algorithm.RING && a != Algorithm.TREE || plan.nNodes() != 1
                || plan.nRanks() < 2) {
            return false;
        }
        return !plan.graphs().graphFor(a).typeIntra().atMost(PathType.NVB);
    }
}
