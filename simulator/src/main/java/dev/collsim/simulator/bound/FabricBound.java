package dev.collsim.simulator.bound;

import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.topology.fabric.FabricCut;
import java.util.List;

/**
 * The fabric's part of the physical bound: what the uplinks of the leaves allow when the ranks sit in G &gt;= 2 leaf
 * groups ({@link FabricCut}: hosts joined below the spine; a fat-tree leaf, a rail-optimized scalable unit, whose
 * rail traffic stays under its rail leaves). Group i holds k_i of the n ranks and has U_i GB/s of uplink per direction
 * (after oversubscription); U = sum of U_i; S = nccl-tests size. Every byte between groups crosses the sender's and
 * the receiver's uplinks, so:
 *
 * <ul>
 *   <li><b>AllReduce</b>, any algorithm: every element's G partial sums must meet and the result must reach every
 *       group, at least 2(G-1) element transfers between groups (the bandwidth-optimal lower bound of Patarasuk and
 *       Yuan, J. Parallel Distrib. Comput. 69(2), 2009, with groups as its nodes; one-way gossip needs 2G-2 calls),
 *       so 2(G-1) S crosses the uplinks, which carry U per unit time: time &gt;= 2(G-1) S / U,
 *       algBw &lt;= U / (2(G-1)), busBw &lt;= U / (2(G-1)) x 2(n-1)/n. Each group also sends at least S (every
 *       other group needs its inputs): busBw &lt;= min U_i x 2(n-1)/n, the only limit when the spines may reduce
 *       (CollNet/SHARP, NCCL_COLLNET_ENABLE=1: the 2(G-1) argument assumes reductions in the groups). With equal
 *       groups the first is U_i G/(G-1) (n-1)/n: the node NIC bound's form with groups for nodes and uplinks for
 *       NICs.</li>
 *   <li><b>AllGather, ReduceScatter</b>: group i receives (sends) the n-k_i other ranks' shares, (n-k_i)/n S:
 *       busBw = algBw (n-1)/n &lt;= U_i (n-1)/(n-k_i), i.e. U/(G-1) x (n-1)/n for equal groups.</li>
 *   <li><b>Ring</b> (NCCL_ALGO=Ring, or AllGather/ReduceScatter across nodes without CollNet or PAT, as {@link
 *       PhysicalBound#ringOnly}): a ring over ranks of G &gt;= 2 groups leaves every group at least once per
 *       channel, and every ring edge carries 2(n-1)/n S (AllReduce) or (n-1)/n S (AllGather, ReduceScatter) over
 *       the channels together: busBw &lt;= min U_i.</li>
 *   <li><b>AllToAll</b>: group i sends k_i (n-k_i)/n S off the group: busBw &lt;= U_i (n-1)/(k_i (n-k_i)).</li>
 *   <li><b>Broadcast, Reduce, SendRecv</b>: the root's group sends S and every other group receives S; nccl-tests'
 *       SendRecv (rank r to r+1, a cycle) leaves every group once with S: busBw &lt;= min U_i.</li>
 *   <li><b>Gather, Scatter</b>: the root's group moves (n-k_r)/n S; the root is not known here, so the largest
 *       U_i (n-1)/(n-k_i) over the groups.</li>
 * </ul>
 * One group (a single leaf or switch, a rail-optimized unit, one host): no limit (infinity); so too for more than
 * {@link FabricCut#MAX_PARTIAL_HOSTS} hosts of a cluster described once whose graph is not built (an analytical
 * what-if variant of a large cluster; the flow backend builds the graph first, so its bound has the fabric's part).
 * On a non-blocking fabric U_i is at least the NICs below the group, and the limit is never below {@link
 * PhysicalBound}'s NIC limit. Worked example, the built-in report's "2:1 fat-tree, 8 ports/leaf" (4 DGX H100,
 * 8 x 400 Gb/s NICs per host, one host per leaf): U_i = 8 x 50 / 2 = 200 GB/s, G = 4, n = 32: AllReduce
 * busBw &lt;= 800 / 6 x 62/32 = 258.3 GB/s, where the NICs allow 516.7.
 *
 * <p>Applied in every prediction: the analytical time of a call is never below its bytes at this limit ({@code
 * PreparedCommunicator} reads the communicator's {@link LeafGroups} once; a call run as Ring takes the Ring form), and
 * the bound printed with it is the lower of this and {@link PhysicalBound}; the flow backend ({@code FlowPredictor},
 * {@code FlowSweep}) applies it to its bound too. Concurrent communicators crossing the same uplinks (a training
 * step's data-parallel groups) share them: {@link LeafGroups#shared}. On a non-blocking fabric it never binds (above).
 */
public final class FabricBound {

    /** How a bottleneck set by the leaf uplinks starts, in every prediction's words ({@link LeafGroups#describe}). */
    public static final String BOTTLENECK = "fabric leaf uplinks";

    private FabricBound() {
    }

    /**
     * @param topology the cluster
     * @param ranks    the communicator's GPUs
     * @param c        the collective
     * @param settings NCCL settings (null: NCCL's defaults); NCCL_ALGO, NCCL_COLLNET_ENABLE and NCCL_PAT_ENABLE say
     *                 whether only Ring may cross the fabric
     * @return the fabric's busbw limit, GB/s; {@code Double.POSITIVE_INFINITY} when the ranks sit in one leaf group
     */
    public static double busBw(Topology topology, List<Gpu> ranks, Collective c, NcclSettings settings) {
        NcclSettings s = settings == null ? NcclSettings.DEFAULTS : settings;
        boolean ring = PhysicalBound.ringOnly(c, true, s.algo(), s.collnetEnable() || s.patEnable() == 1);
        return busBw(topology, ranks, c, ring, s.collnetEnable());
    }

    /**
     * @param topology the cluster
     * @param ranks    the communicator's GPUs
     * @param c        the collective
     * @param ring     only NCCL's Ring crosses the groups (false: any algorithm, e.g. a schedule forced by the user)
     * @return the fabric's busbw limit, GB/s; {@code Double.POSITIVE_INFINITY} when the ranks sit in one leaf group
     */
    public static double busBw(Topology topology, List<Gpu> ranks, Collective c, boolean ring) {
        return busBw(topology, ranks, c, ring, false);
    }

    private static double busBw(Topology topology, List<Gpu> ranks, Collective c, boolean ring,
            boolean switchReduce) {
        return LeafGroups.of(topology, ranks).map(g -> busBw(c, g.ranks, g.uplink, ring, switchReduce))
                .orElse(Double.POSITIVE_INFINITY);
    }

    /**
     * The limit from figures (class comment), no reduction in the network's switches.
     *
     * @param c      the collective
     * @param ranks  ranks in each leaf group (k_i), each >= 1
     * @param uplink uplink GB/s of each group per direction (U_i), same order
     * @param ring   only NCCL's Ring algorithm crosses the groups
     * @return busbw limit, GB/s; {@code Double.POSITIVE_INFINITY} for fewer than 2 groups or a group without uplink
     */
    public static double busBw(Collective c, int[] ranks, double[] uplink, boolean ring) {
        return busBw(c, ranks, uplink, ring, false);
    }

    /**
     * The limit from figures (class comment).
     *
     * @param c            the collective
     * @param ranks        ranks in each leaf group (k_i), each >= 1
     * @param uplink       uplink GB/s of each group per direction (U_i), same order
     * @param ring         only NCCL's Ring algorithm crosses the groups
     * @param switchReduce the spines may reduce (CollNet, NCCL_COLLNET_ENABLE=1: SHARP): an AllReduce then needs only
     *                     S up and S down per group, busBw &lt;= min U_i x 2(n-1)/n
     * @return busbw limit, GB/s; {@code Double.POSITIVE_INFINITY} for fewer than 2 groups or a group without uplink
     */
    public static double busBw(Collective c, int[] ranks, double[] uplink, boolean ring, boolean switchReduce) {
        int g = ranks.length;
        int n = 0;
        double total = 0;
        double minUp = Double.POSITIVE_INFINITY;
        for (int i = 0; i < g; i++) {
            n += ranks[i];
            total += uplink[i];
            minUp = Math.min(minUp, uplink[i]);
        }
        if (g < 2 || !(minUp > 0)) {
            return Double.POSITIVE_INFINITY;
        }
        double f = BusBandwidth.factor(c, n);
        double best = Double.POSITIVE_INFINITY;
        double worst = 0;
        for (int i = 0; i < g; i++) {
            double share = switch (c) {
                case ALL_GATHER, REDUCE_SCATTER, GATHER, SCATTER -> uplink[i] * (n - 1.0) / (n - ranks[i]);
                case ALL_TO_ALL -> uplink[i] * (n - 1.0) / ((double) ranks[i] * (n - ranks[i]));
                default -> uplink[i];
            };
            best = Math.min(best, share);
            worst = Math.max(worst, share);
        }
        return switch (c) {
            case ALL_REDUCE -> ring ? minUp : Math.min(switchReduce ? minUp : total / (2.0 * (g - 1)), minUp) * f;
            case ALL_GATHER, REDUCE_SCATTER -> ring ? minUp : best;
            case GATHER, SCATTER -> worst;
            default -> best;
        };
    }
}
