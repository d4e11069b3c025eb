package dev.collsim.simulator.tuning;

import dev.collsim.topology.GraphPattern;
import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.AlgoProtoFilter;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.PathType;
import java.util.List;

/**
 * NCCL's analytical cost model ({@code ncclTopoTuneModel}, NCCL 2.30.7 {@code src/graph/tuning.cc}; fact sheet
 * §2.3-§2.5): fills, for each function, algorithm and protocol, a latency (microseconds) and an algorithm
 * bandwidth (GB/s), and zeroes the bandwidth of combinations that are not eligible or not enabled.
 *
 * <p>Bandwidth (§2.3): per-channel {@code bw} is bwIntra on at most 2 hosts (and for CollNet), else bwInter;
 * NVLS uses \(\min(bw_{intra} \cdot eff \cdot (n_{ch}-1)/n_{ch} \cdot k, bw_{inter})\) with k = 2 for AllReduce
 * and (ppn-1)/ppn for AllGather/ReduceScatter; busBw = nChannels x bw, then the protocol refinements (Ring/LL
 * min(llMaxBw, busBw/2); Ring/LL128 min(0.92 busBw, nCh x cap); Tree x0.92 capped, /3.8 for LL, x7/9 or x120/128
 * for LL128; PAT x0.75; CollNetDirect arity factor), then busBw x (nRanks/nsteps) for Ring/NVLS or x1/2 for
 * Tree/CollNet (skipped for non-Ring AllGather/ReduceScatter).
 *
 * <p>Latency (§2.4): Ring {@code lat0 + (nsteps - nInter) max(intraLat, netOverhead) + nInter interLat};
 * Tree {@code lat0 + 2((ppn-1) intraLat + floor(log2 nNodes) interLat)}; NVLS {@code intraLat (+ interLat)};
 * and the CollNet, NVLSTree and PAT forms of the fact sheet.
 *
 * <p>Releases before 2.28 ({@link NcclVersion}'s older entries) change a few of these rules: the Ring/LL and
 * Ring/LL128 factors, llMaxBw, the LL128 default, the ring's inter-host steps, Tree/Simple latencies, which
 * algorithms each function may use, PAT's enable rule, and NVLS/NVLSTree bandwidth and latency; each is a method of
 * {@link ReleaseRules} or a table of {@link TuningConstants} citing the tags it was read at (docs/nccl-releases.md).
 * 2.8-2.11 also read their own tables, caps and factors ({@link EarlyTuningTables}, {@link ReleaseRules#early}).
 *
 * <p>This class is stateless and thread-safe.
 */
public final class NcclTuningModel {

    /** The five functions NCCL tunes, in NCCL's index order (Broadcast 0 .. AllReduce 4). */
    public static final List<Collective> FUNCTIONS = List.of(Collective.BROADCAST, Collective.REDUCE,
            Collective.ALL_GATHER, Collective.REDUCE_SCATTER, Collective.ALL_REDUCE);

    private NcclTuningModel() {
    }

    /**
     * Computes NCCL's cost table for a communicator.
     *
     * @param in the communicator's graphs and facts
     * @return the table (latencies in microseconds, algorithm bandwidths in GB/s, 0 = not eligible)
     */
    public static CostTable tune(TuningInput in) {
        int nf = FUNCTIONS.size();
        int na = Algorithm.values().length;
        int np = Protocol.values().length;
        double[][][] lat = new double[nf][na][np];
        double[][][] bw = new double[nf][na][np];
        for (int f = 0; f < nf; f++) {
            Collective func = FUNCTIONS.get(f);
            for (Algorithm a : Algorithm.values()) {
                for (Protocol p : Protocol.values()) {
                    if (!supports(func, a, p) || !in.constants().rules().offers(func, a)
                            || !algorithmEnabled(in, func, a) || !protocolEnabled(in, func, a, p)) {
                        continue;
                    }
                    GraphSummary g = in.graphs().graphFor(a);
                    double b = algBandwidth(in, func, a, p, g);
                    if (b > 0) {
                        bw[f][a.ordinal()][p.ordinal()] = b;
                        lat[f][a.ordinal()][p.ordinal()] = latency(in, func, a, p, g);
                    }
                }
            }
        }
        return new CostTable(in, lat, bw);
    }

    /**
     * Which (function, algorithm, protocol) combinations NCCL implements at all (fact sheet §1.2); a release before
     * 2.23 offers fewer ({@link ReleaseRules#offers}).
     *
     * @return true when the combination exists in NCCL
     */
    public static boolean supports(Collective func, Algorithm a, Protocol p) {
        boolean simple = p == Protocol.SIMPLE;
        return switch (func) {
            case BROADCAST, REDUCE -> a == Algorithm.RING;
            case ALL_GATHER, REDUCE_SCATTER -> a == Algorithm.RING || simple
                    && (a == Algorithm.COLLNET_DIRECT || a == Algorithm.NVLS || a == Algorithm.PAT);
            case ALL_REDUCE -> a == Algorithm.RING || a == Algorithm.TREE || simple && a != Algorithm.PAT;
            default -> false;
        };
    }

    static boolean algorithmEnabled(TuningInput in, Collective func, Algorithm a) {
        NcclSettings s = in.settings();
        ReleaseRules r = in.constants().rules();
        if (s.algo().state(func, a) == AlgoProtoFilter.State.OFF
                && !(a == Algorithm.RING && func != Collective.ALL_REDUCE && r.keepsRingBesidesAllReduce())) {
            return false;
        }
        GraphSummary g = in.graphs().graphFor(a);
        if (!g.present()) {
            return false;
        }
        boolean collnet = s.collnetEnable() && in.collNetSupport() && in.nNodes() >= s.collnetNodeThreshold()
                && in.maxLocalRanks() <= 8;
        return switch (a) {
            case NVLS -> in.nvlsSupport() && s.nvlsEnable() != 0 && g.nChannels() >= r.minNvlsChannels()
                    && (in.nNodes() == 1 || collnet) && (func == Collective.ALL_REDUCE
                    || r.nvlsAllGatherReduceScatter(in.nNodes(), in.nRanks(), in.maxLocalRanks()));
            case NVLS_TREE -> in.nvlsSupport() && s.nvlsEnable() != 0 && g.nChannels() >= r.minNvlsChannels()
                    && in.nNodes() > 1;
            case COLLNET_DIRECT -> collnet && in.hasNvSwitch();
            case COLLNET_CHAIN -> collnet;
            case PAT -> r.ncclPatEnable(s.patEnable(), in.nNodes(), in.nRanks(), in.minSm());
            case TREE, RING -> true;
        };
    }

    /**
     * NCCL's protocol enable rule ({@code ncclTopoTuneModel}, the {@code pEnable == 2 && p == NCCL_PROTO_LL128}
     * block: NCCL 2.28.9 {@code src/graph/tuning.cc} lines 480-494, 2.30.7 lines 518-536). NCCL_PROTO naming LL128
     * (state ON) skips the rule. By default LL128 runs only up to PXB between nodes (PXN on sm90+ with
     * NCCL_LL128_C2C), up to NVB inside a node, from sm70, and with one compute capability across the ranks; NCCL
     * 2.30.7 also allows mixed compute capabilities from sm90 ({@code minCompCap == maxCompCap || minCompCap >= 90}),
     * NCCL 2.28.9 (and 2.29.7) does not. Releases before 2.27 enable it on listed compute capabilities only, and
     * let sm90 reach PXN without NCCL_LL128_C2C ({@link TuningConstants#ll128DefaultSm},
     * {@link TuningConstants#ll128PxnOnSm90}). Not modelled: the sm90 2-rank Ring AllReduce exclusion under CUDA 11.8
     * ({@code CUDART_VERSION == 11080}; collsim does not know the CUDA runtime). A run of NCCL 2.4 has no LL128 at all
     * ({@link ReleaseRules#hasLl128}), whatever NCCL_PROTO says.
     */
    static boolean protocolEnabled(TuningInput in, Collective func, Algorithm a, Protocol p) {
        AlgoProtoFilter.State st = in.settings().proto().state(func, p);
        if (st == AlgoProtoFilter.State.OFF || p == Protocol.LL128 && !in.constants().rules().hasLl128()) {
            return false;
        }
        if (p != Protocol.LL128 || st == AlgoProtoFilter.State.ON) {
            return true;
        }
        GraphSummary g = in.graphs().graphFor(a);
        TuningConstants c = in.constants();
        boolean pxn = in.minSm() >= 90 && c.rules().ll128PxnOnSm90(in.settings().ll128C2c());
        PathType intra = c.rules().early() ? PathType.NVL : PathType.NVB;
        PathType inter = releaseTypeInter(in.graphs(), g.typeInter(), c.rules().runMinor());
        return inter.atMost(pxn ? PathType.PXN : PathType.PXB) && g.typeIntra().atMost(intra)
                && (in.minSm() == in.maxSm() || in.minSm() >= 90 && c.version() == NcclVersion.V2_30_7)
                && c.rules().ll128DefaultSm(in.minSm());
    }

    /** First NCCL 2 minor release with the P2C path type (v2.27.3-1 {@code src/graph/topo.h} PATH_P2C). */
    static final int FIRST_P2C_MINOR = 27;

    /**
     * The graph's path type between nodes as the run's release types it. P2C (GPU to NVLink-C2C to CPU to PCIe to NIC,
     * a Grace superchip's GPU to its NIC) is in NCCL from 2.27 (v2.27.3-1 {@code src/graph/topo.h} PATH_P2C); before,
     * such a path is PHB (v2.26.6-1 {@code topo.h} has PATH_C2C and no P2C, v2.25.1-1 neither), and no PXN path leads
     * to such a NIC (a PXN relay must reach the NIC at PXB or better, v2.26.6-1 {@code src/graph/paths.cc}
     * {@code ncclTopoComputePaths}), so on a host whose GPUs reach their NICs at P2C (the tree or ring graph's
     * typeInter) every graph between nodes is at least PHB: farther than the LL128 rule's PXN (v2.25.1-1 and v2.26.6-1
     * {@code src/graph/tuning.cc} {@code typeInter <= PATH_PXB || (minCompCap >= 90 && typeInter <= PATH_PXN)}), so
     * NCCL 2.25-2.26 run no LL128 between GH200 hosts.
     *
     * @param gs       the communicator's graphs
     * @param t        collsim's type of one graph (NCCL 2.30's)
     * @param runMinor the run's NCCL 2 minor release
     * @return the type the release saw
     */
    static PathType releaseTypeInter(GraphSet gs, PathType t, int runMinor) {
        boolean c2cNics = gs.tree().typeInter() == PathType.P2C || gs.ring().typeInter() == PathType.P2C;
        boolean noP2c = runMinor < FIRST_P2C_MINOR && c2cNics;
        return noP2c && (t == PathType.P2C || t == PathType.PXN) ? PathType.PHB : t;
    }

    static double algBandwidth(TuningInput in, Collective func, Algorithm a, Protocol p, GraphSummary g) {
        TuningConstants c = in.constants();
        ReleaseRules r = c.rules();
        GpuGeneration gen = c.tableGeneration(in.minSm(), in.maxSm());
        int idx2 = in.nodesIndex();
        int nCh = g.nChannels();
        boolean agrs = func == Collective.ALL_GATHER || func == Collective.REDUCE_SCATTER;
        boolean collnet = a == Algorithm.COLLNET_DIRECT || a == Algorithm.COLLNET_CHAIN;
        double bw = in.nNodes() <= 2 || collnet ? g.bwIntra() : g.bwInter();
        if (a == Algorithm.NVLS || a == Algorithm.NVLS_TREE) {
            bw = r.nvlsEfficiencyForm() ? nvlsBw(in, func, a, g)
                    : r.olderNvlsBw(func, a, in.nNodes(), in.ppn(), g.bwIntra(), g.bwInter());
        }
        double busBw = Math.min(nCh * bw, c.busBwCap(in.minSm(), in.maxSm()));
        int llRow = in.nNodes() == 1 ? gen.ordinal() : in.cpu() == CpuKind.AMD_X86 ? 1 : 0;
        double llMaxBw = c.llMaxBw(llRow, idx2);
        if (a == Algorithm.RING && p == Protocol.LL) {
            boolean arOrReduce = func == Collective.ALL_REDUCE || func == Collective.REDUCE;
            busBw = Math.min(llMaxBw, r.ringLlFactor(arOrReduce, in.nNodes()) * busBw);
        }
        if (a == Algorithm.RING && p == Protocol.LL128) {
            busBw = Math.min(r.ringLl128Factor(in.ppn()) * busBw, nCh * c.perChMaxRingLl128Bw(func, gen, idx2));
        }
        if (a == Algorithm.TREE && func == Collective.ALL_REDUCE) {
            busBw = Math.min(TuningConstants.LL128_EFFICIENCY * busBw, nCh * c.perChMaxTreeBw(gen, idx2));
        }
        if (a == Algorithm.TREE && p == Protocol.LL) {
            busBw = Math.min(busBw / 3.8, llMaxBw);
        }
        if (a == Algorithm.TREE && p == Protocol.LL128) {
            busBw = Math.min(busBw * r.treeLl128Factor(in.nNodes()), nCh * c.perChMaxTreeLl128Bw(func, gen, idx2));
        }
        if (a == Algorithm.TREE && in.maxTreePattern() == GraphPattern.TREE && !r.early()) {
            busBw *= 0.85;
        }
        if (a == Algorithm.PAT) {
            busBw *= r.patFactor();
        }
        if (collnet) {
            busBw = p == Protocol.SIMPLE ? busBw * r.collNetFactor() : 0;
        }
        if (a == Algorithm.COLLNET_DIRECT && p == Protocol.SIMPLE) {
            if (agrs) {
                busBw = r.collNetDirectAllGatherBw(in.ppn(), g.bwIntra(), g.bwInter());
            } else if (r.collNetNicRatio()) {
                double factor = in.ppn() / nCh;
                factor -= (factor - 1) / 2;
                busBw /= factor;
                if (in.minSm() >= 90) {
                    busBw *= 0.85;
                }
            }
        }
        if (agrs && a != Algorithm.RING && !r.convertsAllGatherBusBw(a)) {
            return busBw;
        }
        boolean nvls = a == Algorithm.NVLS || a == Algorithm.NVLS_TREE;
        if (nvls && !r.nvlsEfficiencyForm()) {
            return busBw * r.olderNvlsRatio(a, in.nNodes());
        }
        double ratio = switch (a) {
            case RING, NVLS, NVLS_TREE -> (double) in.nRanks() / nSteps(func, in.nRanks());
            default -> 0.5;
        };
        return busBw * ratio;
    }

    /**
     * NVLS and NVLSTree bandwidth per channel from 2.28 (NCCL 2.28.9 {@code src/graph/tuning.cc} lines 285-300):
     * min(bwIntra x nvlsEfficiency x (nCh-1)/nCh x (2 for AllReduce, else (ppn-1)/ppn), bwInter (x2 for NVLSTree on
     * at most 2 nodes), the NVLSTree per-channel cap).
     *
     * @return GB/s per channel
     */
    private static double nvlsBw(TuningInput in, Collective func, Algorithm a, GraphSummary g) {
        TuningConstants c = in.constants();
        int nCh = g.nChannels();
        double intraBw = g.bwIntra() * c.nvlsEfficiency(in.generation()) * (nCh - 1) / nCh;
        intraBw *= func == Collective.ALL_REDUCE ? 2.0 : (in.ppn() - 1) / in.ppn();
        double interBw = g.bwInter() * (a == Algorithm.NVLS_TREE && in.nNodes() <= 2 ? 2.0 : 1.0);
        double bw = Math.min(intraBw, interBw);
        return a == Algorithm.NVLS_TREE ? Math.min(bw, c.perChMaxNvlsTreeBw(in.generation(), in.nodesIndex())) : bw;
    }

    /**
     * NCCL's Ring bus bandwidth for a protocol from the ring graph, whatever NCCL_ALGO/NCCL_PROTO enable (§2.3 steps
     * 1-4 for Ring AllReduce: nChannels x bw, Ring/LL min(llMaxBw, busBw/2), Ring/LL128 min(0.92 busBw, nCh x
     * perChMaxRingLL128Bw); NCCL 2.30.7 {@code src/graph/tuning.cc}). collsim uses it as the per-direction capacity
     * of a node's links ({@code perf.IntraNodeChain}); it is not an entry of NCCL's table.
     *
     * @param in the communicator's graphs and facts (nRanks >= 2)
     * @param p  protocol
     * @return GB/s of bus bandwidth; 0 when there is no ring graph
     */
    public static double ringBusBw(TuningInput in, Protocol p) {
        GraphSummary g = in.graphs().ring();
        if (!g.present() || in.nRanks() < 2) {
            return 0;
        }
        return algBandwidth(in, Collective.ALL_REDUCE, Algorithm.RING, p, g)
                / busToAlgRatio(Collective.ALL_REDUCE, Algorithm.RING, in.nRanks());
    }

    /**
     * NCCL's bus-to-algorithm bandwidth ratio (§2.3 step 5): nRanks / nsteps for Ring, NVLS and NVLSTree; 1/2 for
     * Tree and CollNet; 1 (no conversion) for non-Ring AllGather/ReduceScatter.
     *
     * @param func   function
     * @param a      algorithm
     * @param nRanks ranks
     * @return algBw / busBw
     */
    public static double busToAlgRatio(Collective func, Algorithm a, int nRanks) {
        if ((func == Collective.ALL_GATHER || func == Collective.REDUCE_SCATTER) && a != Algorithm.RING) {
            return 1.0;
        }
        return switch (a) {
            case RING, NVLS, NVLS_TREE -> (double) nRanks / nSteps(func, nRanks);
            default -> 0.5;
        };
    }

    /**
     * NCCL's {@code log2i} (NCCL {@code src/include/utils.h}, master of 2026; the tuning model's floor log2 of nodes,
     * {@code ncclTopoTuneModel}): the floor of log2 n.
     *
     * @param n a count, >= 1
     * @return floor(log2 n), 0 for n = 1
     */
    public static int log2i(int n) {
        return 31 - Integer.numberOfLeadingZeros(n);
    }

    /**
     * NCCL's ring steps of a call (NCCL 2.30.7 {@code src/graph/tuning.cc ncclTopoTuneModel} nsteps).
     *
     * @return 2 (nRanks - 1) for AllReduce, nRanks - 1 for AllGather and ReduceScatter, nRanks otherwise
     */
    public static int nSteps(Collective func, int nRanks) {
        return switch (func) {
            case ALL_REDUCE -> 2 * (nRanks - 1);
            case ALL_GATHER, REDUCE_SCATTER -> nRanks - 1;
            default -> nRanks;
        };
    }

    static double latency(TuningInput in, Collective func, Algorithm a, Protocol p, GraphSummary g) {
        return latency(in, in.constants(), func, a, p, g);
    }

    /**
     * NCCL's latency formula on given latency tables (the release's own, or those the time reads: {@link
     * RemeasuredLatency}); the rules are always the release's ({@code in.constants().rules()}).
     *
     * @return microseconds
     */
    static double latency(TuningInput in, LatencyTable c, Collective func, Algorithm a, Protocol p, GraphSummary g) {
        HardwareClass intraHw = g.typeIntra() == PathType.NVL ? HardwareClass.NVLINK : HardwareClass.PCI;
        HardwareClass hw = in.nNodes() == 1 ? intraHw : HardwareClass.NET;
        double lat0 = c.baseLatency(a, p);
        double intraLat = c.hwLatency(intraHw, a, p);
        ReleaseRules r = in.constants().rules();
        if (intraHw == HardwareClass.PCI && in.cpu() == CpuKind.POWER && a == Algorithm.TREE
                && p == Protocol.SIMPLE && r.powerTreeLatency()) {
            intraLat = c.hwLatency(HardwareClass.PCI, Algorithm.RING, Protocol.SIMPLE);
        }
        if (r.early() && in.nNodes() > 1 && p == Protocol.LL) {
            intraLat *= EarlyTuningTables.LL_MULTI_NODE_INTRA_FACTOR;
        }
        double interLat = in.ppn() == 1 && r.treeNetLatencyAtOneRankPerHost()
                ? c.hwLatency(HardwareClass.NET, Algorithm.TREE, p)
                : c.hwLatency(HardwareClass.NET, a, p);
        interLat += g.latencyInter() * (p == Protocol.SIMPLE ? 2 : 1);
        int nNodes = in.nNodes();
        int log2Nodes = log2i(nNodes);
        double ppn = in.ppn();
        return switch (a) {
            case RING -> ringLatency(in, c, func, p, lat0, intraLat, interLat, hw);
            case TREE -> lat0 + 2 * ((ppn - 1) * intraLat + log2Nodes * interLat);
            case COLLNET_DIRECT -> r.collNetChainLatency() ? lat0 + 2 * (ppn - 1) * intraLat + interLat
                    : lat0 + 2 * (Math.min(1, ppn - 1) * intraLat + (ppn - 1) * in.constants().collNetArityUs())
                    + interLat;
            case COLLNET_CHAIN -> lat0 + 2 * (ppn - 1) * intraLat + interLat;
            case NVLS -> r.nvlsLatencyWithoutGraph()
                    ? lat0 + (nNodes > 1 ? c.hwLatency(HardwareClass.NET, a, p) : 0)
                    : intraLat + (nNodes > 1 ? interLat : 0);
            case NVLS_TREE -> r.nvlsLatencyWithoutGraph()
                    ? lat0 + 2 * (nNodes - 1) * c.hwLatency(HardwareClass.NET, a, p)
                    : lat0 + intraLat + 2 * log2Nodes * interLat;
            case PAT -> lat0 + log2Nodes * interLat / 3.5 + 2.8 * in.nRanks();
        };
    }

    private static double ringLatency(TuningInput in, LatencyTable c, Collective func, Protocol p, double lat0,
            double intraLat, double interLat, HardwareClass hw) {
        ReleaseRules r = in.constants().rules();
        int nRanks = in.nRanks();
        int nNodes = in.nNodes();
        if (func == Collective.BROADCAST || func == Collective.REDUCE) {
            GraphSummary ring = in.graphs().ring();
            if (ring.sameChannels()) {
                return lat0 + c.hwLatency(hw, Algorithm.RING, p);
            }
            double step = p == Protocol.SIMPLE ? c.hwLatency(hw, Algorithm.TREE, Protocol.SIMPLE)
                    : c.hwLatency(hw, Algorithm.RING, p);
            return lat0 + nRanks * step;
        }
        int nsteps = nSteps(func, nRanks);
        int nInter = r.ringInterSteps(func == Collective.ALL_REDUCE, nNodes);
        double netOverhead = 0;
        if (nNodes > 1 && !r.early()) {
            netOverhead = in.settings().netOverheadUs().orElse(in.constants().netOverhead(in.cpu()));
            if (p == Protocol.SIMPLE) {
                netOverhead *= 3;
            }
        }
        return lat0 + (nsteps - nInter) * Math.max(intraLat, netOverhead) + nInter * interLat;
    }
}
