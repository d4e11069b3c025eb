package dev.collsim.topology.fabric;

import dev.collsim.topology.Device;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.units.Bandwidth;
import dev.collsim.units.Latency;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Adds a fabric's switches and cables to a topology being built. Compute NICs (rail >= 0) are attached; other NICs
 * (storage, management) are left off the fabric.
 *
 * <p>Sizing of a two-tier plane, per leaf: {@code d = min(leafRadix, endpoints per leaf)} downlinks of speed s are
 * used, and the uplink bandwidth is {@code U = d s / oversubscription}, spread evenly over
 * {@code S = max(1, round(d / oversubscription))} spines (one cable per leaf-spine pair of {@code U / S}), so every
 * leaf has exactly the requested downlink:uplink ratio. A fat-tree plane whose NICs fit one leaf has no spines. Which
 * leaf each NIC is cabled to: {@link LeafLayout}.
 * Switch ids: {@code leaf{i}}, {@code spine{i}}; with several planes {@code p{plane}/leaf{i}}. Each cable direction
 * entering a switch carries the switch latency.
 */
public final class FabricBuilder {

    private FabricBuilder() {
    }

    /**
     * Builds the fabric.
     *
     * @param b    the topology being built, with its hosts already added
     * @param spec the fabric
     * @throws IllegalArgumentException if no NIC has a rail (nothing to connect)
     */
    public static void build(TopologyBuilder b, FabricSpec spec) {
        List<List<Nic>> planes = nicsByPlane(b, spec);
        for (int plane = 0; plane < planes.size(); plane++) {
            if (!planes.get(plane).isEmpty()) {
                buildPlane(b, spec, plane, planes.get(plane));
            }
        }
    }

    /**
     * @return the compute NICs (rail >= 0) of the hosts in {@code b}, by host then rail, split by plane (rail mod
     *         planes); one list per plane, possibly empty
     * @throws IllegalArgumentException if no NIC has a rail (nothing to connect)
     */
    static List<List<Nic>> nicsByPlane(TopologyBuilder b, FabricSpec spec) {
        List<Nic> nics = b.devices().stream().filter(d -> d instanceof Nic n && n.rail() >= 0).map(Nic.class::cast)
                .sorted(Comparator.comparingInt(Nic::host).thenComparingInt(Nic::rail)).toList();
        if (nics.isEmpty()) {
            throw new IllegalArgumentException("the hosts have no compute NIC (rail >= 0) to connect a fabric to");
        }
        List<List<Nic>> planes = new ArrayList<>();
        for (int plane = 0; plane < spec.planes(); plane++) {
            int p = plane;
            planes.add(nics.stream().filter(n -> n.rail() % spec.planes() == p).toList());
        }
        return planes;
    }

    static String prefix(FabricSpec spec, int plane) {
        return spec.planes() == 1 ? "" : "p" + plane + "/";
    }

    private static void buildPlane(TopologyBuilder b, FabricSpec spec, int plane, List<Nic> nics) {
        String pre = prefix(spec, plane);
        List<List<Nic>> groups = LeafLayout.of(spec).leaves(nics);
        List<NetSwitch> leaves = new ArrayList<>();
        int maxDown = 0;
        for (int i = 0; i < groups.size(); i++) {
            NetSwitch leaf = b.add(new NetSwitch(pre + "leaf" + i, NetSwitch.Tier.LEAF, plane));
            leaves.add(leaf);
            maxDown = Math.max(maxDown, groups.get(i).size());
            for (Nic n : groups.get(i)) {
                cable(b, n, leaf, speed(spec, n), spec.switchLatency(), "NIC-leaf");
            }
        }
        boolean spines = spec.kind() != FabricKind.SINGLE_SWITCH && leaves.size() > 1;
        if (!spines) {
            return;
        }
        addSpines(b, spec, nics.get(0), maxDown, leaves, pre, plane);
    }

    /**
     * Adds a plane's spines and cables every leaf to each: d = min(leaf radix, NICs per leaf) downlinks per leaf,
     * d / oversubscription spines (at least 1), each leaf-spine cable carrying d x NIC speed / oversubscription /
     * spines GB/s.
     *
     * @param nic     a NIC of the plane (its speed, capped by the fabric's link speed)
     * @param maxDown NICs on the fullest leaf
     * @param leaves  the plane's leaves
     * @param pre     the plane's switch-name prefix
     * @param plane   the plane index
     */
    static void addSpines(TopologyBuilder b, FabricSpec spec, Nic nic, long maxDown, List<NetSwitch> leaves,
            String pre, int plane) {
        double s = speed(spec, nic).gbps();
        long d = Math.min(spec.leafRadix(), maxDown);
        double uplink = leafUplinkGBps(spec, s, maxDown);
        int nSpines = Math.max(1, (int) Math.round(d / spec.oversubscription()));
        Bandwidth perCable = Bandwidth.ofGBps(uplink / nSpines);
        for (int k = 0; k < nSpines; k++) {
            NetSwitch spine = b.add(new NetSwitch(pre + "spine" + k, NetSwitch.Tier.SPINE, plane));
            for (NetSwitch leaf : leaves) {
                cable(b, leaf, spine, perCable, spec.switchLatency(), "leaf-spine");
            }
        }
    }

    /**
     * @param spec    the fabric
     * @param nicGBps a NIC's speed on the fabric ({@link #speed}), GB/s per direction
     * @param maxDown NICs on the plane's fullest leaf
     * @return each leaf's uplink, {@code d x s / oversubscription} with {@code d = min(leaf radix, maxDown)}, GB/s
     */
    static double leafUplinkGBps(FabricSpec spec, double nicGBps, long maxDown) {
        return Math.min(spec.leafRadix(), maxDown) * nicGBps / spec.oversubscription();
    }

    static Bandwidth speed(FabricSpec spec, Nic n) {
        return spec.linkSpeed() == null ? n.speed() : spec.linkSpeed().min(n.speed());
    }

    static void cable(TopologyBuilder b, Device a, Device s, Bandwidth bw, Latency switchLatency,
            String detail) {
        b.connectOneWay(a, s, LinkType.NET, 1, bw, switchLatency, detail);
        b.connectOneWay(s, a, LinkType.NET, 1, bw, s instanceof NetSwitch && a instanceof NetSwitch
                ? switchLatency : Latency.ZERO, detail);
    }
}
