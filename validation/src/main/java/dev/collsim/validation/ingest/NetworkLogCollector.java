package dev.collsim.validation.ingest;

import dev.collsim.io.NumberField;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Collects the network lines of NCCL INFO messages into a {@link NetworkLog} (message shapes and sources there). It
 * only looks: {@link NcclLogParser} still handles every line as before. Not thread-safe.
 */
final class NetworkLogCollector {

    private static final Pattern IB_USING = Pattern.compile("^NET/IB ?: Using((?: \\[\\d+\\]\\S+)+)");
    private static final Pattern IB_DEVICE = Pattern.compile("\\[\\d+\\]([^:\\s]+):(\\d+)\\S*?/(\\w+)");
    private static final Pattern SOCKET_USING = Pattern.compile("^NET/Socket ?: Using((?: \\[\\d+\\]\\S+)+)");
    private static final Pattern SOCKET_DEVICE = Pattern.compile("\\[\\d+\\]([^:\\s]+):");
    private static final Pattern IB_SPEED = Pattern.compile("^NET/IB ?: ?\\[\\d+\\] ([^:\\s]+):\\S*?:(\\d+)/\\S+ .*?speed=(\\d+)");
    private static final Pattern VDEV_SPEED = Pattern.compile("^NET/IB ?: Made virtual device \\[\\d+\\] name=(\\S+) speed=(\\d+)");
    private static final Pattern SOCKET_SPEED = Pattern.compile("^Found network interface (\\S+) with speed (\\d+) Mbps");
    private static final Pattern OFI = Pattern.compile(
            "^NET/OFI Selected [Pp]rovider is ([^,\\s]+)(?:, fabric is [^\\s(]+)?.*?(?:\\(found (\\d+) nics\\))?$");
    private static final Pattern GDR = Pattern.compile(
            "GPU Direct RDMA (Enabled|Disabled)(?: for GPU \\S+ / HCA \\d+ \\(distance (\\d+) (?:>|<=) (\\d+)\\))?");
    private static final Pattern NVLS = Pattern.compile("NVLS multicast support is (not )?available");

    private final Map<String, NetworkLog.Device> devices = new LinkedHashMap<>();
    private final Map<String, Double> speeds = new LinkedHashMap<>();
    private String ofiProvider = "";
    private int ofiNics;
    private NetworkLog.State gdr = NetworkLog.State.UNKNOWN;
    private NetworkLog.GdrDistance gdrDistance = NetworkLog.GdrDistance.NONE;
    private NetworkLog.State nvls = NetworkLog.State.UNKNOWN;
    private NetworkLog.State collNet = NetworkLog.State.UNKNOWN;

    /**
     * @param msg  the message after {@code NCCL INFO}
     * @param line its line
     */
    void accept(String msg, int line) {
        Matcher m;
        if ((m = IB_USING.matcher(msg)).find()) {
            Matcher d = IB_DEVICE.matcher(m.group(1));
            while (d.find()) {
                String name = d.group(1) + ":" + d.group(2);
                devices.putIfAbsent("IB " + name, new NetworkLog.Device("IB", name, d.group(3), Double.NaN, line));
            }
        } else if ((m = SOCKET_USING.matcher(msg)).find()) {
            Matcher d = SOCKET_DEVICE.matcher(m.group(1));
            while (d.find()) {
                devices.putIfAbsent("Socket " + d.group(1), new NetworkLog.Device("Socket", d.group(1), "", Double.NaN,
                        line));
            }
        } else if ((m = IB_SPEED.matcher(msg)).find()) {
            speeds.putIfAbsent("IB " + m.group(1) + ":" + m.group(2), mbps(m, 3));
        } else if ((m = VDEV_SPEED.matcher(msg)).find()) {
            speeds.putIfAbsent("IB " + m.group(1) + (m.group(1).contains(":") ? "" : ":1"), mbps(m, 2));
        } else if ((m = SOCKET_SPEED.matcher(msg)).find()) {
            speeds.putIfAbsent("Socket " + m.group(1), mbps(m, 2));
        } else if ((m = OFI.matcher(msg)).find()) {
            ofiProvider = m.group(1);
            ofiNics = m.group(2) == null ? 0 : NumberField.count(m, 2, "nics");
        } else if ((m = GDR.matcher(msg)).find()) {
            boolean on = m.group(1).equals("Enabled");
            // one HCA or GPU without it is enough to say "off" for the run; keep the first "off" line
            if (!gdr.known() || gdr.on() && !on) {
                gdr = new NetworkLog.State(true, on, line);
                gdrDistance = m.group(2) == null ? NetworkLog.GdrDistance.NONE : new NetworkLog.GdrDistance(
                        NumberField.count(m, 2, "GDR distance"), NumberField.count(m, 3, "GDR level"));
            }
        } else if ((m = NVLS.matcher(msg)).find()) {
            if (!nvls.known()) {
                nvls = new NetworkLog.State(true, m.group(1) == null, line);
            }
        } else if (msg.contains("Connected CollNet") && !collNet.known()) {
            collNet = new NetworkLog.State(true, true, line);
        } else if (msg.contains("disabling CollNet") && !collNet.known()) {
            collNet = new NetworkLog.State(true, false, line);
        }
    }

    /**
     * A WARN line: {@code Cannot initialize CollNet, using point-to-point network instead} says CollNet is off for the
     * run (NCCL 2.12-2.30 {@code src/transport.cc} {@code ncclTransportCollNetCheck}; {@code src/init.cc} then frees
     * CollNet and sets {@code comm->collNetSupport = 0}).
     *
     * @param msg  the message after {@code NCCL WARN}
     * @param line its line
     */
    void acceptWarn(String msg, int line) {
        if (msg.contains("Cannot initialize CollNet") && !collNet.known()) {
            collNet = new NetworkLog.State(true, false, line);
        }
    }

    private static double mbps(Matcher m, int group) {
        return NumberField.longCount(m, group, "speed (Mb/s)") / 1000.0;
    }

    /**
     * @param used        what {@code Using network} said
     * @param ibNotFound  true when {@code NET/IB : No device found} was printed
     * @param transports  the run's connections: {@code /GDRDMA} on a NET connection says GPU Direct RDMA is on, a
     *                    {@code COLLNET} connection that CollNet is used
     * @return what was collected
     */
    NetworkLog build(String used, boolean ibNotFound, List<NcclLog.TransportEdge> transports) {
        NetworkLog.State g = gdr;
        NetworkLog.State c = collNet;
        for (NcclLog.TransportEdge t : transports) {
            if (!g.known() && t.family().equals("NET")) {
                g = new NetworkLog.State(true, t.gdr(), t.line());
            }
            if (!c.known() && t.family().equals("COLLNET")) {
                c = new NetworkLog.State(true, true, t.line());
            }
        }
        List<NetworkLog.Device> list = devices.entrySet().stream().map(e -> new NetworkLog.Device(
                e.getValue().transport(), e.getValue().name(), e.getValue().linkLayer(),
                speeds.getOrDefault(e.getKey(), Double.NaN), e.getValue().line())).toList();
        return new NetworkLog(used, list, ibNotFound, ofiProvider, ofiNics, g, g == gdr ? gdrDistance
                : NetworkLog.GdrDistance.NONE, nvls, c);
    }
}
