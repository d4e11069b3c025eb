package dev.collsim.topology.fabric;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.topology.Device;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.topology.catalog.HostContext;
import dev.collsim.topology.catalog.HostType;
import dev.collsim.topology.catalog.OwnNvlinkDomain;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A cluster: {@code count} hosts of one type, joined by a fabric (or by none). This record is immutable.
 *
 * @param name     cluster name
 * @param source   free text citing where the description comes from
 * @param hostType the host type
 * @param count    hosts, >= 1
 * @param fabric   the fabric, or null for hosts without a network (a single host, or NVLink-only)
 */
public record ClusterSpec(String name, String source, HostType hostType, int count, FabricSpec fabric) {

    /** @throws IllegalArgumentException when count is below 1 */
    public ClusterSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(hostType, "hostType");
        source = source == null ? "" : source;
        if (count < 1) {
            throw new IllegalArgumentException("count must be >= 1, got " + count);
        }
    }

    /**
     * The topology with its hosts described once ({@link Topology#described}) when there are several hosts of a type
     * whose NVLink stays inside the host: a template of one host on the fabric, the count, and the full graph built
     * only when something asks for every device ({@link #materialize()}; refused then, with the message of
     * {@link ClusterLimits#hostsProblem}, past {@link ClusterLimits#maxHosts()}). Hosts sharing a multi-host NVLink
     * domain (GB200 NVL72 trays) and single hosts are built in full at once.
     *
     * @return the immutable topology
     * @throws IllegalArgumentException if a fabric is asked for but the hosts have no compute NIC, or past
     *                                  {@link ClusterLimits#MAX_DESCRIBED_HOSTS} hosts
     */
    public Topology build() {
        if (count == 1 || hostType.hostsPerNvlinkDomain() > 1) {
            return FabricCut.remember(materialize(), fabric);
        }
        String tooMany = ClusterLimits.describedProblem(count, hostType.gpusPerHost());
        if (tooMany != null) {
            throw new IllegalArgumentException(tooMany);
        }
        Topology template = new ClusterSpec(name, source, hostType, 1, fabric).materialize();
        Topology described = Topology.described(name, source.isEmpty() ? hostType.description() : source, count,
                template, () -> {
            try {
                return materialize();
            } catch (IllegalArgumentException e) {
                throw new InputException(new InputProblem(name, 0, 0, "-c/--cluster", e.getMessage()));
            }
        }, hosts -> {
            try {
                return materializeHosts(hosts);
            } catch (IllegalArgumentException e) {
                throw new InputException(new InputProblem(name, 0, 0, "-c/--cluster", "the ranks' hosts: "
                        + e.getMessage()));
            }
        });
        return FabricCut.remember(described, fabric);
    }

    /**
     * Builds only some hosts (with their indices and ids in the whole cluster) and the part of the fabric they
     * reach: their leaves and every spine, switch ids, cable speeds and latencies as in {@link #materialize()}
     * ({@code SubsetFabric}). Every device and link of the result is in the whole cluster, equal by id and figures,
     * and every fabric route between two built hosts is kept. Hosts sharing a multi-host NVLink domain bring their
     * whole domain. Memory and time grow with the hosts built, not with {@link #count}.
     *
     * @param hosts host indices in [0, count), at least one
     * @return the immutable topology of those hosts ({@link Topology#hostCount()} is the highest index + 1)
     * @throws IllegalArgumentException on an index out of range, no host, past {@link ClusterLimits#maxHosts()}
     *                                  hosts, or a fabric without a compute NIC
     */
    public Topology materializeHosts(int[] hosts) {
        TreeSet<Integer> built = new TreeSet<>();
        int domain = Math.max(1, hostType.hostsPerNvlinkDomain());
        for (int h : hosts) {
            if (h < 0 || h >= count) {
                throw new IllegalArgumentException("host " + h + " is not in " + name + " (0.." + (count - 1) + ")");
            }
            int first = h / domain * domain;
            for (int k = first; k < Math.min(count, first + domain); k++) {
                built.add(k);
            }
        }
        if (built.isEmpty()) {
            throw new IllegalArgumentException("no host to build of " + name);
        }
        String tooMany = ClusterLimits.hostsProblem(built.size());
        if (tooMany != null) {
            throw new IllegalArgumentException(tooMany);
        }
        TopologyBuilder b = sizedBuilder(built.size());
        for (int h : built) {
            hostType.addHost(context(b, h));
        }
        if (fabric != null) {
            SubsetFabric.build(b, fabric, count);
        }
        return b.build();
    }

    /**
     * Builds the whole topology now: hosts {@code h0..h{count-1}}, then the fabric.
     *
     * @return the immutable topology, every device and link in its graph
     * @throws IllegalArgumentException if a fabric is asked for but the hosts have no compute NIC, or past
     *                                  {@link ClusterLimits#maxHosts()} hosts
     */
    public Topology materialize() {
        String tooMany = ClusterLimits.hostsProblem(count);
        if (tooMany != null) {
            throw new IllegalArgumentException(tooMany);
        }
        TopologyBuilder b = sizedBuilder(count);
        for (int h = 0; h < count; h++) {
            hostType.addHost(context(b, h));
        }
        if (fabric != null) {
            FabricBuilder.build(b, fabric);
        }
        return b.build();
    }

    /**
     * The cluster's size in words, as every command's header and a report's variant table print it: {@code 2 hosts,
     * 16 GPUs}; trays of a multi-host NVLink domain type (NVL72) say how many domains they fill and how many trays a
     * domain holds, so neither a lone tray nor several racks read as one: {@code 18 trays in 1 NVLink domain (up to 18
     * trays per domain), 72 GPUs}, {@code 36 trays in 2 NVLink domains (up to 18 trays per domain), 144 GPUs},
     * {@code 2 trays in 2 NVLink domains (1 tray per domain), 8 GPUs} ({@link OwnNvlinkDomain}). Domains fill in host
     * order, as {@link #materialize()} builds them.
     *
     * @return the text
     */
    public String sizeText() {
        int gpus = count * hostType.gpusPerHost();
        int perDomain = Math.max(1, hostType.hostsPerNvlinkDomain());
        if (!ofTrays()) {
            return count + (count == 1 ? " host, " : " hosts, ") + gpus + " GPUs";
        }
        int domains = (count + perDomain - 1) / perDomain;
        String per = perDomain == 1 ? "1 tray per domain" : "up to " + perDomain + " trays per domain";
        return count + (count == 1 ? " tray" : " trays") + " in " + domains
                + (domains == 1 ? " NVLink domain (" : " NVLink domains (") + per + "), " + gpus + " GPUs";
    }

    /**
     * Whether every host can reach every other: without a fabric only the hosts of one NVLink domain are joined (a
     * single host, or the trays of one multi-host NVLink domain such as a GB200 NVL72 rack); hosts in different NVLink
     * domains need a network between them. The YAML reader refuses such a cluster at its {@code count}, so that
     * every command, not only {@code topo check}'s connectivity pass, stops before predicting over a network that is
     * not there.
     *
     * @return empty when the hosts are joined (a fabric, one host, or one NVLink domain); else what was found and what
     *         is allowed, worded for a YAML cluster spec
     */
    public Optional<String> unjoinedHostsProblem() {
        int domain = Math.max(1, hostType.hostsPerNvlinkDomain());
        if (fabric != null || count <= domain) {
            return Optional.empty();
        }
        String hosts = ofTrays() ? " trays" : " hosts";
        String found = domain == 1 ? "found " + count + hosts + " of " + hostType.name() + " and no 'fabric' section,"
                + " so nothing joins them (their NVLink stays inside each host)"
                : "found " + count + hosts + " of " + hostType.name() + " in " + ((count + domain - 1) / domain)
                + " NVLink domains of up to " + domain + " trays and no 'fabric' section, so nothing joins the domains";
        String fewer = domain == 1 ? "count: 1 (one host, no network)"
                : "count up to " + domain + " (the trays of one NVLink domain, no network)";
        return Optional.of(found + "; allowed: a 'fabric:' section over the hosts' compute NICs (kind: "
                + FabricKind.allowed() + "), or " + fewer);
    }

    /**
     * The trays of this cluster in NVLink domains of {@code n} trays ({@link OwnNvlinkDomain}), as
     * {@code --trays-per-domain}, a YAML cluster's {@code traysPerDomain} and a what-if variant's
     * {@code trays-per-domain} ask; a source that is the tray type's own description names the new domains.
     *
     * @param n trays per NVLink domain
     * @return the split cluster (same name, count and fabric)
     * @throws IllegalArgumentException with {@link OwnNvlinkDomain#problem}'s text when {@code n} is not allowed
     */
    public ClusterSpec withTraysPerDomain(int n) {
        OwnNvlinkDomain.problem(hostType, count, n).ifPresent(p -> {
            throw new IllegalArgumentException(p);
        });
        HostType tray = OwnNvlinkDomain.trayOf(hostType);
        OwnNvlinkDomain split = new OwnNvlinkDomain(tray, n);
        boolean own = source.equals(tray.description()) || source.equals(hostType.description());
        return new ClusterSpec(name, own ? split.description() : source, split, count, fabric);
    }

    /**
     * @return true when the hosts are trays of a multi-host NVLink domain type (NVL72), in its racks or in smaller
     *         domains ({@link OwnNvlinkDomain}); false for hosts whose NVLink stays inside them
     */
    public boolean ofTrays() {
        return hostType.hostsPerNvlinkDomain() > 1 || hostType instanceof OwnNvlinkDomain;
    }

    /** @return where host {@code h} of this cluster adds its devices (its NVLink domain as the host type's) */
    private HostContext context(TopologyBuilder b, int h) {
        return new HostContext(b, h, Math.max(1, hostType.hostsPerNvlinkDomain()));
    }

    /**
     * A builder sized from one probe host: its devices and links times {@code hosts}, plus for the fabric at most one
     * switch and four directed links (NIC-leaf both ways, leaf-spine both ways) per compute NIC.
     */
    private TopologyBuilder sizedBuilder(long hosts) {
        TopologyBuilder probe = Topology.builder(name);
        hostType.addHost(context(probe, 0));
        List<Device> hostDevices = probe.devices();
        long nics = fabric == null ? 0 : hostDevices.stream().filter(d -> d instanceof Nic n && n.rail() >= 0).count();
        long links = probe.build().graph().edgeSet().size();
        return Topology.builder(name, (int) Math.min(Integer.MAX_VALUE, hosts * (hostDevices.size() + nics)),
                (int) Math.min(Integer.MAX_VALUE, hosts * (links + 4 * nics)))
                .source(source.isEmpty() ? hostType.description() : source).networkClass(hostType.networkClass())
                .nicVendor(hostType.nicVendor());
    }
}
