package dev.collsim.simulator.tuning;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The constant tables of NCCL's tuning model for one NCCL release ({@code ncclTunerConstantsDefaults}, NCCL 2.30.7
 * {@code src/graph/tuning.cc}; the 2.28.9 differences read from the same file at tag {@code v2.28.9-1}).
 * Latencies are in microseconds, bandwidths in GB/s (1e9 B/s). Tables indexed by node count use NCCL's
 * {@code index2}: 0 for one host ("N1"), 1 for two ("N2"), 2 for three or more ("N4"). An older release
 * ({@link NcclVersion}) has 2.28.9's tables except the entries its own {@code tuning.cc} gives otherwise (methods
 * below); its rules that are not tables are {@link #rules()}.
 *
 * <p>This class is immutable: accessors return values, never the arrays.
 */
public final class TuningConstants implements LatencyTable {

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

    /** Every release's constants, made once at class initialization ({@link #of}); after the two above. */
    private static final Map<NcclVersion, TuningConstants> BY_VERSION = byVersion();

    private final NcclVersion version;
    private final double[][] ringLl128Cap;
    private final double[][] treeCap;
    private final double[][] nvlsTreeCap;
    private final double[][] treeCorrection;
    private final boolean nvlsTreeCorrection;
    private final ReleaseRules rules;
    private final int runMinor;

    // tables are [generation: Volta, Ampere, Hopper, Blackwell][index2: N1, N2, N4]
    private TuningConstants(NcclVersion version, double[][] ringLl128Cap, double[][] treeCap,
            double[][] nvlsTreeCap, double[][] treeCorrection, boolean nvlsTreeCorrection) {
        this.version = version;
        this.ringLl128Cap = ringLl128Cap;
        this.treeCap = treeCap;
        this.nvlsTreeCap = nvlsTreeCap;
        this.treeCorrection = treeCorrection;
        this.nvlsTreeCorrection = nvlsTreeCorrection;
        this.rules = new ReleaseRules(version);
        this.runMinor = version.minor();
    }

    private TuningConstants(TuningConstants base, ReleaseRules rules, int runMinor) {
        this.version = base.version;
        this.ringLl128Cap = base.ringLl128Cap;
        this.treeCap = base.treeCap;
        this.nvlsTreeCap = base.nvlsTreeCap;
        this.treeCorrection = base.treeCorrection;
        this.nvlsTreeCorrection = base.nvlsTreeCorrection;
        this.rules = rules;
        this.runMinor = runMinor;
    }

    /**
     * These constants for a run of an NCCL release older than this entry's first: the same tables under
     * {@link ReleaseRules#ReleaseRules(NcclVersion, int)}.
     *
     * @param runMinor the run's NCCL 2 minor release, e.g. 8 for 2.8.4
     * @return this for the entry's own release, else a copy for the run (older: its rules; 2.29: {@link #runMinor})
     */
    public TuningConstants forRun(int runMinor) {
        return runMinor == version.minor() || runMinor > version.minor() && version.minor() == version.last() ? this
                : new TuningConstants(this, new ReleaseRules(version, runMinor), Math.min(runMinor, version.last()));
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
        return BY_VERSION.get(Objects.requireNonNull(version, "version"));
    }

    /**
     * @return one instance per release, made once: 2.28.9 and 2.30.7 their own constants, every older entry 2.28.9's
     *         tables under its own version (its release-conditional rules are the rules' methods, keyed on it; 2.8-2.11
     *         read {@link EarlyTuningTables} in the accessors, and 2.8-2.9 its LL128 tree correction row)
     */
    private static Map<NcclVersion, TuningConstants> byVersion() {
        Map<NcclVersion, TuningConstants> m = new EnumMap<>(NcclVersion.class);
        for (NcclVersion v : NcclVersion.values()) {
            TuningConstants t = NCCL_2_28_9;
            double[][] correction = t.treeCorrection;
            if (v.minor() < EarlyTuningTables.V2_10) {
                correction = treeCorrection(23);
                correction[Protocol.LL128.ordinal()] = EarlyTuningTables.TREE_CORRECTION_LL128.clone();
            }
            m.put(v, v == NcclVersion.V2_28_9 ? NCCL_2_28_9 : v.carriedWhole() ? NCCL_2_30_7
                    : new TuningConstants(v, t.ringLl128Cap, t.treeCap, t.nvlsTreeCap, correction, false));
        }
        return Collections.unmodifiableMap(m);
    }

    /** @return the NCCL release these constants come from */
    public NcclVersion version() {
        return version;
    }

    /**
     * @return base latency of an algorithm and protocol, microseconds ({@code baseLat}); Tree/Simple is 0 up to
     *         2.22 (see {@link #treeSimpleBaseLatency}); NVLS and NVLSTree 23 in 2.18 (v2.18.5-1 line 59), 0 after;
     *         2.8-2.11's own table ({@link EarlyTuningTables})
     */
    @Override
    public double baseLatency(Algorithm a, Protocol p) {
        if (rules.early()) {
            return EarlyTuningTables.baseLat(a, p);
        }
        if (a == Algorithm.TREE && p == Protocol.SIMPLE) {
            return treeSimpleBaseLatency(BASE_LAT[a.ordinal()][p.ordinal()]);
        }
        if ((a == Algorithm.NVLS || a == Algorithm.NVLS_TREE) && p == Protocol.SIMPLE && minor() <= 18) {
            return 23.0; // v2.18.5-1 line 59; 0 from v2.19.4-1 line 59
        }
        return BASE_LAT[a.ordinal()][p.ordinal()];
    }

    /**
     * @return per-step hardware latency, microseconds ({@code hwLat}); Tree/Simple per release up to 2.22
     *         (see {@link #treeSimpleHwLatency}), NVLS and NVLSTree up to 2.27 ({@link #olderNvlsHwLatency}),
     *         CollNetDirect and CollNetChain in 2.18 (NVLink 8.0 / 4.75, PCI 8 / 8, NET 10.7 / 14; 3.7 / 2.8,
     *         3.7 / 2.8, 31 / 30 from 2.19, v2.19.4-1 lines 68, 72, 76); 2.8-2.11's own table ({@link
     *         EarlyTuningTables}: Tree/Simple 28 on every link, Ring/Simple NET 9.6)
     */
    @Override
    public double hwLatency(HardwareClass hw, Algorithm a, Protocol p) {
        if (rules.early()) {
            return EarlyTuningTables.hwLat(hw, a, p, minor());
        }
        if (a == Algorithm.TREE && p == Protocol.SIMPLE) {
            return treeSimpleHwLatency(hw, HW_LAT[hw.ordinal()][a.ordinal()][p.ordinal()]);
        }
        if ((a == Algorithm.COLLNET_DIRECT || a == Algorithm.COLLNET_CHAIN) && p == Protocol.SIMPLE && minor() <= 18) {
            return COLLNET_HW_LAT_2_18[hw.ordinal()][a == Algorithm.COLLNET_DIRECT ? 0 : 1];
        }
        if ((a == Algorithm.NVLS || a == Algorithm.NVLS_TREE) && p == Protocol.SIMPLE && !version.carriedWhole()) {
            return olderNvlsHwLatency(hw, a, HW_LAT[hw.ordinal()][a.ordinal()][p.ordinal()]);
        }
        return HW_LAT[hw.ordinal()][a.ordinal()][p.ordinal()];
    }

    /**
     * LL maximum bandwidth ({@code llMaxBws}), GB/s for the whole communicator.
     *
     * @param row        0..3: the generation index on one host ({@link #tableGeneration}), else 0 for Intel/other
     *                   CPUs and 1 for AMD
     * @param nodesIndex 0 (1 host), 1 (2 hosts) or 2 (3 or more)
     * @return the bandwidth, GB/s
     */
    public double llMaxBw(int row, int nodesIndex) {
        return rules.early() ? EarlyTuningTables.llMaxBw(row, nodesIndex) : olderLlMaxBw(row, nodesIndex);
    }

    /**
     * The generation row NCCL reads its per-GPU tables at: {@link GpuGeneration#of} the minimum compute capability,
     * but in 2.8-2.11 Ampere only when every GPU is sm80 ({@code compCap80}), else Volta (Hopper and sm86 included;
     * v2.8.4-1 lines 93, 98, 100).
     *
     * @param minSm minimum compute capability x 10
     * @param maxSm maximum compute capability x 10
     * @return the row of llMaxBws (one host) and the per-channel caps
     */
    public GpuGeneration tableGeneration(int minSm, int maxSm) {
        if (rules.early()) {
            return EarlyTuningTables.compCap80(minSm, maxSm) == 1 ? GpuGeneration.AMPERE : GpuGeneration.VOLTA;
        }
        return GpuGeneration.of(minSm);
    }

    /**
     * @return the cap on any algorithm's bus bandwidth before its refinements, GB/s: 235 on sm80 in 2.8-2.11
     *         ({@link EarlyTuningTables#SM80_BUS_BW_CAP}), else none (infinite)
     */
    public double busBwCap(int minSm, int maxSm) {
        return rules.early() && EarlyTuningTables.compCap80(minSm, maxSm) == 1 ? EarlyTuningTables.SM80_BUS_BW_CAP
                : Double.POSITIVE_INFINITY;
    }

    /**
     * @return Ring/LL128 per-channel cap ({@code perChMaxRingLL128Bws}), GB/s; 2.8-2.11 {@code ll128MaxBwPerCh},
     *         per function to 2.9 ({@link EarlyTuningTables#ll128MaxBwPerCh})
     */
    public double perChMaxRingLl128Bw(Collective func, GpuGeneration g, int nodesIndex) {
        return rules.early() ? EarlyTuningTables.ll128MaxBwPerCh(func, minor())
                : blackwellCap(g, nodesIndex, ringLl128Cap);
    }

    /** @return Tree/LL128 per-channel cap ({@code perChMaxTreeLL128Bws}), GB/s; 2.8-2.11 as Ring/LL128's */
    public double perChMaxTreeLl128Bw(Collective func, GpuGeneration g, int nodesIndex) {
        return rules.early() ? EarlyTuningTables.ll128MaxBwPerCh(func, minor())
                : blackwellCap(g, nodesIndex, TREE_LL128_CAP);
    }

    /** @return Tree per-channel cap ({@code perChMaxTreeBws}), GB/s; g from {@link #tableGeneration} */
    public double perChMaxTreeBw(GpuGeneration g, int nodesIndex) {
        return rules.early() ? EarlyTuningTables.perChMaxTreeBw(g.ordinal(), nodesIndex, minor())
                : blackwellCap(g, nodesIndex, treeCap);
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

    // CollNetDirect, CollNetChain hwLat (Simple) of 2.18, us, [NVLink, PCI, NET] (v2.18.5-1 lines 68, 72, 76)
    private static final double[][] COLLNET_HW_LAT_2_18 = {{8.0, 4.75}, {8.0, 8.0}, {10.7, 14}};

    /**
     * @return CollNetDirect's per-arity serialization latency, microseconds: 0.5 in 2.18 (v2.18.5-1 line 232), 0.4
     *         from 2.19 (v2.19.4-1 line 236, {@link #COLLNET_ARITY_SERIAL_US})
     */
    public double collNetArityUs() {
        return minor() <= 18 ? 0.5 : COLLNET_ARITY_SERIAL_US;
    }

    /** Ring LL128 efficiency factor, standing for 120/128 (NCCL 2.30.7 {@code tuning.cc}). */
    public static final double LL128_EFFICIENCY = 0.92;

    /** Ring/Simple plateau latency multiplier below sm80 and from sm80 (NCCL 2.30.7 {@code tuning.cc}). */
    public static final double[] RING_PLATEAU_FACTOR = {1.9, 1.4};

    /** Aggregation batch for non-ring latency counts, {@code NCCL_MAX_DEV_WORK_BATCH_COLLS} (1024 B / 128 B). */
    public static final int MAX_DEV_WORK_BATCH_COLLS = 8;

    // ---- tables of releases before 2.28 (docs/nccl-releases.md; the other rules are ReleaseRules') ----

    private int minor() {
        return version.minor();
    }

    /** @return the run's NCCL 2 minor release, at most the newest of the entry's range (29 for 2.28.9) */
    public int runMinor() {
        return runMinor;
    }

    /** @return the release's rules that are not tables ({@link ReleaseRules}) */
    public ReleaseRules rules() {
        return rules;
    }

    /**
     * NVLS and NVLSTree hwLat (Simple) before 2.28. NVLink: 0 in 2.18, whose NVLS latency is its baseLat of 23
     * (v2.18.5-1 line 69); 23 in 2.19-2.20 (v2.19.4-1, v2.20.5-1 line 69); 25 from 2.21 (v2.21.5-1 line 69, v2.27.3-1
     * line 147). NET NVLSTree: 19 in 2.18 (v2.18.5-1 line 77); 14 in 2.19-2.27 (v2.19.4-1 line 77, v2.27.3-1 line
     * 155); 20.9 from 2.28 (v2.28.9-1 line 165). NET NVLS 18 and PCI 0 at every tag read.
     */
    private double olderNvlsHwLatency(HardwareClass hw, Algorithm a, double newer) {
        if (hw == HardwareClass.NVLINK) {
            return minor() <= 18 ? 0 : minor() <= 20 ? 23 : newer;
        }
        if (hw == HardwareClass.NET && a == Algorithm.NVLS_TREE) {
            return minor() <= 18 ? 19 : 14;
        }
        return newer;
    }

    private double treeSimpleBaseLatency(double newer) {
        return minor() <= 22 ? 0 : newer;
    }

    /**
     * Tree/Simple hwLat: 2.18 NVLink 4, PCI 6, NET 14 us (v2.18.5-1 lines 67, 71, 75); 2.19-2.22 28 us on each
     * (v2.19.4-1, v2.22.3-1 lines 67, 71, 75); from 2.23 4, 4, 14 (v2.23.4-1 same lines, v2.28.9-1 lines 151-163).
     * Base latency 0 up to 2.22 (v2.22.3-1 line 57), 8.4 from 2.23 (v2.23.4-1 line 57, {@code baseLat[Tree][Simple]}).
     */
    private double treeSimpleHwLatency(HardwareClass hw, double newer) {
        if (minor() > 22) {
            return newer;
        }
        return minor() >= 19 ? 28 : hw == HardwareClass.PCI ? 6 : newer;
    }

    /**
     * llMaxBws rows of older releases (one host only; more hosts use the CPU rows, unchanged): Hopper {87.7, 22.5,
     * 19.0} up to 2.20 (v2.18.5-1, v2.20.5-1 line 89), 141 from 2.21 (v2.21.5-1 line 89); no Blackwell row before
     * 2.25, where Blackwell takes Hopper's ({@code compCapIndex} stops at HOPPER_COMPCAP_IDX, v2.24.3-1).
     */
    private double olderLlMaxBw(int row, int nodesIndex) {
        int r = row == GpuGeneration.BLACKWELL.ordinal() && minor() <= 24 ? GpuGeneration.HOPPER.ordinal() : row;
        r = r == GpuGeneration.HOPPER.ordinal() && minor() <= 20 ? GpuGeneration.AMPERE.ordinal() : r;
        return LL_MAX_BW[r][nodesIndex];
    }

    /**
     * Blackwell per-channel caps of older releases: Hopper's up to 2.24 (no Blackwell row, v2.24.3-1); twice Hopper's
     * from 2.25 to 2.27 ({@code 2*36.7}, {@code 2*29.0}, {@code 2*38.7} ..., v2.25.1-1, v2.27.3-1); 2.28.9's own
     * after. Hopper's rows are the same in every release read.
     */
    private double blackwellCap(GpuGeneration g, int nodesIndex, double[][] table) {
        if (g != GpuGeneration.BLACKWELL || version.carriedWhole()) {
            return table[g.ordinal()][nodesIndex];
        }
        double hopper = table[GpuGeneration.HOPPER.ordinal()][nodesIndex];
        return minor() <= 24 ? hopper : 2 * hopper;
    }

    @Override
    public String toString() {
        return "TuningConstants[NCCL " + version.text() + "]";
    }
}
