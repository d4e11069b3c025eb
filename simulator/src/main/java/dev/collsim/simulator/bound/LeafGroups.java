package dev.collsim.simulator.bound;

import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.topology.fabric.FabricCut;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A communicator's ranks over the leaf groups of the fabric's cut ({@link FabricCut}): k_i ranks and U_i GB/s of
 * uplink per direction in group i, read once per communicator so that a size sweep, a plan or a design sweep cuts the
 * fabric once per (cluster, ranks), not per size. {@link #busBw} is {@link FabricBound}'s limit from these figures;
 * {@link #floorUs} the time below which no call of that size can finish. Only communicators that span two or more
 * groups have one ({@link #of} is empty otherwise: the fabric limits nothing). Immutable and thread-safe.
 */
public final class LeafGroups {

    final int[] ranks;
    final double[] uplink;

    private LeafGroups(int[] ranks, double[] uplink) {
        this.ranks = ranks;
        this.uplink = uplink;
    }

    /**
     * @param topology the cluster
     * @param ranks    the communicator's GPUs
     * @return the ranks' leaf groups; empty when the ranks sit on one host or in one leaf group, when a group has no
     *         uplink, or when the cluster is described once with more than {@link FabricCut#MAX_PARTIAL_HOSTS} of
     *         its hosts in the communicator and its graph is not built ({@link FabricCut#of} gives no cut)
     */
    public static Optional<LeafGroups> of(Topology topology, List<Gpu> ranks) {
        if (ranks.size() < 2 || ranks.stream().allMatch(g -> g.host() == ranks.get(0).host())) {
            return Optional.empty();
        }
        FabricCut cut = FabricCut.of(topology, ranks.stream().mapToInt(Gpu::host).toArray()).orElse(null);
        if (cut == null || cut.groups().size() < 2) {
            return Optional.empty();
        }
        Map<Integer, Integer> groupOf = new HashMap<>();
        for (int i = 0; i < cut.groups().size(); i++) {
            for (int h : cut.groups().get(i).hosts()) {
                groupOf.put(h, i);
            }
        }
        int[] k = new int[cut.groups().size()];
        ranks.forEach(g -> k[groupOf.get(g.host())]++);
        double[] up = cut.groups().stream().mapToDouble(FabricCut.Group::uplinkGBps).toArray();
        return Arrays.stream(up).allMatch(u -> u > 0) ? Optional.of(new LeafGroups(k, up)) : Optional.empty();
    }

    /**
     * The groups a prediction needs: none on a cluster built from a non-blocking fabric spec ({@link
     * FabricCut#nonBlocking}: they would limit nothing the NICs do not, and cutting a cluster described once builds
     * its ranks' hosts), else {@link #of}.
     *
     * @param topology the cluster
     * @param ranks    the communicator's GPUs
     * @return the groups that may limit the ranks, or empty
     */
    public static Optional<LeafGroups> limiting(Topology topology, List<Gpu> ranks) {
        return FabricCut.nonBlocking(topology) ? Optional.empty() : of(topology, ranks);
    }

    /**
     * The same groups when {@code groups} communicators of this shape cross the spine at once, each with the same
     * traffic (the data-parallel groups of a training step, one per GPU of a host): each gets 1/groups of every
     * group's uplink.
     *
     * @param groups concurrent communicators sharing the uplinks, &gt;= 1
     * @return the groups with U_i / groups
     * @throws IllegalArgumentException when groups is below 1
     */
    public LeafGroups shared(int groups) {
        if (groups < 1) {
            throw new IllegalArgumentException("groups must be >= 1, got " + groups);
        }
        return new LeafGroups(ranks, Arrays.stream(uplink).map(u -> u / groups).toArray());
    }

    /**
     * @param c        the collective
     * @param settings NCCL settings (NCCL_ALGO, NCCL_COLLNET_ENABLE, NCCL_PAT_ENABLE; as {@link FabricBound#busBw(
     *                 Topology, List, Collective, NcclSettings)})
     * @param ring     the call runs as NCCL's Ring (its ring leaves every group: the tighter min U_i limit)
     * @return the fabric's busbw limit, GB/s ({@link FabricBound#busBw(Collective, int[], double[], boolean, boolean)})
     */
    public double busBw(Collective c, NcclSettings settings, boolean ring) {
        boolean onlyRing = ring || PhysicalBound.ringOnly(c, true, settings.algo(),
                settings.collnetEnable() || settings.patEnable() == 1);
        return FabricBound.busBw(c, ranks, uplink, onlyRing, settings.collnetEnable());
    }

    /**
     * The least time of a call: its nccl-tests bytes at the fabric's limit, {@code bytes x busbw factor / busBw}.
     *
     * @param c     the collective
     * @param bytes bytes nccl-tests divides by time (the algbw's numerator)
     * @param busBw the limit of {@link #busBw}, GB/s
     * @return microseconds; 0 when the limit is not finite
     */
    public double floorUs(Collective c, double bytes, double busBw) {
        int n = Arrays.stream(ranks).sum();
        return Double.isFinite(busBw) ? BusBandwidth.timeUs(bytes * BusBandwidth.factor(c, n), busBw) : 0;
    }

    /** @return the leaf groups the ranks span, &gt;= 2 */
    public int count() {
        return ranks.length;
    }

    /**
     * @param busBw the limit that set the time, GB/s
     * @return the bottleneck in words, e.g. {@code fabric leaf uplinks: busbw <= 258.3 GB/s (4 leaf groups, 200.0 GB/s
     *         of uplink each)}; starts with {@link FabricBound#BOTTLENECK}
     */
    public String describe(double busBw) {
        double lo = Arrays.stream(uplink).min().orElse(0);
        double hi = Arrays.stream(uplink).max().orElse(0);
        String each = lo == hi ? String.format(Locale.ROOT, "%.1f GB/s of uplink each", lo)
                : String.format(Locale.ROOT, "%.1f to %.1f GB/s of uplink", lo, hi);
        return String.format(Locale.ROOT, "%s: busbw <= %.1f GB/s (%d leaf groups, %s)", FabricBound.BOTTLENECK,
                busBw, ranks.length, each);
    }
}
