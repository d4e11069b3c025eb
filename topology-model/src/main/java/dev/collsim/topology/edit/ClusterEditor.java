package dev.collsim.topology.edit;

import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.HostType;
import dev.collsim.topology.catalog.OwnNvlinkDomain;
import dev.collsim.topology.fabric.ClusterSpec;
import dev.collsim.topology.fabric.FabricBuilder;
import dev.collsim.topology.fabric.FabricKind;
import dev.collsim.topology.fabric.FabricSpec;
import dev.collsim.units.Bandwidth;
import java.util.HashMap;
import java.util.Map;

/**
 * Applies {@link ClusterEdits} to a base {@link ClusterSpec}: host type and count, trays per NVLink domain, fabric
 * shape, oversubscription and leaf radix change the spec; NIC speed, compute NICs per host (rails) and NVLink bandwidth per GPU are applied to the
 * hosts' devices before the fabric is cabled (so fabric cables follow the new NIC speed); the network class, when
 * edited, replaces the host type's ({@link Topology#withNetworkClass}). A multi-host cluster without a fabric gets a
 * rail-optimized one. Stateless.
 */
public final class ClusterEditor {

    private ClusterEditor() {
    }

    /**
     * @param base  the base cluster
     * @param edits the changes
     * @return the changed cluster's spec (fabric, host type and count applied; device edits are applied by
     *         {@link #build})
     * @throws ClusterEditException naming the field and the allowed values when a change cannot be applied
     */
    public static ClusterSpec spec(ClusterSpec base, ClusterEdits edits) {
        HostType type = base.hostType();
        if (edits.hostType() != null) {
            type = Catalog.hostType(edits.hostType()).orElseThrow(() -> new ClusterEditException(
                    ClusterEdits.Field.HOST_TYPE, "unknown host type '" + edits.hostType() + "'; allowed: "
                    + String.join(", ", Catalog.names())));
        }
        int count = edits.hosts() == null ? base.count() : edits.hosts();
        FabricSpec fabric = base.fabric();
        if (edits.nicSpeed() != null && fabric != null && fabric.linkSpeed() != null) {
            // cables follow the new NIC speed
            fabric = new FabricSpec(fabric.kind(), edits.nicSpeed(), fabric.oversubscription(), fabric.leafRadix(),
                    fabric.planes(), fabric.switchLatency());
        }
        if (edits.fabric() != null || edits.oversubscription() != null || edits.leafRadix() != null
                || fabric == null && count > 1) {
            FabricKind kind = edits.fabric() != null ? edits.fabric()
                    : fabric == null ? FabricKind.RAIL_OPTIMIZED : fabric.kind();
            double over = edits.oversubscription() != null ? edits.oversubscription()
                    : fabric == null ? 1.0 : fabric.oversubscription();
            FabricSpec f = fabric == null ? FabricSpec.of(kind) : fabric;
            int radix = edits.leafRadix() != null ? edits.leafRadix() : f.leafRadix();
            fabric = new FabricSpec(kind, f.linkSpeed(), over, radix, f.planes(), f.switchLatency());
        }
        ClusterSpec built = new ClusterSpec(base.name(), base.source(), type, count, count > 1 ? fabric : null);
        built = trays(built, edits);
        String name = edits.isEmpty() ? base.name() : base.name() + " (" + edits.describe(built.ofTrays()) + ")";
        return new ClusterSpec(name, built.source(), built.hostType(), count, built.fabric());
    }

    /**
     * A {@code trays-per-domain} edit, or a tray count that no longer fills the base's NVLink domains evenly, checked
     * as {@code --trays-per-domain} checks it ({@link ClusterSpec#withTraysPerDomain}).
     */
    private static ClusterSpec trays(ClusterSpec spec, ClusterEdits edits) {
        if (edits.traysPerDomain() != null) {
            try {
                return spec.withTraysPerDomain(edits.traysPerDomain());
            } catch (IllegalArgumentException e) {
                throw new ClusterEditException(ClusterEdits.Field.TRAYS_PER_DOMAIN, e.getMessage());
            }
        }
        if (spec.hostType() instanceof OwnNvlinkDomain o && spec.count() % o.trays() != 0) {
            throw new ClusterEditException(ClusterEdits.Field.HOSTS, "found " + spec.count() + " trays for NVLink"
                    + " domains of " + o.trays() + " trays each; allowed: a multiple of " + o.trays() + " trays");
        }
        return spec;
    }

    /**
     * Builds the variant.
     *
     * @param base  the base cluster
     * @param edits the changes
     * @return the topology
     * @throws ClusterEditException when a change cannot be applied (names the field)
     * @throws IllegalArgumentException when the changed cluster cannot be built (e.g. a fabric for hosts without a
     *                                  compute NIC)
     */
    public static Topology build(ClusterSpec base, ClusterEdits edits) {
        Topology t = devices(base, edits);
        return edits.network() == null ? t : t.withNetworkClass(edits.network());
    }

    private static Topology devices(ClusterSpec base, ClusterEdits edits) {
        ClusterSpec spec = spec(base, edits);
        boolean deviceEdits = edits.nicSpeed() != null || edits.nicsPerHost() != null || edits.nvlinkGBps() != null;
        if (!deviceEdits) {
            return spec.build();
        }
        Topology hosts = new ClusterSpec(spec.name(), spec.source(), spec.hostType(), spec.count(), null).build();
        TopologyBuilder b = Topology.builder(spec.name()).source(spec.source())
                .networkClass(spec.hostType().networkClass())
                .nicVendor(spec.hostType().nicVendor());
        Map<Device, Device> mapped = new HashMap<>();
        long computeNics = hosts.devices(Nic.class).stream().filter(n -> n.host() == 0 && n.rail() >= 0).count();
        if (edits.nicsPerHost() != null && edits.nicsPerHost() > computeNics) {
            throw new ClusterEditException(ClusterEdits.Field.NICS_PER_HOST, "found " + edits.nicsPerHost() + ", more than the "
                    + computeNics + " compute NICs a " + spec.hostType().name() + " host has; allowed: 1 to "
                    + computeNics);
        }
        for (Device d : hosts.graph().vertexSet()) {
            Device nd = d;
            if (d instanceof Nic n && n.rail() >= 0) {
                if (edits.nicsPerHost() != null && n.rail() >= edits.nicsPerHost()) {
                    continue;
                }
                Bandwidth speed = edits.nicSpeed() == null ? n.speed() : edits.nicSpeed();
                nd = new Nic(n.id(), n.host(), n.name(), speed, n.port(), n.gdr(), n.rail(), n.busId(),
                        n.ncclDev());
            }
            mapped.put(d, b.add(nd));
        }
        double nvlinkFactor = 1;
        if (edits.nvlinkGBps() != null) {
            Gpu g0 = hosts.gpus().get(0);
            double now = hosts.outgoing(g0).stream().filter(l -> l.type() == LinkType.NVLINK)
                    .mapToDouble(l -> l.bandwidth().gbps()).sum();
            if (now <= 0) {
                throw new ClusterEditException(ClusterEdits.Field.NVLINK, "the " + spec.hostType().name()
                        + " host has no NVLink to change; allowed only on NVLink hosts");
            }
            nvlinkFactor = edits.nvlinkGBps() / now;
        }
        for (Link l : hosts.graph().edgeSet()) {
            Device from = mapped.get(hosts.source(l));
            Device to = mapped.get(hosts.target(l));
            if (from == null || to == null) {
                continue;
            }
            double f = l.type() == LinkType.NVLINK ? nvlinkFactor : 1;
            boolean paired = hosts.graph().getAllEdges(hosts.target(l), hosts.source(l)).stream()
                    .anyMatch(r -> r.type() == l.type() && r.bandwidth().equals(l.bandwidth()));
            if (paired && from.id().compareTo(to.id()) > 0) {
                continue; // added with its reverse direction
            }
            if (paired) {
                b.connect(from, to, l.type(), l.count(), l.bandwidth().times(f), l.ncclBandwidth().times(f),
                        l.latency(), l.detail());
            } else {
                b.connectOneWay(from, to, l.type(), l.count(), l.bandwidth().times(f), l.latency(), l.detail());
            }
        }
        if (spec.fabric() != null) {
            FabricBuilder.build(b, spec.fabric());
        }
        return b.build();
    }
}
