package dev.collsim.topology.io;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.io.UserInputException;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.NcclBandwidths;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NicVendor;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.topology.Topology;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.topology.catalog.HostContext;
import dev.collsim.topology.catalog.HostType;
import dev.collsim.topology.fabric.ClusterSpec;
import dev.collsim.topology.fabric.FabricKind;
import dev.collsim.topology.fabric.FabricSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The host a machine file describes (nvidia-smi {@code topo -m} text, NCCL topology XML, read with its hints) as a
 * host type, so that {@code -c FILE:N} is N copies of it on the catalog's fabric ({@link ClusterLoader#resolve}): each
 * copy has every device and link of the file's host, with the figures the reader derived (physical and NCCL bandwidth,
 * link detail), its ids under {@code h{host}/}, its NVSwitch in its own host's NVLink domain. The network class and NIC
 * vendor are the file's; its warnings are said once (on host 0). Immutable.
 *
 * @param name     the file name as the user gave it
 * @param host     the file's topology: one host (index 0), no network switch
 * @param warnings the file's warnings ({@link Topology#warnings()}) and those of its copying, said on host 0
 */
record MachineHost(String name, Topology host, List<String> warnings) implements HostType {

    /** @throws IllegalArgumentException when the topology is not one host without network switches */
    MachineHost {
        Objects.requireNonNull(name, "name");
        warnings = List.copyOf(warnings);
        if (host.hostCount() != 1 || !host.devices(NetSwitch.class).isEmpty()) {
            throw new IllegalArgumentException(name + " describes " + host.hostCount() + " hosts; a copy is of one");
        }
    }

    /**
     * {@code FILE:N}: N copies of the one host a machine file describes, joined as {@code -c NAME:N} joins a catalog
     * type's hosts (a rail-optimized, non-blocking fabric: one leaf per NIC rail); {@link ClusterLoader#resolve}.
     *
     * @param name what the user gave to {@code -c}
     * @param file the file part
     * @param one  the file as read (with the hints)
     * @param n    the count part, digits
     * @return the cluster, origin {@link ClusterSource.Origin#FILE}, with its spec
     * @throws UserInputException (usage) on N below 1, a YAML cluster (its {@code count} sets the hosts), a file of
     *                            several hosts, or a host without a compute NIC to join the copies
     * @throws InputException     when the copies cannot be built (too many hosts)
     */
    static ClusterSource copies(String name, String file, ClusterSource one, String n) throws InputException {
        String opt = "-c/--cluster " + name + ": ";
        int count = n.length() > 9 ? Integer.MAX_VALUE : Integer.parseInt(n);
        if (count < 1) {
            throw new UserInputException(opt + "hosts must be >= 1, found " + n + " (" + file + ":1 is the file's"
                    + " host)", UserInputException.USAGE);
        }
        if (one.spec() != null) {
            throw new UserInputException(opt + file + " is a YAML cluster; a host count (:" + n + ") copies the host"
                    + " of a machine file (nvidia-smi topo -m, NCCL XML): set 'count: " + n + "' in " + file,
                    UserInputException.USAGE);
        }
        Topology host = one.topology();
        if (host.hostCount() != 1) {
            throw new UserInputException(opt + file + " describes " + host.hostCount() + " hosts; a host count (:" + n
                    + ") copies a file of one host", UserInputException.USAGE);
        }
        if (count > 1 && host.devices(Nic.class).stream().noneMatch(nic -> nic.rail() >= 0)) {
            throw new UserInputException(opt + file + " has no compute NIC (nvidia-smi: a NIC PIX or PXB to a GPU;"
                    + " NCCL XML: a <net>), so nothing would join its " + n + " copies; describe the host and its"
                    + " NICs in a YAML cluster (an inline host, count: " + n + ", fabric: ...; docs/topology.md)",
                    UserInputException.USAGE);
        }
        List<String> warnings = new ArrayList<>(host.warnings());
        if (count > 1 && host.source().contains(HardwareHints.NIC_SPEED_FALLBACK)) {
            warnings.add(file + ": the file gives no NIC speed, so its " + count + " hosts talk at "
                    + Decimals.plain(NcclBandwidths.DEFAULT_NIC_MBPS / 1000.0) + " Gb/s per NIC (assumed: "
                    + HardwareHints.NIC_SPEED_FALLBACK + "); give the real speed with --nic-speed, e.g."
                    + " --nic-speed '400 Gb/s'");
        }
        ClusterSpec spec = new ClusterSpec(file + ":" + count, host.source(), new MachineHost(file, host, warnings),
                count, count > 1 ? FabricSpec.of(FabricKind.RAIL_OPTIMIZED) : null);
        try {
            return new ClusterSource(name, ClusterSource.Origin.FILE, spec.build(), spec);
        } catch (IllegalArgumentException e) {
            throw new InputException(new InputProblem(spec.name(), 0, 0, "-c/--cluster", e.getMessage()));
        }
    }

    /**
     * {@code count} copies of the file's host: the file's base name without its extension, then {@code -x} and the
     * count ({@code -c /data/machine.txt:4} gives {@code machine-x4}), so the name reads as one word and not as
     * {@code machine.txtx4}.
     */
    @Override
    public String hostsName(int count) {
        Path base = Path.of(name).getFileName();
        String n = base == null ? name : base.toString();
        int dot = n.lastIndexOf('.');
        return (dot > 0 ? n.substring(0, dot) : n) + "-x" + count;
    }

    @Override
    public String description() {
        return host.source();
    }

    @Override
    public int gpusPerHost() {
        return host.gpusOf(0).size();
    }

    @Override
    public NetworkClass networkClass() {
        return host.networkClass();
    }

    @Override
    public NicVendor nicVendor() {
        return host.nicVendor();
    }

    @Override
    public void addHost(HostContext ctx) {
        TopologyBuilder b = ctx.builder();
        Map<Device, Device> copy = new HashMap<>();
        for (Device d : host.graph().vertexSet()) {
            copy.put(d, b.add(copy(d, ctx)));
        }
        for (Link l : host.graph().edgeSet()) {
            b.connectOneWay(copy.get(host.source(l)), copy.get(host.target(l)), l);
        }
        if (ctx.host() == 0) {
            warnings.forEach(b::warning);
        }
    }

    /** @return {@code d} as a device of host {@code ctx.host()}: same figures, id under {@code h{host}/} */
    private static Device copy(Device d, HostContext ctx) {
        int h = ctx.host();
        String id = ctx.id(d.id().startsWith("h0/") ? d.id().substring(3) : d.id());
        if (d instanceof Gpu g) {
            return new Gpu(id, h, g.index(), g.model(), g.sm(), g.memoryBytes(), g.busId());
        }
        if (d instanceof Cpu c) {
            return new Cpu(id, h, c.numaId(), c.arch(), c.vendor(), c.model());
        }
        if (d instanceof Nic n) {
            return new Nic(id, h, n.name(), n.speed(), n.port(), n.gdr(), n.rail(), n.busId(), n.ncclDev());
        }
        if (d instanceof PcieSwitch s) {
            return new PcieSwitch(id, h, s.busId(), s.hostBridge());
        }
        if (d instanceof NvSwitch s) {
            return new NvSwitch(id, h, h, s.chips());
        }
        throw new IllegalStateException("a machine host has no network switch: " + d.id());
    }
}
