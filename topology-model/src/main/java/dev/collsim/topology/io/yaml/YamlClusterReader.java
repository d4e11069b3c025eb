package dev.collsim.topology.io.yaml;

import dev.collsim.io.yaml.YamlNode;
import dev.collsim.topology.io.HostCount;
import dev.collsim.topology.io.Problems;

import dev.collsim.io.yaml.YamlFields;
import dev.collsim.io.yaml.YamlTree;
import dev.collsim.io.InputException;
import dev.collsim.io.TopologyReader;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.HostType;
import dev.collsim.topology.catalog.OwnNvlinkDomain;
import dev.collsim.topology.fabric.ClusterLimits;
import dev.collsim.topology.fabric.ClusterSpec;
import dev.collsim.topology.fabric.FabricKind;
import dev.collsim.topology.fabric.FabricSpec;
import dev.collsim.topology.paths.Reachability;
import dev.collsim.topology.paths.PathFinder;
import dev.collsim.units.Bandwidth;
import dev.collsim.units.Latency;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Reads a YAML cluster spec, schema {@code collsim/v1}:
 * <pre>
 * schema: collsim/v1
 * name: dgx-h100-32x-rail
 * source: "DGX H100 User Guide; DGX SuperPOD H100 reference architecture"
 * hosts: dgx-h100            # a catalog name, or an inline host description (see InlineHostParser)
 * count: 32
 * traysPerDomain: 1         # optional, trays of a rack-scale type (NVL72) per NVLink domain: 1 to its rack's 18
 * fabric:                    # optional for one host or the trays of one NVLink domain, else required
 *   kind: rail-optimized     # single-switch | fat-tree | rail-optimized
 *   oversubscription: "1:1"  # leaf downlink : uplink bandwidth
 *   leafRadix: 32            # downlinks per leaf
 *   planes: 1
 *   linkSpeed: 400 Gb/s      # default: the NICs' speed
 *   switchLatency: 0.6 us
 *   network: infiniband      # transport between hosts: infiniband | roce | efa | tcpxo | socket (NetworkClass)
 * </pre>
 * Units are part of values; a bare number where a unit is needed is a problem. Jackson's YAML parser reads the syntax
 * (and stops at a syntax error); a validation pass then collects every other problem (unknown keys, with the allowed
 * ones; wrong units; zero or negative bandwidths; links to undeclared devices; GPUs with no path to each other) with
 * file, line, column and field.
 */
public final class YamlClusterReader implements TopologyReader {

    /** The schema this reader accepts. */
    public static final String SCHEMA = "collsim/v1";

    private static final Pattern DETECT = Pattern.compile("(?m)^schema\\s*:");
    private static final List<String> TOP_KEYS = List.of("count", "fabric", "hosts", "name", "schema", "source",
            "traysPerDomain");
    private static final List<String> FABRIC_KEYS = List.of("kind", "leafRadix", "linkSpeed", "network",
            "oversubscription", "planes", "switchLatency");

    @Override
    public String format() {
        return "yaml";
    }

    @Override
    public boolean accepts(String content) {
        return content != null && DETECT.matcher(content).find();
    }

    @Override
    public Topology read(String fileName, String content) throws InputException {
        return readCluster(fileName, content).topology();
    }

    /**
     * A cluster read from a YAML spec.
     *
     * @param topology    the validated topology
     * @param catalogSpec its spec, the catalog host type {@code hosts} names or the inline host it describes
     *                    (what-if edits apply to it); never null
     */
    public record Cluster(Topology topology, ClusterSpec catalogSpec) {
    }

    /**
     * Reads and validates a YAML cluster spec.
     *
     * @param fileName name to cite in problems
     * @param content  the YAML text
     * @return the topology and, for catalog hosts, its spec
     * @throws InputException listing every problem (file, line, column, field, found, allowed)
     */
    public Cluster readCluster(String fileName, String content) throws InputException {
        Problems problems = new Problems(fileName);
        YamlNode root = YamlTree.parse(fileName, content, problems::add);
        if (!root.isMap()) {
            problems.add(root, "", "found " + root.found() + "; allowed: a cluster spec, a mapping starting with"
                    + " 'schema: " + SCHEMA + "'");
            problems.throwIfAny();
        }
        ClusterSpec spec = spec(root, new YamlFields(problems.file(), problems::add), problems);
        NetworkClass network = network(root.get("fabric"), new YamlFields(problems.file(), problems::add),
                problems);
        problems.throwIfAny();
        if (spec == null) {
            throw new IllegalStateException("a spec with no reported problem must build");
        }
        Topology t;
        try {
            t = spec.build();
            t = network == null ? t : t.withNetworkClass(network);
        } catch (IllegalArgumentException e) {
            problems.add(root.get("fabric"), "fabric", e.getMessage());
            problems.throwIfAny();
            throw new IllegalStateException("unreachable", e);
        }
        checkGpuPaths(t, root.get("hosts"), problems);
        problems.throwIfAny();
        return new Cluster(t, spec);
    }

    private static ClusterSpec spec(YamlNode root, YamlFields f, Problems problems) {
        f.checkKeys(root, TOP_KEYS, "fabric", FABRIC_KEYS);
        String schema = f.text(root, "schema", true);
        if (schema != null && !schema.equals(SCHEMA)) {
            problems.add(root.get("schema"), "schema", "found '" + schema + "'; allowed: " + SCHEMA);
        }
        String name = f.text(root, "name", true);
        String source = f.text(root, "source", false);
        Integer count = count(root, f, problems);
        HostType type = hostType(f.node(root, "hosts", true), problems);
        FabricSpec fabric = fabric(f.map(root, "fabric", false), f, problems);
        if (name == null || count == null || type == null || !problems.isEmpty()) {
            return null;
        }
        YamlNode trays = root.get("traysPerDomain");
        if (trays != null) {
            // the one check --trays-per-domain and a what-if variant's trays-per-domain make (OwnNvlinkDomain.problem)
            if (type.hostsPerNvlinkDomain() < 2) {
                problems.add(trays, "traysPerDomain", "found " + trays.text() + " for hosts " + type.name() + ", whose"
                        + " NVLink stays inside the host; allowed only for a tray of a multi-host NVLink domain"
                        + " (an NVL72 type such as gb300-nvl72, a4x-maxgpu-4g-metal)");
                return null;
            }
            Integer n = f.integer(root, "traysPerDomain", true, 1, type.hostsPerNvlinkDomain());
            Optional<String> p = n == null ? Optional.empty() : OwnNvlinkDomain.problem(type, count, n);
            p.ifPresent(m -> problems.add(trays, "traysPerDomain", m));
            return n == null || p.isPresent() ? null
                    : joined(new ClusterSpec(name, source, type, count, fabric).withTraysPerDomain(n), root, problems);
        }
        return joined(new ClusterSpec(name, source, type, count, fabric), root, problems);
    }

    /** @return the spec, or null after reporting, at {@code count}, hosts that no fabric or NVLink domain joins */
    private static ClusterSpec joined(ClusterSpec spec, YamlNode root, Problems problems) {
        Optional<String> p = spec.unjoinedHostsProblem();
        p.ifPresent(m -> problems.add(root.get("count"), "count", m));
        return p.isPresent() ? null : spec;
    }

    /** @return the host count (1 when absent), or null after reporting a value that is not one */
    private static Integer count(YamlNode root, YamlFields f, Problems problems) {
        YamlNode n = root.get("count");
        if (n == null) {
            return 1;
        }
        if (n.kind() == YamlNode.Kind.NULL) {
            problems.add(n, "count", "found nothing (null); allowed: a whole number of hosts >= 1, or leave the key out"
                    + " for one host");
            return null;
        }
        String digits = n.isScalar() ? n.text().trim() : "";
        // a count past an int is still a host count: refused by the host limit, which says how to go past it
        Long asked = digits.matches("[0-9]{10,18}") ? Long.valueOf(digits) : null;
        Integer count = asked != null && asked > Integer.MAX_VALUE ? null
                : f.integer(root, "count", true, 1, Integer.MAX_VALUE);
        String tooMany = asked != null ? ClusterLimits.hostsProblem(asked)
                : count == null ? null : ClusterLimits.hostsProblem(count);
        if (tooMany != null) {
            problems.add(n, "count", tooMany);
            return null;
        }
        return count;
    }

    private static HostType hostType(YamlNode hosts, Problems problems) {
        if (hosts == null) {
            return null;
        }
        if (hosts.isMap()) {
            return new InlineHostParser(problems).parse(hosts);
        }
        if (hosts.kind() == YamlNode.Kind.STRING) {
            return Catalog.hostType(hosts.text()).orElseGet(() -> {
                // -c's spelling of N hosts of a catalog type (dgx-h100x4, dgx-h100:4), which YAML writes as a count
                Predicate<String> known = HostCount::catalogType;
                Optional<HostCount> m = HostCount.split(hosts.text(), known, true);
                String counted = m.isPresent() ? "; NAMExN and NAME:N are -c's spelling of N hosts: in cluster YAML"
                        + " write 'hosts: " + m.get().name() + "' and 'count: " + m.get().count() + "'"
                        : HostCount.stray(hosts.text(), known, true, "NAMExN or NAME:N (-c's spelling; in YAML"
                        + " 'hosts: NAME' and 'count: N')").map(w -> "; " + w)
                        .or(() -> Catalog.suggest(hosts.text()).map(n -> "; did you mean '" + n + "'?")).orElse("");
                problems.add(hosts, "hosts", "unknown host type '" + hosts.text() + "'; allowed: "
                        + String.join(", ", Catalog.typedNames()) + " (case-insensitive), or an inline host description"
                        + counted);
                return null;
            });
        }
        problems.add(hosts, "hosts", "found " + hosts.found() + "; allowed: a catalog name ("
                + String.join(", ", Catalog.names()) + ") or an inline host description");
        return null;
    }

    private static FabricSpec fabric(YamlNode fab, YamlFields f, Problems problems) {
        if (fab == null) {
            return null;
        }
        f.checkKeys(fab, FABRIC_KEYS);
        String kindText = f.text(fab, "kind", true);
        FabricKind kind = FabricKind.parse(kindText);
        if (kindText != null && kind == null) {
            problems.add(fab.get("kind"), "fabric.kind", "unknown value '" + kindText + "'; allowed: "
                    + FabricKind.allowed());
        }
        double ratio = 1.0;
        String ratioText = f.text(fab, "oversubscription", false);
        if (ratioText != null) {
            try {
                ratio = FabricSpec.parseRatio(ratioText);
            } catch (IllegalArgumentException e) {
                problems.add(fab.get("oversubscription"), "fabric.oversubscription", e.getMessage());
            }
        }
        Integer radix = fab.get("leafRadix") == null ? Integer.valueOf(FabricSpec.DEFAULT_LEAF_RADIX)
                : f.integer(fab, "leafRadix", false, 1, Integer.MAX_VALUE);
        Integer planes = fab.get("planes") == null ? Integer.valueOf(1)
                : f.integer(fab, "planes", false, 1, Integer.MAX_VALUE);
        Bandwidth speed = f.bandwidth(fab, "linkSpeed", false);
        Latency latency = f.latency(fab, "switchLatency");
        if (kind == null || radix == null || planes == null) {
            return null;
        }
        return new FabricSpec(kind, speed, ratio, radix, planes, latency);
    }

    /**
     * @return the fabric's {@code network} class; null when absent (the host type's class: InfiniBand, or a cloud
     *         instance's own transport); InfiniBand after reporting a bad one
     */
    private static NetworkClass network(YamlNode fab, YamlFields f, Problems problems) {
        if (fab == null || !fab.isMap() || fab.get("network") == null) {
            return null;
        }
        String text = f.text(fab, "network", false);
        NetworkClass c = NetworkClass.parse(text);
        if (text != null && c == null) {
            problems.add(fab.get("network"), "fabric.network", "unknown value '" + text + "'; allowed: "
                    + NetworkClass.allowed(text));
        }
        return c == null ? NetworkClass.INFINIBAND : c;
    }

    /** Host 0 stands for every host: they are copies of one inline host. */
    private static void checkGpuPaths(Topology t, YamlNode hosts, Problems problems) {
        for (Reachability.Gap g : Reachability.pairs(PathFinder.of(t).host(0), 0)) {
            problems.add(hosts, "hosts", g.message() + "; attach every GPU to nvlink or pcie");
        }
    }
}
