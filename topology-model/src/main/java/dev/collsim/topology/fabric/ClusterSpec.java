package dev.collsim.topology.fabric;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.topology.Device;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.HostContext;
import dev.collsim.topology.catalog.HostType;
import java.util.List;
import java.util.Objects;

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
            return materialize();
        }
        String tooMany = ClusterLimits.describedProblem(count, hostType.gpusPerHost());
        if (tooMany != null) {
            throw new IllegalArgumentException(tooMany);
        }
        Topology template = new ClusterSpec(name, source, hostType, 1, fabric).materialize();
        return Topology.described(name, source.isEmpty() ? hostType.description() : source, count, template, () -> {
            try {
                return materialize();
            } catch (IllegalArgumentException e) {
                throw new InputException(new InputProblem(name, 0, 0, "-c/--cluster", e.getMessage()));
            }
        });
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
        // size the graph from one probe host: its devices and links times count, plus for the fabric at most one
        // switch and four directed links (NIC-leaf both ways, leaf-spine both ways) per compute NIC
        Topology.Builder probe = Topology.builder(name);
        hostType.addHost(new HostContext(probe, 0));
        List<Device> hostDevices = probe.devices();
        long nics = fabric == null ? 0 : hostDevices.stream().filter(d -> d instanceof Nic n && n.rail() >= 0).count();
        long links = probe.build().graph().edgeSet().size();
        Topology.Builder b = Topology.builder(name, (int) Math.min(Integer.MAX_VALUE, count * (hostDevices.size() + nics)),
                (int) Math.min(Integer.MAX_VALUE, count * (links + 4 * nics)))
                .source(source.isEmpty() ? hostType.description() : source).networkClass(hostType.networkClass());
        for (int h = 0; h < count; h++) {
            hostType.addHost(new HostContext(b, h));
        }
        if (fabric != null) {
            FabricBuilder.build(b, fabric);
        }
        return b.build();
    }
}
