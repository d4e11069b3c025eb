package dev.collsim.validation.ingest;

import dev.collsim.topology.NetworkClass;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The network a run's NCCL INFO lines describe: the network NCCL used ({@code Using network IB}), its devices
 * ({@code NET/IB : Using [0]mlx5_0:1/IB ...}, {@code NET/Socket : Using [0]eth0:...}, aws-ofi-nccl's {@code NET/OFI
 * Selected provider is efa ... (found 32 nics)}), their speeds where printed ({@code NET/IB: [0] mlx5_0:... speed=400000}
 * and {@code Made virtual device ... speed=} in Mb/s, {@code Found network interface eth0 with speed 100000 Mbps}),
 * GPU Direct RDMA ({@code GPU Direct RDMA Enabled/Disabled ...}, or {@code /GDRDMA} on a NET connection), NVLS
 * ({@code NVLS multicast support is [not ]available}) and CollNet ({@code Connected CollNet}, a {@code COLLNET/}
 * connection, or {@code ... disabling CollNet} and the WARN {@code Cannot initialize CollNet}). Wording: NCCL 2.30 {@code src/init.cc}, {@code src/transport/net_ib/
 * init.cc}, {@code src/transport/net_socket.cc}, {@code src/transport/nvls.cc}, {@code src/graph/topo.cc},
 * {@code src/transport/coll_net.cc}; aws-ofi-nccl {@code src/nccl_ofi_net.cpp} (older releases spell "Provider").
 *
 * @param used        network NCCL used ({@code Using network X}: {@code IB}, {@code Socket}, a plugin's name), or empty
 * @param devices     devices listed, one per name (every rank prints the same list), in file order
 * @param ibNotFound  true when NCCL printed {@code NET/IB : No device found}
 * @param ofiProvider aws-ofi-nccl's provider ({@code efa}, ...), or empty
 * @param ofiNics     NICs aws-ofi-nccl found, 0 when not said
 * @param gdr         GPU Direct RDMA as the log shows it
 * @param gdrDistance the GPU-NIC distance and GDR level NCCL printed on that GPU Direct RDMA line
 *                    ({@link GdrDistance#NONE} when the line printed none, or the word came from a connection)
 * @param nvls        NVLS multicast support as the log shows it
 * @param collNet     CollNet (SHARP) as the log shows it
 */
public record NetworkLog(String used, List<Device> devices, boolean ibNotFound, String ofiProvider, int ofiNics,
        State gdr, GdrDistance gdrDistance, State nvls, State collNet) {

    /** Nothing said about the network. */
    public static final NetworkLog EMPTY = new NetworkLog("", List.of(), false, "", 0, State.UNKNOWN,
            GdrDistance.NONE, State.UNKNOWN, State.UNKNOWN);

    /** Copies the device list. */
    public NetworkLog {
        devices = List.copyOf(devices);
    }

    /**
     * What a line said about an on/off feature.
     *
     * @param known true when the log says
     * @param on    the feature's state (false when unknown)
     * @param line  the line that says it, 0 when unknown
     */
    public record State(boolean known, boolean on, int line) {
        /** Not said. */
        public static final State UNKNOWN = new State(false, false, 0);
    }

    /**
     * The numbers of NCCL's {@code GPU Direct RDMA Enabled for GPU 81000 / HCA 0 (distance 6 <= 7), read 0} and
     * {@code ... Disabled ... (distance 6 > 4)} (NCCL 2.16.5 to 2.30.7 {@code src/graph/paths.cc ncclTopoCheckGdr}):
     * the GPU-NIC path type (the relay GPU's for a PXN path) and the GDR level in force, both as NCCL's path-type
     * numbers, whose meaning changed between releases ({@link NcclRelease#pathType}).
     *
     * @param distance the path type number, -1 when not printed
     * @param level    the level number, -1 when not printed
     */
    public record GdrDistance(int distance, int level) {
        /** Not printed. */
        public static final GdrDistance NONE = new GdrDistance(-1, -1);
    }

    /**
     * One network device NCCL listed.
     *
     * @param transport {@code IB}, {@code Socket}
     * @param name      device name ({@code mlx5_0:1} with its port for IB, interface name for sockets)
     * @param linkLayer {@code IB} or {@code RoCE} for IB verbs devices, empty otherwise
     * @param gbits     speed NCCL read, Gb/s (its Mb/s / 1000), NaN when not printed
     * @param line      line that listed it
     */
    public record Device(String transport, String name, String linkLayer, double gbits, int line) {
    }

    /** @return true when the log says nothing about the network */
    public boolean isEmpty() {
        return equals(EMPTY);
    }

    /** @return the devices of the transport NCCL used (all devices when that is not known) */
    public List<Device> usedDevices() {
        String t = used.equalsIgnoreCase("Socket") ? "Socket" : used.equalsIgnoreCase("IB") ? "IB" : "";
        List<Device> d = devices.stream().filter(x -> t.isEmpty() || x.transport().equals(t)).toList();
        return d.isEmpty() && t.isEmpty() ? devices : d;
    }

    /**
     * The network class between hosts the log shows: sockets when NCCL used its socket transport, EFA for aws-ofi-nccl's
     * efa provider, RoCE or InfiniBand from the IB devices' link layer, else what the plugin's name says.
     *
     * @return the class, empty when the log does not show one
     */
    public Optional<NetworkClass> networkClass() {
        if (used.equalsIgnoreCase("Socket")) {
            return Optional.of(NetworkClass.SOCKET);
        }
        if (ofiProvider.equalsIgnoreCase("efa")) {
            return Optional.of(NetworkClass.EFA);
        }
        List<Device> ib = devices.stream().filter(d -> d.transport().equals("IB")).toList();
        if (!ib.isEmpty() && (ibByDeviceList() || !used.isEmpty() && !used.toLowerCase(Locale.ROOT).contains("socket"))) {
            boolean roce = ib.stream().allMatch(d -> d.linkLayer().equalsIgnoreCase("RoCE"));
            return Optional.of(roce ? NetworkClass.ROCE : NetworkClass.INFINIBAND);
        }
        if (used.equalsIgnoreCase("IB")) {
            return Optional.of(NetworkClass.INFINIBAND);
        }
        return used.isEmpty() ? Optional.empty() : NetworkClass.detect(used + " " + ofiProvider);
    }

    /**
     * NCCL used its IB transport though the log does not say {@code Using network}: it lists IB devices, no socket
     * device and no external plugin. NCCL 2.28.9 {@code src/plugin/net.cc ncclNetInit} initializes the external
     * plugins, then IB, then Socket, and stops at the first it assigns to the communicator; IB lists its devices
     * ({@code NET/IB : Using [0]mlx5_0:1/IB}) only once it initialized with devices, so Socket was never reached.
     *
     * @return true when the device list alone says IB was used
     */
    public boolean ibByDeviceList() {
        return used.isEmpty() && ofiProvider.isEmpty() && !devices.isEmpty()
                && devices.stream().allMatch(d -> d.transport().equals("IB"));
    }

    /** @return NICs per host NCCL listed for the network it used (aws-ofi-nccl's count), 0 when not said */
    public int nicCount() {
        return ofiNics > 0 ? ofiNics : usedDevices().size();
    }

    /** @return the speed every listed device of the used network shares, Gb/s; empty when not printed or mixed */
    public OptionalDouble nicGbits() {
        double[] s = usedDevices().stream().mapToDouble(Device::gbits).filter(Double::isFinite).distinct().toArray();
        return s.length == 1 ? OptionalDouble.of(s[0]) : OptionalDouble.empty();
    }

    /** @return one line: network used, devices, GPU Direct RDMA, NVLS, CollNet; empty when the log says nothing */
    public String describe() {
        if (isEmpty()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        parts.add(ibByDeviceList() ? "network not named (IB: only IB devices listed)"
                : used.isEmpty() ? "network not named" : "NCCL used " + used);
        networkClass().ifPresent(c -> parts.add("class " + c.yamlName()));
        List<Device> d = usedDevices();
        if (!ofiProvider.isEmpty()) {
            parts.add("NET/OFI provider " + ofiProvider + (ofiNics > 0 ? " (" + ofiNics + " NICs)" : ""));
        }
        if (!d.isEmpty()) {
            StringBuilder sb = new StringBuilder(d.size() + " device" + (d.size() == 1 ? "" : "s") + " (");
            for (int i = 0; i < d.size(); i++) {
                Device x = d.get(i);
                sb.append(i == 0 ? "" : ", ").append(x.name()).append(x.linkLayer().isEmpty() ? "" : "/" + x.linkLayer())
                        .append(Double.isFinite(x.gbits()) ? String.format(Locale.ROOT, " %.0f Gb/s", x.gbits()) : "");
            }
            parts.add(sb.append(')').toString());
        }
        if (ibNotFound) {
            parts.add("no IB device");
        }
        parts.add(state("GPU Direct RDMA", gdr));
        parts.add(state("NVLS", nvls));
        parts.add(state("CollNet", collNet));
        return String.join(", ", parts.stream().filter(s -> !s.isEmpty()).toList());
    }

    private static String state(String what, State s) {
        return !s.known() ? "" : what + (s.on() ? " on" : " off") + " (line " + s.line() + ")";
    }
}
