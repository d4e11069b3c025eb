package dev.collsim.simulator.tuning;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;

/**
 * The tables of {@code ncclTopoTuneModel} in NCCL 2.8 to 2.11, which the {@link NcclVersion#V2_8_4} (2.8-2.9) and
 * {@link NcclVersion#V2_10_3} (2.10-2.11) entries read where 2.28.9's differ ({@code git show
 * v2.8.4-1:src/graph/tuning.cc}, compared with v2.8.3-1, v2.9.6-1, v2.9.9-1, v2.10.3-1 and v2.11.4-1; the line numbers
 * are those of v2.8.4-1 unless a tag is named). NCCL 2.8-2.11 know three algorithms (Tree, Ring, one CollNet) and
 * two compute capability rows, chosen by {@code compCap80} ({@code minCompCap == 80 && maxCompCap == 80}): every
 * other GPU, Hopper and sm86 included, reads the first (Volta) row. Latencies in microseconds, bandwidths in GB/s
 * (1e9 B/s). 2.8.3-1 and 2.8.4-1 are the same file; 2.9.x changes CollNet only; 2.10.3-1 and 2.11.4-1 are the same.
 *
 * <p>Stateless; package-private: {@link TuningConstants} and {@link ReleaseRules} read it.
 */
final class EarlyTuningTables {

    /** First NCCL 2 minor release of the 2.10.3 entry, whose LL128 cap, tree caps and CollNet differ from 2.8's. */
    static final int V2_10 = 10;

    /** {@code baseLat} [Tree, Ring, CollNet][LL, LL128, Simple], us (line 56; the same at v2.11.4-1 line 56). */
    private static final double[][] BASE_LAT = {{4.4, 4.4, 0}, {3.6, 10.0, 8.4}, {4.4, 4.4, 0}};

    /**
     * {@code hwLat} [NVLink, PCI, NET][Tree, Ring, CollNet][LL, LL128, Simple], us (lines 63-70). CollNet/Simple on
     * NVLink and PCI is 4.0 and 5.5 to 2.9, 8.0 and 8.0 from v2.10.3-1 (lines 65, 67): {@link #COLLNET_SIMPLE_2_10}.
     */
    private static final double[][][] HW_LAT = {
        {{.52, 1.25, 28}, {.47, 1.9, 3.4}, {.5, 1.2, 4.0}},
        {{1.0, 1.9, 28}, {1.0, 2.5, 5.7}, {1.0, 1.9, 5.5}},
        {{5.0, 8.5, 28}, {2.7, 4.0, 9.6}, {5.0, 5.0, 10.7}}};

    /** CollNet/Simple hwLat from 2.10 [NVLink, PCI, NET], us (v2.10.3-1 lines 65, 67, 69). */
    private static final double[] COLLNET_SIMPLE_2_10 = {8.0, 8.0, 10.7};

    /**
     * {@code ll128MaxBwPerCh} to 2.9, GB/s per channel, in NCCL's function order Broadcast, Reduce, AllGather,
     * ReduceScatter, AllReduce (line 74), for Ring/LL128 and Tree/LL128 on every GPU.
     */
    private static final double[] LL128_MAX_BW_PER_CH = {18.8, 12.0, 18.3, 15.2, 16.9};

    /** {@code ll128MaxBwPerCh} from 2.10, one figure for every function and GPU, GB/s (v2.10.3-1 line 73). */
    private static final double LL128_MAX_BW_PER_CH_2_10 = 20.0;

    /** {@code llMaxBws} [Volta-N1 / Intel, Ampere-N1 / AMD][index2], GB/s (line 75; v2.10.3-1 line 74). */
    private static final double[][] LL_MAX_BWS = {{39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}};

    /** {@code perChMaxTreeBws} [Volta, Ampere][index2] to 2.9, GB/s (line 76). */
    private static final double[][] TREE_BWS = {{26.5, 18.5, 10.0}, {24.0, 22.5, 16.0}};

    /** {@code perChMaxTreeBws} from 2.10, GB/s (v2.10.3-1 line 75). */
    private static final double[][] TREE_BWS_2_10 = {{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}};

    /**
     * {@code treeCorrectionFactor}'s LL128 row to 2.9 (line 267; 23 columns, 64 B to 256 MiB); the LL and Simple rows,
     * and from v2.10.3-1 (line 269) the LL128 row too, are 2.28.9's.
     */
    static final double[] TREE_CORRECTION_LL128 = {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .5, .6,
        .6, .7, .7, .8, .9, .9, .92, .92};

    /** {@code if (compCap80) busBw = std::min(busBw, 235.0f)}: any algorithm's busBw on sm80, GB/s (line 124). */
    static final double SM80_BUS_BW_CAP = 235.0;

    /** Tree/LL128 share of the bus bandwidth on several nodes to 2.9, {@code 0.915} (line 129; 120/128 from 2.10). */
    static final double TREE_LL128_MULTI_NODE_2_8 = 0.915;

    /** CollNet bus bandwidth factor to 2.9, {@code busBw *= .9} (line 130, v2.9.6-1 line 132; none from 2.10). */
    static final double COLLNET_FACTOR_2_8 = 0.9;

    /** LL's intra-node latency on several nodes: {@code if (nNodes > 1 && p == LL) intraLat *= 1.8} (line 141). */
    static final double LL_MULTI_NODE_INTRA_FACTOR = 1.8;

    /**
     * Ring/Simple AllReduce plateau on several nodes: {@code lat *= 1.9} on every GPU once {@code nBytes >=
     * nRanks/16.0*65536} ({@code ncclTopoGetAlgoTime}, line 281; v2.11.4-1 line 283).
     */
    static final double RING_PLATEAU_FACTOR = 1.9;

    private EarlyTuningTables() {
    }

    /**
     * @param minSm minimum compute capability x 10
     * @param maxSm maximum compute capability x 10
     * @return NCCL's {@code compCap80} row index: 1 when every GPU is sm80, else 0 (line 93)
     */
    static int compCap80(int minSm, int maxSm) {
        return minSm == 80 && maxSm == 80 ? 1 : 0;
    }

    /**
     * @param a algorithm (CollNetDirect and CollNetChain read NCCL's one CollNet row)
     * @param p protocol
     * @return {@code baseLat}, us; 0 for an algorithm 2.8-2.11 do not have
     */
    static double baseLat(Algorithm a, Protocol p) {
        int row = row(a);
        return row < 0 ? 0 : BASE_LAT[row][p.ordinal()];
    }

    /**
     * @param hw    link class
     * @param a     algorithm
     * @param p     protocol
     * @param minor the entry's NCCL 2 minor release
     * @return {@code hwLat}, us; 0 for an algorithm 2.8-2.11 do not have
     */
    static double hwLat(HardwareClass hw, Algorithm a, Protocol p, int minor) {
        int row = row(a);
        if (row < 0) {
            return 0;
        }
        if (row == 2 && p == Protocol.SIMPLE && minor >= V2_10) {
            return COLLNET_SIMPLE_2_10[hw.ordinal()];
        }
        return HW_LAT[hw.ordinal()][row][p.ordinal()];
    }

    /**
     * @param func  the function
     * @param minor the entry's NCCL 2 minor release
     * @return {@code ll128MaxBwPerCh}: Ring/LL128 and Tree/LL128 cap per channel, GB/s
     */
    static double ll128MaxBwPerCh(Collective func, int minor) {
        if (minor >= V2_10) {
            return LL128_MAX_BW_PER_CH_2_10;
        }
        return LL128_MAX_BW_PER_CH[NcclTuningModel.FUNCTIONS.indexOf(func)];
    }

    /**
     * @param row        {@link #compCap80} on one host, else 0 for Intel and other CPUs, 1 for AMD
     * @param nodesIndex NCCL's index2
     * @return {@code llMaxBws}, GB/s
     */
    static double llMaxBw(int row, int nodesIndex) {
        return LL_MAX_BWS[row][nodesIndex];
    }

    /**
     * @param compCap80  {@link #compCap80}
     * @param nodesIndex NCCL's index2
     * @param minor      the entry's NCCL 2 minor release
     * @return {@code perChMaxTreeBws}, GB/s per channel
     */
    static double perChMaxTreeBw(int compCap80, int nodesIndex, int minor) {
        return (minor >= V2_10 ? TREE_BWS_2_10 : TREE_BWS)[compCap80][nodesIndex];
    }

    private static int row(Algorithm a) {
        return switch (a) {
            case TREE -> 0;
            case RING -> 1;
            case COLLNET_DIRECT, COLLNET_CHAIN -> 2;
            default -> -1;
        };
    }
}
