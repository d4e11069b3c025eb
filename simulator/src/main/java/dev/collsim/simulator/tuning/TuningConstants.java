package dev.collsim.simulator.tuning;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Protocol;
import java.util.Arrays;
import java.util.Objects;

/**
 * The constant tables of NCCL's tuning model for one NCCL release ({@code ncclTunerConstantsDefaults}, NCCL 2.30.7
 * {@code src/graph/tuning.cc}; the 2.28.9 differences read from the same file at tag {@code v2.28.9-1}).
 * Latencies are in microseconds, bandwidths in GB/s (1e9 B/s). Tables indexed by node count use NCCL's
 * {@code index2}: 0 for one host ("N1"), 1 for two ("N2"), 2 for three or more ("N4").
 *
 * <p>This class is immutable: accessors return values, never the arrays.
 */
public final class TuningConstants {

    private static final int NP = Protocol.values().length;

    // Base latency, us, [algorithm][protocol] (NCCL 2.30.7 src/graph/tuning.cc baseLat; same in 2.28.9).
    private static final double[][] BASE_LAT = {
        {6.8, 14.0, 8.4}, {6.6, 14.0, 8.4}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {8.0, 8.0, 8.0}};

    // Per-step hardware latency, us, [hw][algorithm][protocol] (NCCL 2.30.7 src/graph/tuning.cc hwLat).
    private static final double[][][] HW_LAT = {
        {{0.6, 1.25, 4.0}, {0.6, 1.9, 3.4}, {0, 0, 3.7}, {0, 0, 2.8}, {0, 0, 25}, {0, 0, 25}, {0, 0, 4.0}},
        {{1.0, 1.9, 4.0}, {1.0, 2.5, 5.7}, {0, 0, 3.7}, {0, 0, 2.8}, {0, 0, 0}, {0, 0, 0}, {0, 0, 4.0}},
        {{5.0, 8.5, 14}, {2.7, 4.0, 14.0}, {0, 0, 31}, {0, 0, 30}, {0, 0, 18}, {0, 0, 20.9}, {0, 0, 14}}};

    // LL max bandwidth, GB/s total, [row][index2]; row = generation (1 host) or CPU vendor (Intel 0, AMD 1).
    private static final double[][] LL_MAX_BW = {
        {39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {141.0, 45.0, 35.0}, {282.0, 90.0, 70.0}};

    // Tree/LL128 per-channel cap, GB/s, [generation][index2] (identical in 2.28.9 and 2.30.7).
    private static final double[][] TREE_LL128_CAP = {
        {20, 20, 20}, {20, 20, 20}, {36.7, 36.7, 29.0}, {55.6, 31.67, 20.0}};

    // NVLS efficiency per generation (NCCL 2.30.7 src/graph/tuning.cc nvlsEfficiency).
    private static final double[] NVLS_EFFICIENCY = {0, 0, 0.85, 0.74};

    // Tree correction factors [protocol][floor(log2(bytes/64))], 24 columns in 2.30.7.
    private static final double[][] TREE_CORRECTION_24 = {
        {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0},
        {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0, 1.0},
        {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9}};

    /** NCCL 2.30.7 constants (NCCL 2.30.7 {@code src/graph/tuning.cc}). */
    public static final TuningConstants NCCL_2_30_7 = new TuningConstants(NcclVersion.V2_30_7,
            new double[][] {{20, 20, 20}, {20, 20, 20}, {36.7, 36.7, 36.7}, {40, 40, 40}},
            new double[][] {{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {70.0, 42.8, 24.0}},
            new double[][] {{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {0, 57.7, 45.5}, {0, 96.0, 80.0}},
            treeCorrection(24), true);

    /**
     * NCCL 2.28.9 constants: as 2.30.7 except the Blackwell Ring/LL128 per-channel cap (73.4/34.6/73.4), the
     * Blackwell NVLSTree N4 cap (43.8), and a 23-column tree correction table without the NVLSTree correction
     * (NCCL 2.28.9 {@code src/graph/tuning.cc}).
     */
    public static final TuningConstants NCCL_2_28_9 = new TuningConstants(NcclVersion.V2_28_9,
            new double[][] {{20, 20, 20}, {20, 20, 20}, {36.7, 36.7, 36.7}, {73.4, 34.6, 73.4}},
            new double[][] {{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {70.0, 42.8, 24.0}},
            new double[][] {{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {0, 57.7, 45.5}, {0, 96.0, 43.8}},
            treeCorrection(23), false);

    private final NcclVersion version;
    private final double[][] ringLl128Cap;
    private final double[][] treeCap;
    private final double[][] nvlsTreeCap;
    private final double[][] treeCorrection;
    private final boolean nvlsTreeCorrection;

    // tables are [generation: Volta, Ampere, Hopper, Blackwell][index2: N1, N2, N4]
    private TuningConstants(NcclVersion version, double[][] ringLl128Cap, double[][] treeCap,
            double[][] nvlsTreeCap, double[][] treeCorrection, boolean nvlsTreeCorrection) {
        this.version = version;
        this.ringLl128Cap = ringLl128Cap;
        this.treeCap = treeCap;
        this.nvlsTreeCap = nvlsTreeCap;
        this.treeCorrection = treeCorrection;
        this.nvlsTreeCorrection = nvlsTreeCorrection;
    }

    private static double[][] treeCorrection(int columns) {
        double[][] t = new double[NP][];
        for (int p = 0; p < NP; p++) {
            t[p] = Arrays.copyOf(TREE_CORRECTION_24[p], columns);
        }
        return t;
    }

    /**
     * @param version the NCCL release
     * @return that release's constants
     */
    public static TuningConstants of(NcclVersion version) {
        return Objects.requireNonNull(version, "version") == NcclVersion.V2_28_9 ? NCCL_2_28_9 : NCCL_2_30_7;
    }

    /** @return the NCCL release these constants come from */
    public NcclVersion version() {
        return version;
    }

    /** @return base latency of an algorithm and protocol, microseconds ({@code baseLat}) */
    public double baseLatency(Algorithm a, Protocol p) {
        return BASE_LAT[a.ordinal()][p.ordinal()];
    }

    /** @return per-step hardware latency, microseconds ({@code hwLat}) */
    public double hwLatency(HardwareClass hw, Algorithm a, Protocol p) {
        return HW_LAT[hw.ordinal()][a.ordinal()][p.ordinal()];
    }

    /**
     * LL maximum bandwidth ({@code llMaxBws}), GB/s for the whole communicator.
     *
     * @param row        0..3: the generation index on one host, else 0 for Intel/other CPUs and 1 for AMD
     * @param nodesIndex 0 (1 host), 1 (2 hosts) or 2 (3 or more)
     * @return the bandwidth, GB/s
     */
    public double llMaxBw(int row, int nodesIndex) {
        return LL_MAX_BW[row][nodesIndex];
    }

    /** @return Ring/LL128 per-channel cap ({@code perChMaxRingLL128Bws}), GB/s */
    public double perChMaxRingLl128Bw(GpuGeneration g, int nodesIndex) {
        return ringLl128Cap[g.ordinal()][nodesIndex];
    }

    /** @return Tree/LL128 per-channel cap ({@code perChMaxTreeLL128Bws}), GB/s */
    public double perChMaxTreeLl128Bw(GpuGeneration g, int nodesIndex) {
        return TREE_LL128_CAP[g.ordinal()][nodesIndex];
    }

    /** @return Tree per-channel cap ({@code perChMaxTreeBws}), GB/s */
    public double perChMaxTreeBw(GpuGeneration g, int nodesIndex) {
        return treeCap[g.ordinal()][nodesIndex];
    }

    /** @return NVLSTree per-channel cap ({@code perChMaxNVLSTreeBws}), GB/s */
    public double perChMaxNvlsTreeBw(GpuGeneration g, int nodesIndex) {
        return nvlsTreeCap[g.ordinal()][nodesIndex];
    }

    /** @return NVLS efficiency ({@code nvlsEfficiency}), dimensionless */
    public double nvlsEfficiency(GpuGeneration g) {
        return NVLS_EFFICIENCY[g.ordinal()];
    }

    /** @return number of columns of the tree correction table (24 in 2.30.7, 23 in 2.28.9) */
    public int treeCorrectionColumns() {
        return treeCorrection[0].length;
    }

    /**
     * @param p        protocol
     * @param logSize  floor(log2(nBytes / 64)), in [0, {@link #treeCorrectionColumns()})
     * @return the tree correction factor ({@code treeCorrectionFactor})
     */
    public double treeCorrection(Protocol p, int logSize) {
        return treeCorrection[p.ordinal()][logSize];
    }

    /** @return true when NVLSTree AllReduce also gets the tree correction (sm100+, x86; 2.30 only) */
    public boolean nvlsTreeCorrection() {
        return nvlsTreeCorrection;
    }

    /**
     * Network overhead per inter-host ring step ({@code getNetOverhead}), microseconds, before the x3 for Simple.
     *
     * @param cpu the CPU kind
     * @return 2.0 for AMD x86, 1.0 otherwise
     */
    public double netOverhead(CpuKind cpu) {
        return cpu == CpuKind.AMD_X86 ? 2.0 : 1.0;
    }

    /** Per-arity serialization latency of CollNetDirect, microseconds (NCCL 2.30.7 {@code tuning.cc}). */
    public static final double COLLNET_ARITY_SERIAL_US = 0.4;

    /** Ring LL128 efficiency factor, standing for 120/128 (NCCL 2.30.7 {@code tuning.cc}). */
    public static final double LL128_EFFICIENCY = 0.92;

    /** Ring/Simple plateau latency multiplier below sm80 and from sm80 (NCCL 2.30.7 {@code tuning.cc}). */
    public static final double[] RING_PLATEAU_FACTOR = {1.9, 1.4};

    /** Aggregation batch for non-ring latency counts, {@code NCCL_MAX_DEV_WORK_BATCH_COLLS} (1024 B / 128 B). */
    public static final int MAX_DEV_WORK_BATCH_COLLS = 8;

    @Override
    public String toString() {
        return "TuningConstants[NCCL " + version.text() + "]";
    }
}
