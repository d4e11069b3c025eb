package dev.collsim.simulator.tuning;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Protocol;

/**
 * The LL and LL128 latencies collsim's <em>time</em> charges a run of NCCL 2.8-2.11 (and 2.4-2.7, which the 2.8.4
 * entry stands for) on Ampere or newer GPUs, and the Tree/Simple ones of 2.8-2.11 and 2.19-2.22 on any GPU: NCCL 2.18.5's {@code baseLat} and {@code hwLat} for Tree and Ring,
 * under the release's own latency formula ({@link NcclTuningModel}: its LL x1.8 intra-node latency on several nodes,
 * its ring steps, no network overhead). NCCL's choice keeps reading the release's own tables ({@link
 * EarlyTuningTables}): they are what that release picked its algorithm and protocol with.
 *
 * <p>Why. NCCL's tables are its estimate of the kernels' cost, measured on the GPUs of their time. The Tree and Ring
 * LL latencies of 2.8-2.17 (baseLat Tree 4.4, Ring 3.6 us, v2.8.4-1 and v2.17.1-1 {@code src/graph/tuning.cc} line
 * 56) are those of NCCL 2.5.6 (commit 299c554d, 2019-11-19), set before NCCL supported the A100 (2.7.3-1, commit
 * 5949d96f, 2020-05-12, "Add support for A100 GPU", which moved NVLink hwLat Tree/LL .5 to .52 and Ring/LL .4 to
 * .47, Ring/LL128 base 3.6 to 10.0, and kept the LL bases). 2.18.1-1 (commit d97a32fa, 2023-04-03) re-set them, one
 * table for every GPU: baseLat Tree 6.8 / 14.0, Ring 6.6 / 14.0 (LL / LL128), NVLink hwLat LL 0.6 for both, the
 * other LL and LL128 hwLat unchanged (v2.18.5-1 lines 56-57, 67-75); its release notes name no LL kernel change. The
 * measured runs of 2.8.4 say which GPUs each table fits (collsim's launch overhead 1.5 us added to NCCL's figure):
 * <ul>
 *   <li>A100 SXM4, one NVSwitch node, Ring/LL AllReduce of 8 B: 11.92 us on 4 ranks, 17.03 on 8
 *       (A-allreduce-1x4-1x8xA100-40GB-abci-anode-nccl2.8.txt lines 24, 67). Two sizes of ring, two unknowns:
 *       (17.03 - 11.92) / 8 = 0.64 us a step, 11.92 - 1.5 - 6 x 0.64 = 6.6 us base, 2.18's 0.6 and 6.6, where 2.8's
 *       0.47 and 3.6 give 7.92 and 11.68.</li>
 *   <li>The same nodes, 2 to 16 of them, Tree/LL of 8 B: 32.62, 42.03, 51.38, 61.68 us
 *       (A-allreduce-2to16x8xA100-40GB-abci-anode-hdr-nccl2.8.txt lines 36, 103, 202, 365); 2.8's table 29.0 to
 *       59.0 (-11 to -4 %), 2.18's constants in 2.8's formula 33.4 to 63.4 (+2 to +4 %), 2.18's formula (no x1.8)
 *       26.7 to 56.7.</li>
 *   <li>V100 SXM2, four a node over NVLink without a switch: Ring/LL of 8 B 8.19 us on 4 ranks
 *       (A-allreduce-1x4xV100-16GB-abci-vnode-nccl2.8.txt line 28), 2.8's table 7.92, 2.18's 11.7; Tree/LL on 4 to
 *       32 nodes 30.74 to 61.57 us (A-allreduce-2to32x4xV100-16GB-abci-vnode-edr-nccl2.8.txt lines 103-656), 2.8's
 *       table within 2.5 %. Volta keeps the release's table, which was measured on it.</li>
 * </ul>
 * Releases 2.12-2.17 have no entry and read 2.18.5's tables already ({@link NcclVersion#modelling}).
 *
 * <p>Tree/Simple of NCCL 2.19-2.22 and of 2.8-2.11: those releases set Tree/Simple {@code hwLat} to 28 us on every link
 * with base 0 (v2.19.4-1 and v2.22.3-1 {@code src/graph/tuning.cc} lines 57, 67, 71, 75; v2.8.4-1 lines 56, 65-69),
 * where 2.18 had 4 / 6 / 14 (NVLink / PCI / NET, v2.18.5-1 same lines) and 2.23 went back to 4 / 4 / 14 with base 8.4.
 * 28 is the figure NCCL's own comment gives for a whole 256 KB chunk's trip (v2.8.4-1 line 61: "~ base lat +
 * 256k/12GB/s"), on every link and GPU alike, not a small message's, and no 2.19 kernel or proxy change makes a small
 * Tree/Simple call slower. Two public runs of the same hardware say so: 2 x 8 A100 80GB on AWS p4de EFA under NCCL
 * 2.17.1 (A-allreduce-2x8xA100-80GB-aws-p4de-efa-parallelcluster-nccl2.17-excerpt.txt lines 34, 51, 55, 62: 174.2 us at
 * 8 B, 307.4 at 1 MiB, 1200.2 at 16 MiB, 25940 at 1 GiB) and under the 2.20.3 container
 * (A-allreduce-2x8xA100-80GB-aws-p4de-efa-slurm-awsome-distributed-training.txt lines 13, 30, 34, 40: 164.3, 309.4,
 * 1191.8, 26217), both Tree/Simple (aws-ofi-nccl's NCCL_PROTO=simple). 2.20.3's own table charges 2 x (7 + 1) x 28 =
 * 448 us at 8 B. The ABCI V100 EDR runs of 2.8.4 (A-allreduce-2to32x4xV100-16GB-abci-vnode-edr-nccl2.8.txt, Tree/Simple
 * at 2 MiB on 8, 16 and 32 nodes) spend about 100 us a tree level and far less than 2.8's 28 us on each NVLink hop
 * ({@code perf.TreeSimpleFill}). So the time of such a run reads 2.18.5's Tree/Simple latencies and charges the chunk's
 * fill hop by hop ({@code perf.TreeSimpleFill}); NCCL's choice keeps the release's 28. Unlike the LL entries, which
 * were measured on Volta and keep its own figures there, this holds on every GPU.
 *
 * <p>Stateless; package-private: {@link TimeTable} and {@link RootedRingLatency#rootedRingOneHopLatency} read it.
 */
final class RemeasuredLatency implements LatencyTable {

    /** The compute capability (x 10) from which the re-measured table applies: the A100's, sm80. */
    static final int FIRST_SM = 80;

    /** The release whose table re-measured the latencies (2.18.1-1; 2.18.5-1 has the same LL and LL128 entries). */
    static final NcclVersion REMEASURED = NcclVersion.V2_18_5;

    /** The first and last minor releases whose Tree/Simple hwLat is the 28 us chunk figure (class comment). */
    static final int FIRST_CHUNK_TREE_SIMPLE_MINOR = 19;
    static final int LAST_CHUNK_TREE_SIMPLE_MINOR = 22;

    private final TuningConstants own;
    private final boolean llToo;
    private final TuningConstants newer = TuningConstants.of(REMEASURED);

    private RemeasuredLatency(TuningConstants own, boolean llToo) {
        this.own = own;
        this.llToo = llToo;
    }

    /**
     * @param c a release's tables
     * @return true for 2.19-2.22, whose Tree/Simple hwLat is NCCL's 28 us chunk figure on every link (class comment)
     */
    static boolean chunkTreeSimple(TuningConstants c) {
        int minor = c.version().minor();
        return minor >= FIRST_CHUNK_TREE_SIMPLE_MINOR && minor <= LAST_CHUNK_TREE_SIMPLE_MINOR;
    }

    /**
     * @param c a release's tables
     * @return true where its Tree/Simple hwLat is the 28 us chunk figure on every link: 2.19-2.22 ({@link
     *         #chunkTreeSimple}) and the releases before 2.12 ({@link ReleaseRules#early}: the 2.8.4 entry's table,
     *         v2.8.4-1 {@code src/graph/tuning.cc} lines 61-69), on any GPU (class comment, "Tree/Simple")
     */
    static boolean chunkHopTreeSimple(TuningConstants c) {
        return chunkTreeSimple(c) || c.rules().early();
    }

    /**
     * @param in a communicator
     * @return true when its time reads the re-measured LL and LL128 latencies: a release before 2.12 ({@link
     *         ReleaseRules#early}) on GPUs all sm80 or newer
     */
    static boolean applies(TuningInput in) {
        return in.constants().rules().early() && in.minSm() >= FIRST_SM;
    }

    /**
     * @param in a communicator
     * @return the latency tables its time reads: the re-measured ones where any entry is replaced ({@link #applies},
     *         {@link #chunkHopTreeSimple}), else the release's own
     */
    static LatencyTable forTime(TuningInput in) {
        return applies(in) || chunkHopTreeSimple(in.constants())
                ? new RemeasuredLatency(in.constants(), applies(in)) : in.constants();
    }

    /**
     * @param in a communicator
     * @param a  algorithm
     * @param p  protocol
     * @return true for the entries its time reads from 2.18.5: Tree and Ring LL and LL128 before 2.12 on sm80 or
     *         newer ({@link #applies}), Tree/Simple before 2.12 and in 2.19-2.22 on any GPU
     */
    static boolean replaces(TuningInput in, Algorithm a, Protocol p) {
        return replaces(in.constants(), applies(in), a, p);
    }

    private static boolean replaces(TuningConstants c, boolean llToo, Algorithm a, Protocol p) {
        if (a == Algorithm.TREE && p == Protocol.SIMPLE) {
            return chunkHopTreeSimple(c);
        }
        return llToo && (a == Algorithm.TREE || a == Algorithm.RING) && p != Protocol.SIMPLE;
    }

    @Override
    public double baseLatency(Algorithm a, Protocol p) {
        return replaces(own, llToo, a, p) ? newer.baseLatency(a, p) : own.baseLatency(a, p);
    }

    @Override
    public double hwLatency(HardwareClass hw, Algorithm a, Protocol p) {
        return replaces(own, llToo, a, p) ? newer.hwLatency(hw, a, p) : own.hwLatency(hw, a, p);
    }
}
