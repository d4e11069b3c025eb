package dev.collsim.simulator.tuning;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.NcclDevice;
import dev.collsim.nccl.Protocol;
import java.util.Objects;

/**
 * The rules of NCCL's tuning that releases before 2.28 apply differently from 2.28.9: {@code ncclTopoTuneModel}'s
 * release-conditional factors and formulas ({@code src/graph/tuning.cc}), which algorithms each function may use
 * there and in {@code topoGetAlgoInfo} ({@code src/enqueue.cc}), and {@code ncclPatEnable}. One method per rule,
 * citing the tags and lines read ({@code git show v2.x.y-1:FILE} of github.com/NVIDIA/nccl); the tables that differ
 * by release are {@link TuningConstants}'s. Keyed by {@link NcclVersion}: an older entry applies its range's rules,
 * 2.28.9 and 2.30.7 their own (docs/nccl-releases.md).
 *
 * <p>This class is immutable.
 */
public final class ReleaseRules {


    /** First NCCL 2 minor release whose ring AllReduce latency counts {@code 2*nNodes} network steps (v2.12.7-1). */
    static final int FIRST_TWO_NNODES_MINOR = 12;

    private final NcclVersion version;
    /** The run's own NCCL 2 minor release when it is older than the entry's range, else the entry's. */
    private final int runMinor;

    /**
     * @param version the NCCL release
     */
    public ReleaseRules(NcclVersion version) {
        this(version, version.minor());
    }

    /**
     * The rules of an entry for a run of an older release than the entry's first (the 2.18.5 entry models NCCL 2.4
     * to 2.17): the entry's rules, but where collsim knows the older release's own ({@link #ringInterSteps}).
     *
     * @param version  the NCCL release entry
     * @param runMinor the run's NCCL 2 minor release, e.g. 8 for 2.8.4; the entry's own when not older
     */
    public ReleaseRules(NcclVersion version, int runMinor) {
        this.version = Objects.requireNonNull(version, "version");
        this.runMinor = Math.min(runMinor, version.minor());
    }

    /** @return the NCCL release these rules are of */
    public NcclVersion version() {
        return version;
    }

    /** @return the run's NCCL 2 minor release these rules apply to: the entry's own unless the run is older */
    public int runMinor() {
        return runMinor;
    }

    private int minor() {
        return version.minor();
    }

    /**
     * Ring/LL share of the graph's bandwidth, before the llMaxBw cap ({@code ncclTopoTuneModel}, src/graph/tuning.cc):
     * up to 2.20 {@code busBw * ((nNodes > 1 || coll == ncclFuncAllReduce || coll == ncclFuncReduce) ? 1.0/4.0 :
     * 1.0/3.0)} (v2.18.5-1 line 178, v2.20.5-1 line 181); {@code busBw * .5} from 2.21 (v2.21.5-1 line 180, v2.28.9-1
     * line 304).
     *
     * @param allReduceOrReduce the function is AllReduce or Reduce
     * @param nNodes            hosts
     * @return the factor, dimensionless
     */
    public double ringLlFactor(boolean allReduceOrReduce, int nNodes) {
        if (minor() > 20) {
            return 0.5;
        }
        return nNodes > 1 || allReduceOrReduce ? 1.0 / 4.0 : 1.0 / 3.0;
    }

    /**
     * Ring/LL128 share of the graph's bandwidth, before the per-channel cap: up to 2.22 {@code ppn < 2 ? 0.7 : 0.92}
     * (v2.18.5-1 line 179, v2.22.3-1 line 179); 0.92 from 2.23 (v2.23.4-1 line 188, v2.28.9-1 line 305).
     *
     * @param ppn ranks per host, NCCL's float {@code nRanks / nNodes}
     * @return the factor, dimensionless
     */
    public double ringLl128Factor(double ppn) {
        return minor() <= 22 && ppn < 2 ? 0.7 : TuningConstants.LL128_EFFICIENCY;
    }

    /**
     * The ring AllReduce's inter-host steps in its latency: {@code 2*nNodes} in 2.12 to 2.22 (v2.12.7-1 line 114,
     * v2.18.5-1 line 161, v2.22.3-1 line 159, {@code nInterSteps}); {@code 2*(nNodes-1)} from 2.23 (v2.23.4-1 line
     * 258, v2.28.9-1 line 378) and before 2.12 (v2.8.4-1 line 112, v2.11.4-1 line 115). Other functions: nNodes - 1.
     *
     * @param allReduce the function is AllReduce
     * @param nNodes    hosts
     * @return steps
     */
    public int ringInterSteps(boolean allReduce, int nNodes) {
        if (nNodes == 1) {
            return 0;
        }
        boolean twoNNodes = minor() <= 22 && runMinor >= FIRST_TWO_NNODES_MINOR;
        return allReduce ? 2 * (twoNNodes ? nNodes : nNodes - 1) : nNodes - 1;
    }

    /**
     * @return true when one rank per host takes Tree's network latency for every algorithm ({@code ppn == 1 ?
     *         hwLat[NET][TREE][p] : hwLat[NET][a][p]}), from 2.23 (v2.23.4-1 line 236, v2.28.9-1 line 356); before, the
     *         algorithm's own
     */
    public boolean treeNetLatencyAtOneRankPerHost() {
        return minor() > 22;
    }

    /**
     * The LL128 default's compute capability test: 2.8-2.11 sm70 or sm80 only ({@code (minCompCap == 70 &&
     * maxCompCap == 70) || (minCompCap == 80 && maxCompCap == 80)}, v2.8.4-1 line 195, v2.11.4-1 line 196); up to 2.24 {@code switch (minCompCap)} enables sm70, sm80, sm90
     * only (v2.18.5-1 lines 288-293, v2.24.3-1 line 427 on), 2.25-2.26 also sm100 and sm120 (v2.25.1-1 lines
     * 432-436, v2.26.2-1 lines 433-437); from 2.27
     * {@code !(minCompCap < 70 || ...)} (v2.27.3-1 line 463, v2.28.9-1 line 493).
     *
     * @param minSm minimum compute capability x 10
     * @return true when LL128 may be on by default
     */
    public boolean ll128DefaultSm(int minSm) {
        if (early()) {
            return minSm == 70 || minSm == 80;
        }
        if (minor() >= 27) {
            return minSm >= 70;
        }
        boolean blackwell = minor() >= 25 && (minSm == 100 || minSm == 120);
        return minSm == 70 || minSm == 80 || minSm == 90 || blackwell;
    }

    /**
     * @param ll128C2c NCCL_LL128_C2C (default on)
     * @return true when sm90+ runs LL128 by default up to PXN between hosts: up to 2.26 always
     *         ({@code typeInter <= PATH_PXB || (minCompCap >= 90 && typeInter <= PATH_PXN)}, v2.18.5-1 line 285);
     *         from 2.28 with NCCL_LL128_C2C (v2.28.9-1 line 484). 2.27's {@code P2C : PXN} is taken as 2.28's
     */
    public boolean ll128PxnOnSm90(boolean ll128C2c) {
        return minor() <= 26 || ll128C2c;
    }

    /**
     * @return PAT's share of the graph's bandwidth: 0.85 in 2.23, the release that brought PAT (v2.23.4-1 line 193,
     *         {@code busBw *= .85}); 0.75 from 2.24 (v2.24.3-1 line 256, v2.28.9-1 line 310)
     */
    public double patFactor() {
        return minor() == 23 ? 0.85 : 0.75;
    }

    /**
     * Which algorithms {@code ncclTopoTuneModel} fills for a function (its {@code coll}/{@code a} loop): Broadcast and
     * Reduce Ring only, AllReduce every algorithm but PAT. AllGather and ReduceScatter: Ring only in 2.18 (v2.18.5-1
     * lines 168-169); Ring and NVLS in 2.19 (v2.19.4-1 lines 168-169); also CollNetDirect from 2.20 (v2.20.5-1 lines
     * 169-170); also PAT from 2.23, the release that brought it (v2.23.4-1 lines 171-174, v2.28.9-1 lines 274-277).
     * A run of an older release cannot have chosen what its NCCL did not have: 2.8-2.11 have Tree, Ring and CollNet
     * only ({@code NCCL_NUM_ALGORITHMS} 3, v2.8.4-1 and v2.11.4-1 {@code src/include/devcomm.h}), and only AllReduce
     * any but Ring (v2.8.4-1 line 117).
     *
     * @param func the function
     * @param a    the algorithm
     * @return true when this release computes a bandwidth for the pair
     */
    public boolean offers(Collective func, Algorithm a) {
        return switch (func) {
            case BROADCAST, REDUCE -> a == Algorithm.RING;
            case ALL_REDUCE -> a != Algorithm.PAT && (!early() || a != Algorithm.NVLS && a != Algorithm.NVLS_TREE);
            case ALL_GATHER, REDUCE_SCATTER -> a == Algorithm.RING
                    || a == Algorithm.NVLS && minor() >= 19
                    || a == Algorithm.COLLNET_DIRECT && minor() >= 20
                    || a == Algorithm.PAT && minor() >= 23;
            default -> false;
        };
    }

    /**
     * NVLS for AllGather and ReduceScatter at the call ({@code topoGetAlgoInfo}, src/enqueue.cc): one node only up to
     * 2.26 ({@code (AllGather || ReduceScatter) && nNodes > 1 -> continue}, v2.19.4-1 line 1187, v2.24.3-1 line
     * 1600), in 2.25-2.26 also at most {@code NCCL_MAX_NVLS_ARITY} (32) ranks ({@code || nRanks >
     * NCCL_MAX_NVLS_ARITY}, v2.25.1-1 line 1610, v2.26.2-1 line 1672); from 2.27 at most 32 local ranks, several
     * nodes through CollNet ({@code func != AllReduce && localRanks > NCCL_MAX_NVLS_ARITY}, v2.27.3-1 line 1771,
     * v2.28.9-1 line 1802; the CollNet condition is the caller's).
     *
     * @param nNodes        NCCL nodes
     * @param nRanks        ranks
     * @param maxLocalRanks most ranks of one node
     * @return true when NVLS may run an AllGather or ReduceScatter of this communicator
     */
    public boolean nvlsAllGatherReduceScatter(int nNodes, int nRanks, int maxLocalRanks) {
        if (minor() >= 27) {
            return maxLocalRanks <= NcclDevice.NCCL_MAX_NVLS_ARITY;
        }
        return nNodes == 1 && (minor() < 25 || nRanks <= NcclDevice.NCCL_MAX_NVLS_ARITY);
    }

    /**
     * {@code ncclPatEnable} (src/graph/tuning.cc): from 2.26 no PAT below sm60, whatever NCCL_PAT_ENABLE says
     * ({@code if (comm->minCompCap < 60) return 0;} before the setting is read, v2.26.2-1 line 180, v2.28.9-1 line
     * 204); then a setting other than 2 is returned as it is (0 off, else on), and the default 2 enables PAT with one
     * rank per node ({@code nNodes != nRanks -> 0}, v2.23.4-1 lines 111-112). 2.23-2.25 have no compute capability
     * test (v2.23.4-1, v2.25.1-1 lines 178-184). NCCL's {@code netDeviceType != NCCL_NET_DEVICE_HOST} test is not
     * modelled (collsim has no device-offload network). Releases before 2.23 have no PAT ({@link #offers}).
     *
     * @param patEnable NCCL_PAT_ENABLE (default 2)
     * @param nNodes    NCCL nodes
     * @param nRanks    ranks
     * @param minSm     minimum compute capability x 10
     * @return true when PAT may be used
     */
    public boolean ncclPatEnable(int patEnable, int nNodes, int nRanks, int minSm) {
        if (minor() >= 26 && minSm < 60) {
            return false;
        }
        return patEnable != 2 ? patEnable != 0 : nNodes == nRanks;
    }
    /**
     * @return true from 2.28, whose NVLS and NVLSTree bandwidth is {@code bwIntra x nvlsEfficiency x (nCh-1)/nCh}
     *         (x2 for AllReduce, x(ppn-1)/ppn otherwise) against bwInter (x2 for NVLSTree on two nodes) and the
     *         NVLSTree per-channel cap, converted with nRanks/nsteps and skipped below 2 channels (v2.28.9-1 lines
     *         285-300, 348); before, {@link #olderNvlsBw} and {@link #olderNvlsRatio}
     */
    public boolean nvlsEfficiencyForm() {
        return minor() >= 28;
    }

    /**
     * NVLS and NVLSTree bandwidth per channel before 2.28 ({@code ncclTopoTuneModel}). 2.18: the common rule,
     * {@code nNodes <= 2 ? bwIntra : bwInter} (v2.18.5-1 line 174). 2.19-2.26: NVLS {@code min(bwIntra, bwInter)},
     * NVLSTree {@code min(bwIntra, nNodes <= 2 ? bwInter : bwInter/2)} (v2.19.4-1 lines 175-176, v2.26.2-1 lines
     * 251-252). 2.27: NVLS AllGather/ReduceScatter {@code min(bwIntra (ppn-1)/ppn, 0.9 bwInter)}, the rest as 2.26
     * (v2.27.3-1 lines 267-275). No efficiency factor, no per-channel cap.
     *
     * @param func    the function
     * @param a       NVLS or NVLS_TREE
     * @param nNodes  NCCL nodes
     * @param ppn     NCCL's float nRanks / nNodes
     * @param bwIntra the graph's bwIntra, GB/s
     * @param bwInter the graph's bwInter, GB/s
     * @return GB/s per channel
     */
    public double olderNvlsBw(Collective func, Algorithm a, int nNodes, double ppn, double bwIntra,
            double bwInter) {
        if (minor() <= 18) {
            return nNodes <= 2 ? bwIntra : bwInter;
        }
        if (a == Algorithm.NVLS_TREE) {
            return Math.min(bwIntra, nNodes <= 2 ? bwInter : bwInter / 2);
        }
        if (minor() >= 27 && func != Collective.ALL_REDUCE) {
            return Math.min(bwIntra * (ppn - 1) / ppn, 0.9 * bwInter);
        }
        return Math.min(bwIntra, bwInter);
    }

    /**
     * NVLS and NVLSTree bus-to-algorithm bandwidth ratio before 2.28: 5/6 (v2.19.4-1 line 199, v2.27.3-1 line 324);
     * 2.18 NVLSTree {@code .70 * nNodes / (2*(nNodes-1))} (v2.18.5-1 lines 197-198).
     *
     * @param a      NVLS or NVLS_TREE
     * @param nNodes NCCL nodes (at least 2 for NVLSTree)
     * @return algBw / busBw
     */
    public double olderNvlsRatio(Algorithm a, int nNodes) {
        if (minor() <= 18 && a == Algorithm.NVLS_TREE) {
            return .70 * nNodes / (2.0 * (nNodes - 1));
        }
        return 5.0 / 6.0;
    }

    /**
     * Whether AllGather/ReduceScatter bus bandwidth of a non-Ring algorithm is converted to algorithm bandwidth:
     * up to 2.22 every algorithm but CollNetDirect is ({@code !(a == COLLNET_DIRECT && (AllGather ||
     * ReduceScatter))}, v2.20.5-1 line 214, v2.22.3-1 line 211; 2.19 converts all), so NVLS's 5/6 applies to them;
     * from 2.23 none is ({@code !(a != RING && ...)}, v2.23.4-1 line 221, v2.28.9-1 line 346).
     *
     * @param a a non-Ring algorithm
     * @return true when its AllGather/ReduceScatter busBw is converted
     */
    public boolean convertsAllGatherBusBw(Algorithm a) {
        return minor() <= 22 && a != Algorithm.COLLNET_DIRECT;
    }

    /**
     * @return true up to 2.18, whose NVLS latency is {@code baseLat + (nNodes > 1 ? hwLat[NET][NVLS] : 0)} and
     *         NVLSTree's {@code baseLat + 2*(nNodes-1)*hwLat[NET][NVLSTree]}, without the graph's network latency
     *         (v2.18.5-1 lines 235-238); from 2.19 NVLS {@code intraLat + (nNodes > 1 ? interLat : 0)}, NVLSTree
     *         {@code baseLat + intraLat + 2*log2i(nNodes)*interLat} (v2.19.4-1 lines 239-243, v2.28.9-1 lines 391-395)
     */
    public boolean nvlsLatencyWithoutGraph() {
        return minor() <= 18;
    }

    /**
     * @return true in 2.18, which never lets NCCL_ALGO turn Ring off for a function other than AllReduce ({@code if (a
     *         == NCCL_ALGO_RING && c != ncclFuncAllReduce) continue;} before the algorithm filter, "That allows to run
     *         real apps with NCCL_ALGO=TREE", v2.18.5-1 lines 296-297); from 2.19 the filter applies to Ring too
     *         (v2.19.4-1 lines 300-301)
     */
    public boolean keepsRingBesidesAllReduce() {
        return minor() <= 18;
    }

    /**
     * CollNetDirect AllGather/ReduceScatter bus bandwidth: 2.20-2.26 {@code ppn * bw} (bw = bwIntra for CollNet)
     * times a measured correction between 0.95 at one rank per node and 0.85 at eight, {@code w*0.85 + (1-w)*0.95},
     * w = (ppn-1)/(8-1) (v2.20.5-1 lines 190-203, v2.26.2-1 lines 266-279); from 2.27 {@code ppn * min(bwIntra,
     * bwInter * 0.9)} (v2.27.3-1 line 290, v2.28.9-1 line 315). 2.18-2.19 have none ({@link #offers}).
     *
     * @param ppn     NCCL's float nRanks / nNodes
     * @param bwIntra the CollNetDirect graph's bwIntra, GB/s
     * @param bwInter its bwInter, GB/s
     * @return GB/s of bus bandwidth
     */
    public double collNetDirectAllGatherBw(double ppn, double bwIntra, double bwInter) {
        if (minor() >= 27) {
            return ppn * Math.min(bwIntra, bwInter * 0.9);
        }
        double w = (ppn - 1) / (8 - 1);
        return ppn * bwIntra * (w * 0.85 + (1 - w) * 0.95);
    }

    /** @return NVLS channels NCCL needs: 2 from 2.28 (v2.28.9-1 line 288, {@code nChannels < 2 -> continue}), else 1 */
    public int minNvlsChannels() {
        return minor() >= 28 ? 2 : 1;
    }

    /**
     * How the NVLS AllReduce kernel spreads a call over its channels (not a tuning rule, but one the releases split
     * on). Up to 2.19 every channel strides through the whole buffer: channel {@code bid} takes the piece at
     * {@code gridOffset + bid x nHeads x chunkSize} of each loop, at most {@code nHeads x chunkSize} (v2.18.5-1
     * {@code src/collectives/device/all_reduce.h} lines 411 and 422, v2.19.3-1 {@code src/device/all_reduce.h} the
     * same lines), so a call smaller than one loop fills the first channels one whole piece each and leaves the
     * others idle. From 2.20 the host gives each channel a contiguous share of about {@code count / nChannels}, in
     * units of NCCL_SIMPLE_ALIGNMENT (4 KiB) for Simple ({@code src/enqueue.cc countPerChannels}, v2.20.5-1 line 346;
     * {@code ncclCollCbdPart} from 2.22), so a small call is spread over every channel. The 2.19.4 entry stands for
     * 2.19-2.20 and keeps its own release's rule.
     *
     * @return true where one channel carries a whole {@code nHeads x chunkSize} piece before the next takes any
     */
    public boolean nvlsStridedChannels() {
        return minor() <= 19;
    }

    /**
     * @return true for the 2.8.4 and 2.10.3 entries (NCCL 2.8-2.11), which read {@link EarlyTuningTables} and its
     *         rules: the sm80 235 GB/s cap, no Tree pattern x0.85, LL128 only inside NVLink ({@code typeIntra <=
     *         PATH_NVL}), LL x1.8 intra latency on several nodes, no network overhead, the 1.9 ring plateau
     */
    public boolean early() {
        return minor() < NcclVersion.V2_18_5.minor();
    }

    /** @return Tree/LL128 busBw share: 7/9 on one node, else 0.915 to 2.9 (v2.8.4-1 line 129), 120/128 from 2.10 */
    public double treeLl128Factor(int nNodes) {
        if (nNodes == 1) {
            return 7.0 / 9.0;
        }
        return minor() < EarlyTuningTables.V2_10 ? EarlyTuningTables.TREE_LL128_MULTI_NODE_2_8
                : NcclDevice.dataPerLineByte(Protocol.LL128);
    }

    /** @return CollNet's bus bandwidth factor: 0.9 to 2.9 (v2.8.4-1 line 130, v2.9.6-1 line 132), 1 from 2.10 */
    public double collNetFactor() {
        return minor() < EarlyTuningTables.V2_10 ? EarlyTuningTables.COLLNET_FACTOR_2_8 : 1.0;
    }

    /**
     * @return true to 2.9, whose one CollNet (the chain to 2.8, the direct from 2.9) has the chain's latency {@code
     *         2*(ppn-1)*intraLat + interLat} (v2.9.6-1 line 159); from 2.10 the direct's with 0.5 us arity (line 160)
     */
    public boolean collNetChainLatency() {
        return minor() < EarlyTuningTables.V2_10;
    }

    /** @return false in 2.8-2.11: no CollNetDirect GPU/NIC ratio ({@code ppn / nChannels}; v2.14.3-1 line 141) */
    public boolean collNetNicRatio() {
        return !early();
    }

    /** @return true from 2.10: Power's Tree/Simple PCI latency is Ring/Simple's (v2.10.3-1 line 103; not in 2.8) */
    public boolean powerTreeLatency() {
        return minor() >= EarlyTuningTables.V2_10;
    }

    /** @return false for a run before 2.5, which has no LL128 (none in v2.4.8-1; v2.5.6-1 tuning.cc line 56 has it) */
    public boolean hasLl128() {
        return runMinor >= 5;
    }

    @Override
    public String toString() {
        return "ReleaseRules[NCCL " + version.text() + "]";
    }
}
