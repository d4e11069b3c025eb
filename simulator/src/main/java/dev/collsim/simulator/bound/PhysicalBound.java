package dev.collsim.simulator.bound;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.env.AlgoProtoFilter;
import dev.collsim.simulator.channel.ChannelPlan;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The best bus bandwidth (nccl-tests definition, GB/s) the hardware allows for a collective, from physical link
 * bandwidths, whatever the algorithm. With B = per-direction scale-up bandwidth of the weakest GPU (sum of its
 * NVLinks, or its PCIe link without NVLink), N = per-direction NIC bandwidth of the weakest node (sum of the NICs
 * local to its ranks' GPUs, as NCCL picks a GPU's NICs: 2 of the 8 NICs of a DGX H100 when 2 of its GPUs are ranks),
 * n ranks, m nodes, q = n/m ranks per node:
 *
 * <ul>
 *   <li><b>AllReduce</b>: inside a node each GPU must send and receive at least what a reduce-scatter plus
 *       all-gather over q GPUs moves, 2(q-1)/q S, so algBw <= B q/(2(q-1)), i.e. busBw <= B (q/(q-1)) ((n-1)/n);
 *       with NVSwitch reduction (NVLS) a GPU only sends S and receives S, so busBw <= B x 2(n-1)/n. Across nodes
 *       every node must send 2(m-1)/m S over its NICs, so busBw <= N (m/(m-1)) ((n-1)/n). The bound is the
 *       smaller of the intra and inter limits (one node: the intra limit).</li>
 *   <li><b>AllGather, ReduceScatter</b>: each GPU receives (n-1)/n S, so busBw <= B; each node receives
 *       (m-1)/m S over its NICs, so busBw <= N (m/(m-1)) ((n-1)/n).</li>
 *   <li><b>Broadcast, Reduce</b>: the root moves S: busBw <= B, and <= N across nodes.</li>
 *   <li><b>AllToAll</b>: each GPU sends S/n to each of its q-1 node peers, (q-1)/n S over its own links:
 *       busBw <= B (n-1)/(q-1) (B on one node, where q = n; no limit for q = 1); the (n-q)/n S for other nodes
 *       leaves through the NIC path, not through B. Each node sends q S (n-q)/n to other nodes:
 *       busBw <= N (n-1) / (q (n-q)); with nodes of different rank counts, the least of g (n-g) over the fewest
 *       and most ranks on a node replaces q (n-q).</li>
 *   <li><b>Gather, Scatter</b>: the root receives or sends (q-1)/n S from or to its node peers:
 *       busBw <= B (n-1)/(q-1) (B on one node); and (n-q)/n S crosses its node's NICs: busBw <= N (n-1)/(n-q)
 *       (n-q with the most ranks on a node in place of q when nodes differ).</li>
 *   <li><b>SendRecv</b>: each GPU sends S: busBw <= B. Across nodes only one rank of each node sends: nccl-tests
 *       2.19.6 {@code src/sendrecv.cu} has rank r send S to r+1, and ranks are placed node by node, so the node's
 *       last rank sends S over the network, whatever the node's rank count ({@link #nodeNicBytes}: S). It sends
 *       through its GPU's own NICs: NCCL 2.30.7 {@code src/graph/topo.cc ncclTopoGetLocalNetType} gives a GPU
 *       ceil(NICs / GPUs) of the NICs local to it (channel c takes the c-th of them), collsim's
 *       {@code channel.LocalNet}. On the weakest node (N over its NICs, at least gMin ranks) that is at most
 *       N ceil(NICs / gMin) / NICs, so busBw <= that ({@link #sendRecvInterBusBw}).</li>
 * </ul>
 * The fabric is taken as non-blocking here; {@link FabricBound} is the limit of its leaves' uplinks
 * (oversubscription), which every prediction's time and bound add ({@code PreparedCommunicator}). One rank: no bound
 * (infinity).
 *
 * <p>Under NCCL_ALGO ({@link #busBw(ChannelPlan, Collective, AlgoProtoFilter)}) the bound is that of the algorithms
 * allowed: the NVLS figure B x 2(n-1)/n only while NVLS or NVLSTree is allowed, and for AllReduce, AllGather,
 * ReduceScatter with Ring alone the NIC part of a ring ({@link #nicBusBw} with k = n: every rank's ring neighbour
 * on the next node, a node sends 2(n-1)/n S for AllReduce, (n-1)/n S for AllGather/ReduceScatter).
 *
 * <p>The inter-node part is applied inside the prediction (collsim's performance model caps algBw at
 * {@code interBusBw / busBwFactor}), so a prediction of one communicator alone never beats its NCCL nodes' NICs and
 * no caller needs a NIC floor of its own; what the prediction cannot see is other groups sharing the same NICs at
 * the same time, which {@link HostNicShare} bounds. {@link #nicBusBw} is the same per-node NIC arithmetic for a
 * known algorithm (NCCL's rings cross every node boundary once per channel), for callers that have figures but no
 * topology (diagnosis of a measured run). This is the simulator's one home for bandwidth bounds; the figures B and N
 * come from the topology through the channel search (NVLink per link from {@code topology}'s NCCL/datasheet figures,
 * cabled NICs only).
 */
public final class PhysicalBound {

    private PhysicalBound() {
    }

    /**
     * @param plan the channel plan (carries B, N, n, m)
     * @param c    the collective
     * @return the bound, GB/s of bus bandwidth; {@code Double.POSITIVE_INFINITY} for one rank
     */
    public static double busBw(ChannelPlan plan, Collective c) {
        return Math.min(intraBusBw(plan, c), interBusBw(plan, c));
    }

    /**
     * The bound over the algorithms NCCL_ALGO allows (the class comment says how they differ).
     *
     * @param plan  the channel plan
     * @param c     the collective
     * @param algos NCCL_ALGO as parsed
     * @return the bound, GB/s of bus bandwidth; {@code Double.POSITIVE_INFINITY} for one rank
     */
    public static double busBw(ChannelPlan plan, Collective c, AlgoProtoFilter<Algorithm> algos) {
        return busBw(plan, c, algos, true);
    }

    /**
     * The bound over the algorithms NCCL_ALGO allows and NCCL can run on this communicator: without CollNet
     * (NCCL_COLLNET_ENABLE off, the default) and with PAT not forced (NCCL_PAT_ENABLE not 1) an AllGather or
     * ReduceScatter across NCCL nodes runs as Ring, so its
     * NIC part is a ring's ({@link #nicBusBw} with k = n). NCCL 2.30.7 {@code src/graph/tuning.cc}
     * ({@code ncclTopoTuneModel}) and {@code src/enqueue.cc} ({@code updateCollCostTable}): NVLS with nNodes &gt; 1
     * and CollNetDirect need CollNet support; PAT runs only with one GPU per node, where a ring's node sends the same
     * (n-1)/n S (fact sheet §1.2). Two GB300 trays in distinct NVLink domains, 4 x 800 Gb/s NICs each: 400 GB/s,
     * not the 700 GB/s an algorithm that sends each byte over the network once would allow.
     *
     * @param plan       the channel plan
     * @param c          the collective
     * @param algos      NCCL_ALGO as parsed
     * @param beyondRing NCCL_COLLNET_ENABLE=1 or NCCL_PAT_ENABLE=1: algorithms other than Ring may run AllGather and
     *                   ReduceScatter between nodes
     * @return the bound, GB/s of bus bandwidth; {@code Double.POSITIVE_INFINITY} for one rank
     */
    public static double busBw(ChannelPlan plan, Collective c, AlgoProtoFilter<Algorithm> algos,
            boolean beyondRing) {
        return busBw(plan, c, algos, beyondRing, true);
    }

    /**
     * The bound over the algorithms NCCL_ALGO allows that can run a protocol NCCL_PROTO allows: NVLS and NVLSTree
     * run Simple only (NCCL 2.30.7 {@code src/graph/tuning.cc:301}, {@code ncclTopoTuneModel} skips them for LL
     * and LL128; PAT likewise, line 302), so without Simple the NVLS figure does not apply and an AllReduce whose
     * other allowed algorithms are Simple-only runs as Ring. One DGX H100 under NCCL_PROTO=LL128: 450, not 787.5.
     *
     * @param plan       the channel plan
     * @param c          the collective
     * @param algos      NCCL_ALGO as parsed
     * @param beyondRing NCCL_COLLNET_ENABLE=1 or NCCL_PAT_ENABLE=1
     * @param simple     NCCL_PROTO allows Simple for this collective
     * @return the bound, GB/s of bus bandwidth; {@code Double.POSITIVE_INFINITY} for one rank
     */
    public static double busBw(ChannelPlan plan, Collective c, AlgoProtoFilter<Algorithm> algos,
            boolean beyondRing, boolean simple) {
        if (c != Collective.ALL_REDUCE && c != Collective.ALL_GATHER && c != Collective.REDUCE_SCATTER) {
            return busBw(plan, c);
        }
        boolean ringOnly = ringOnly(c, plan.nNodes() > 1, algos, beyondRing) || !simple && onlySimpleBesidesRing(c,
                algos);
        boolean nvls = plan.nvlsSupport() && simple
                && (algos.allows(c, Algorithm.NVLS) || algos.allows(c, Algorithm.NVLS_TREE));
        double intra = intraBusBw(c, plan.nRanks(), plan.nNodes(), plan.gpuScaleUpBw(), nvls);
        double inter = interBusBw(plan, c, ringOnly);
        return Math.min(intra, inter);
    }

    /**
     * Which algorithms the bound is for, in words, where NCCL_ALGO turns some of the collective's off: the bound of
     * an AllReduce, AllGather or ReduceScatter is that of the algorithms allowed ({@link #busBw(ChannelPlan,
     * Collective, AlgoProtoFilter, boolean)}), so a printed bound says so next to it. On two DGX A100 with
     * NCCL_ALGO=Ring: "for Ring, the algorithm NCCL_ALGO=Ring allows" (the bound 200 GB/s, a ring's NICs, where
     * Tree would allow more).
     *
     * @param c     the collective
     * @param algos NCCL_ALGO as parsed
     * @return the phrase, e.g. {@code for Ring, the algorithm NCCL_ALGO=Ring allows}; empty where NCCL_ALGO leaves
     *         every algorithm on, or the collective's bound does not read it (Broadcast, Reduce, p2p)
     */
    public static Optional<String> algorithmsNote(Collective c, AlgoProtoFilter<Algorithm> algos) {
        if (c != Collective.ALL_REDUCE && c != Collective.ALL_GATHER && c != Collective.REDUCE_SCATTER) {
            return Optional.empty();
        }
        List<String> on = Arrays.stream(Algorithm.values()).filter(a -> algos.allows(c, a)).map(Algorithm::ncclName)
                .toList();
        if (on.size() == Algorithm.values().length) {
            return Optional.empty();
        }
        return Optional.of(on.isEmpty() ? "for no algorithm (NCCL_ALGO=" + algos.text() + " allows none)"
                : "for " + String.join(", ", on) + ", the algorithm" + (on.size() > 1 ? "s" : "") + " NCCL_ALGO="
                + algos.text() + " allows");
    }

    /**
     * Whether only NCCL's Ring can run an AllReduce, AllGather or ReduceScatter (the rule of {@link
     * #busBw(ChannelPlan, Collective, AlgoProtoFilter, boolean)}): NCCL_ALGO allows Ring alone, or an AllGather or
     * ReduceScatter crosses nodes without CollNet or PAT.
     *
     * @param c          the collective
     * @param multiNode  the ranks span more than one NCCL node
     * @param algos      NCCL_ALGO as parsed
     * @param beyondRing NCCL_COLLNET_ENABLE=1 or NCCL_PAT_ENABLE=1
     * @return true when the collective runs as Ring
     */
    public static boolean ringOnly(Collective c, boolean multiNode, AlgoProtoFilter<Algorithm> algos,
            boolean beyondRing) {
        if (c != Collective.ALL_REDUCE && c != Collective.ALL_GATHER && c != Collective.REDUCE_SCATTER) {
            return false;
        }
        boolean allowedRing = true;
        for (Algorithm a : Algorithm.values()) {
            allowedRing &= a == Algorithm.RING || !algos.allows(c, a);
        }
        return allowedRing || c != Collective.ALL_REDUCE && multiNode && !beyondRing;
    }

    /** @return true when every algorithm NCCL_ALGO allows but Ring runs Simple only (NVLS, NVLSTree, PAT) */
    private static boolean onlySimpleBesidesRing(Collective c, AlgoProtoFilter<Algorithm> algos) {
        for (Algorithm a : Algorithm.values()) {
            if (a != Algorithm.RING && a != Algorithm.NVLS && a != Algorithm.NVLS_TREE && a != Algorithm.PAT
                    && algos.allows(c, a)) {
                return false;
            }
        }
        return true;
    }

    /**
     * @return the intra-node part of the bound, GB/s ({@code Double.POSITIVE_INFINITY} when it does not apply)
     */
    public static double intraBusBw(ChannelPlan plan, Collective c) {
        return intraBusBw(c, plan.nRanks(), plan.nNodes(), plan.gpuScaleUpBw(), plan.nvlsSupport());
    }

    /**
     * @return the inter-node (NIC) part of the bound, GB/s ({@code Double.POSITIVE_INFINITY} on one node)
     */
    public static double interBusBw(ChannelPlan plan, Collective c) {
        if (c == Collective.SEND_RECV) {
            return plan.nNodes() < 2 || plan.nRanks() < 2 ? Double.POSITIVE_INFINITY
                    : sendRecvInterBusBw(plan.nodeNetBw(), plan.minLocalRanks(), plan.nicsPerNode());
        }
        return interBusBw(c, plan.nRanks(), plan.nNodes(), plan.nodeNetBw(), plan.minLocalRanks(),
                plan.maxLocalRanks());
    }

    /**
     * SendRecv's network part (class comment): each node's last rank sends S to the next node's first (nccl-tests
     * 2.19.6 {@code src/sendrecv.cu}, rank r to r+1) through its GPU's ceil(NICs / GPUs) local NICs (NCCL 2.30.7
     * {@code ncclTopoGetLocalNetType}); the weakest node's ranks, at least gMin, share its NICs, so one of them has at
     * most ceil(NICs / gMin) of them. NICs of one speed assumed (N / NICs each). With 3 + 2 ranks on hosts of two
     * GPUs and two 50 GB/s NICs per PCIe switch (the weakest node: 2 ranks, 2 NICs, N = 100): 50, where the mean
     * n/m = 2.5 gave 40; 4 ranks behind one NIC: the whole NIC; 3 NICs for 2 GPUs: 2 NICs each.
     *
     * @param nic  per-direction NIC bandwidth of the weakest node (its ranks' local NICs), GB/s
     * @param gMin fewest ranks on a node, >= 1
     * @param nics NICs local to the weakest node's ranks (0 or less: taken as 1)
     * @return busbw limit, GB/s (factor 1)
     */
    public static double sendRecvInterBusBw(double nic, int gMin, int nics) {
        int k = Math.max(1, nics);
        int g = Math.max(1, gMin);
        return nic * ((k + g - 1) / g) / k;
    }

    /**
     * The inter-node part for calls of one algorithm: a Ring's ({@link #nicBusBw} with k = n: its rings enter and
     * leave every node once per channel, so a Ring AllGather's node sends (n-1)/n S, not (m-1)/m S), any other
     * algorithm's as {@link #interBusBw(ChannelPlan, Collective)}; both on the network bandwidth the node's GPUs can
     * feed ({@link ChannelPlan#nodeNetBw}). The prediction's network limit and the bound column use this one rule.
     *
     * @param plan the channel plan
     * @param c    the collective
     * @param ring true for NCCL's Ring algorithm
     * @return GB/s of bus bandwidth ({@code Double.POSITIVE_INFINITY} on one node)
     */
    public static double interBusBw(ChannelPlan plan, Collective c, boolean ring) {
        if (!ring || plan.nNodes() < 2 || plan.nRanks() < 2) {
            return interBusBw(plan, c);
        }
        return nicBusBw(c, true, plan.nRanks(), plan.nNodes(), plan.ppn(), plan.nodeNetBw());
    }

    /**
     * The intra-node part from figures.
     *
     * @param c      the collective
     * @param n      ranks, >= 1
     * @param m      NCCL nodes, 1..n
     * @param b      per-direction scale-up bandwidth of the weakest GPU, GB/s
     * @param nvls   NVLink SHARP reduction usable
     * @return busbw limit, GB/s ({@code Double.POSITIVE_INFINITY} when it does not apply)
     */
    public static double intraBusBw(Collective c, int n, int m, double b, boolean nvls) {
        if (n == 1) {
            return Double.POSITIVE_INFINITY;
        }
        double q = (double) n / m;
        return switch (c) {
            case ALL_REDUCE -> nvls ? b * BusBandwidth.factor(Collective.ALL_REDUCE, n)
                    : q > 1 ? b * (q / (q - 1)) * ((n - 1.0) / n) : Double.POSITIVE_INFINITY;
            case ALL_TO_ALL, GATHER, SCATTER -> nodePeerShare(b, n, q);
            default -> b;
        };
    }

    /**
     * The inter-node part from figures: what any algorithm must send over each node's NICs.
     *
     * @param c   the collective
     * @param n   ranks, >= 1
     * @param m   NCCL nodes, 1..n
     * @param nic per-direction NIC bandwidth of the weakest node (sum of its cabled NICs), GB/s
     * @return busbw limit, GB/s ({@code Double.POSITIVE_INFINITY} on one node)
     */
    public static double interBusBw(Collective c, int n, int m, double nic) {
        double q = (double) n / m;
        return interBusBw(c, n, m, nic, q, q);
    }

    /**
     * The inter-node part when nodes hold different numbers of ranks, from {@code gMin} to {@code gMax}. A node of g
     * ranks sends g S (n-g)/n over its NICs for AllToAll: the weakest node (NIC bandwidth {@code nic}) holds some g
     * in [gMin, gMax], and g (n-g) is concave in g, so it sends at least min(gMin (n-gMin), gMax (n-gMax)) S/n; the
     * mean n/m can overstate it (5 ranks as 3 + 2: each node sends 6/5 S, the mean 2.5 gives 5/4 S). Gather and
     * Scatter: the root's node moves at least (n-gMax)/n S. SendRecv: a node's one crossing rank gets at most its
     * share nic / gMin (every rank with a NIC of its own or more; {@link #sendRecvInterBusBw} when the NIC count is
     * known). Equal to {@link #interBusBw(Collective, int, int, double)}
     * when gMin = gMax = n/m.
     *
     * @param c    the collective
     * @param n    ranks, >= 1
     * @param m    NCCL nodes, 1..n
     * @param nic  per-direction NIC bandwidth of the weakest node, GB/s
     * @param gMin fewest ranks on a node
     * @param gMax most ranks on a node
     * @return busbw limit, GB/s ({@code Double.POSITIVE_INFINITY} on one node)
     */
    public static double interBusBw(Collective c, int n, int m, double nic, double gMin, double gMax) {
        if (n == 1 || m < 2) {
            return Double.POSITIVE_INFINITY;
        }
        return switch (c) {
            case ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER -> nic * ((double) m / (m - 1)) * ((n - 1.0) / n);
            case BROADCAST, REDUCE -> nic;
            case ALL_TO_ALL -> nic * (n - 1.0) / Math.min(gMin * (n - gMin), gMax * (n - gMax));
            case GATHER, SCATTER -> nic * (n - 1.0) / (n - gMax);
            case SEND_RECV -> nic / gMin;
        };
    }

    /**
     * Bytes one node must send (or, for Gather, receive) over its NICs for one call of nccl-tests size S: with k
     * the nodes the collective spans and g its ranks on the node, AllReduce {@code 2 (k-1)/k S} and AllGather,
     * ReduceScatter {@code (k-1)/k S} (each node's share of the result crosses every other node's NICs once; a ring
     * over one GPU per node meets it), AllToAll {@code g S (n-g)/n} (each member's buffer share addressed off the
     * node), Gather/Scatter {@code (n-g)/n S} at the root's node, SendRecv, Broadcast, Reduce {@code S}. For NCCL's
     * Ring algorithm pass {@code k = n}: its rings enter and leave every node once per channel, so a node sends
     * {@code 2 (n-1)/n S} for AllReduce and {@code (n-1)/n S} for AllGather/ReduceScatter (nccl-tests 2.19.6
     * {@code doc/PERFORMANCE.md}).
     *
     * @param c the collective
     * @param n ranks
     * @param k nodes spanned (n for a ring)
     * @param g ranks on the node
     * @param s nccl-tests size, bytes
     * @return bytes over the node's NICs
     */
    public static double nodeNicBytes(Collective c, int n, int k, double g, double s) {
        return switch (c) {
            case ALL_REDUCE -> 2.0 * (k - 1) / k * s;
            case ALL_GATHER, REDUCE_SCATTER -> (double) (k - 1) / k * s;
            case ALL_TO_ALL -> g * s * (n - g) / n;
            case GATHER, SCATTER -> (n - g) / n * s;
            default -> s;
        };
    }

    /**
     * The busbw limit of {@link #nodeNicBytes} at {@code nodeGBps} of NICs per node: {@code busBwFactor x S / (bytes
     * / nodeGBps)}.
     *
     * @param c        the collective
     * @param ring     true when it runs as NCCL's Ring algorithm (k = n)
     * @param n        ranks, >= 2
     * @param k        nodes spanned, >= 2
     * @param g        ranks per node
     * @param nodeGBps the node's cabled NIC bandwidth per direction, GB/s
     * @return busbw limit, GB/s
     */
    public static double nicBusBw(Collective c, boolean ring, int n, int k, double g, double nodeGBps) {
        return BusBandwidth.factor(c, n) * nodeGBps / nodeNicBytes(c, n, ring ? n : k, g, 1.0);
    }

    /** busBw limit when only the (q-1)/n S for a GPU's node peers must cross its links B: B (n-1)/(q-1). */
    private static double nodePeerShare(double b, int n, double q) {
        return q > 1 ? b * (n - 1.0) / (q - 1) : Double.POSITIVE_INFINITY;
    }
}
