package dev.collsim.cli.flow;

import dev.collsim.simulator.network.FabricFailures;
import dev.collsim.topology.Link;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.HostType;
import dev.collsim.topology.edit.ClusterEditException;
import dev.collsim.topology.edit.ClusterEditor;
import dev.collsim.topology.edit.ClusterEdits;
import dev.collsim.topology.fabric.ClusterSpec;
import dev.collsim.topology.fabric.FabricKind;
import dev.collsim.topology.fabric.FabricSpec;
import dev.collsim.topology.io.ClusterSource;
import dev.collsim.units.Bandwidth;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/** Builds the fabric a flow run uses: the cluster, rebuilt on another fabric if asked, with its failures. */
final class FlowFabric {

    private FlowFabric() {
    }

    /**
     * @param o           options
     * @param source      the -c cluster (default included); --fabric rebuilds its hosts, so it needs a spec (a
     *                    catalog host type, NAMExN, a config or YAML file whose hosts are a catalog type)
     * @param given       the topology predict resolved from -c
     * @return the topology to simulate on
     * @throws IllegalArgumentException on an unknown fabric kind, ratio, speed or cluster
     */
    static Topology topology(FlowOptions o, ClusterSource source, Topology given) {
        if (o.fabric == null) {
            if (o.oversubscription != null || o.leafRadix != null || o.planes != null || o.linkSpeed != null
                    || o.rails != null) {
                throw new IllegalArgumentException("--oversubscription, --leaf-radix, --planes, --rails and"
                        + " --link-speed need --fabric (single-switch, fat-tree or rail-optimized)");
            }
            return given;
        }
        if (o.leafRadix != null && o.leafRadix < 1) {
            throw new IllegalArgumentException("--leaf-radix must be >= 1 (host-facing ports per leaf), got "
                    + o.leafRadix);
        }
        if (o.planes != null && o.planes < 1) {
            throw new IllegalArgumentException("--planes must be >= 1 (independent network planes), got " + o.planes);
        }
        FabricKind kind = FabricKind.parse(o.fabric);
        if (kind == null) {
            throw new IllegalArgumentException("unknown --fabric '" + o.fabric + "'; allowed: " + FabricKind.allowed());
        }
        if (!source.editable()) {
            throw new IllegalArgumentException("--fabric rebuilds the hosts of -c from their host type; -c "
                    + source.name() + " is a machine file read as it is; use -c " + source.name() + ":N (N copies of"
                    + " its host), -c NAME, NAMExN or NAME:N, a config, or a collsim YAML cluster (a catalog host type"
                    + " or an inline host); catalog: " + String.join(", ", Catalog.names()));
        }
        ClusterSpec base = source.spec();
        HostType type = base.hostType();
        int count = base.count();
        double ratio = o.oversubscription == null ? 1.0 : named("--oversubscription",
                () -> FabricSpec.parseRatio(o.oversubscription));
        // a cluster built on a fabric keeps its cable speed unless --link-speed replaces it
        Bandwidth speed = o.linkSpeed != null ? named("--link-speed", () -> Bandwidth.parse(o.linkSpeed))
                : base.fabric() == null ? null : base.fabric().linkSpeed();
        FabricSpec spec = new FabricSpec(kind, speed, ratio, o.leafRadix == null ? FabricSpec.DEFAULT_LEAF_RADIX
                : o.leafRadix, o.planes == null ? 1 : o.planes, FabricSpec.DEFAULT_SWITCH_LATENCY);
        String name = type.hostsName(count) + "-" + kind.yamlName()
                + (ratio > 1 ? "-" + o.oversubscription.replace(" ", "") : "");
        ClusterSpec cluster = new ClusterSpec(name + (o.rails == null ? "" : "-" + o.rails + "rails"),
                type.description(), type, count, spec);
        if (o.rails == null) {
            return cluster.build();
        }
        if (o.rails < 1) {
            throw new IllegalArgumentException("--rails must be >= 1 (compute NICs cabled per host), got " + o.rails);
        }
        try {
            return ClusterEditor.build(cluster, ClusterEdits.NONE.withNicsPerHost(o.rails));
        } catch (ClusterEditException e) {
            throw new IllegalArgumentException("--rails: " + e.detail());
        }
    }

    /**
     * Oversubscription only acts on leaf-to-spine cables; a fabric whose NICs all fit on one leaf per plane (or a
     * single switch) has none, so a ratio above 1:1 changes nothing although the fabric's name carries it.
     *
     * @param o options
     * @param t the topology built from them
     * @return a one-line warning naming the leaf count and what to change, or empty
     */
    static Optional<String> oversubscriptionWarning(FlowOptions o, Topology t) {
        if (o.fabric == null || o.oversubscription == null || FabricSpec.parseRatio(o.oversubscription) <= 1.0) {
            return Optional.empty();
        }
        List<NetSwitch> switches = t.devices(NetSwitch.class);
        if (switches.stream().anyMatch(s -> s.tier() == NetSwitch.Tier.SPINE)) {
            return Optional.empty();
        }
        long leaves = switches.stream().filter(s -> s.tier() == NetSwitch.Tier.LEAF).count();
        int radix = o.leafRadix == null ? FabricSpec.DEFAULT_LEAF_RADIX : o.leafRadix;
        String head = "Warning: --oversubscription " + o.oversubscription + " has no effect: ";
        if (FabricKind.parse(o.fabric) == FabricKind.SINGLE_SWITCH) {
            return Optional.of(head + "a single-switch fabric has no uplinks; use --fabric fat-tree or"
                    + " rail-optimized");
        }
        return Optional.of(head + "the " + o.fabric + " fabric has " + leaves + " leaf switch"
                + (leaves == 1 ? "" : "es") + " and no spines (--leaf-radix " + radix + " holds every host's NICs),"
                + " so no traffic crosses an oversubscribed uplink; lower --leaf-radix to spread the hosts over"
                + " several leaves");
    }

    /**
     * What a run takes out of service.
     *
     * @param links the directed links that are down
     * @param names what was failed, for the header: {@code --fail} names, then the random cables and NICs drawn
     */
    record Failures(Set<Link> links, List<String> names) {
    }

    /**
     * @return the links to fail: named ones, then random cables and NICs (only NICs with a network link) with the
     *         seed, and their names
     * @throws IllegalArgumentException on unknown names, or counts out of range (naming the option and the range)
     */
    static Failures failures(FlowOptions o, Topology t) {
        Set<Link> down = new LinkedHashSet<>(FabricFailures.byName(t, o.fail));
        List<String> names = new ArrayList<>(o.fail);
        List<String> cables = drawn("--fail-random-links", o.failRandomLinks,
                () -> FabricFailures.randomCableNames(t, o.failRandomLinks, o.seed));
        List<String> nics = drawn("--fail-random-nics", o.failRandomNics,
                () -> FabricFailures.randomNicNames(t, o.failRandomNics, o.seed));
        down.addAll(FabricFailures.byName(t, cables));
        down.addAll(FabricFailures.byName(t, nics));
        cables.forEach(c -> names.add("cable " + c + " (random)"));
        nics.forEach(n -> names.add("NIC " + n + " (random)"));
        return new Failures(down, List.copyOf(names));
    }

    /** @return the value, or rethrows its IllegalArgumentException with the option name in front */
    private static <T> T named(String option, Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + ": " + e.getMessage());
        }
    }

    private static List<String> drawn(String option, int count, Supplier<List<String>> draw) {
        if (count == 0) {
            return List.of(); // nothing to draw: a cluster described once stays unbuilt
        }
        try {
            return draw.get();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + " " + count + ": " + e.getMessage());
        }
    }
}
