package dev.collsim.topology;

import dev.collsim.units.Bandwidth;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The network transport NCCL's proxy uses between nodes, as a class of behaviour: what it costs per network send,
 * per network hop and in bandwidth is a model parameter of the simulator ({@code simulator.perf.NetClassProfile});
 * this enum only names the classes and recognises them in text. Spelled in YAML and on the command line as
 * {@link #yamlName()}.
 *
 * <p>Which NCCL network a class stands for (NCCL 2.30.7 {@code src/transport/net_ib.cc}, {@code net_socket.cc};
 * the plugins' own names):
 * <ul>
 *   <li>{@link #INFINIBAND}: NCCL's internal {@code IB} network on an InfiniBand link layer; the reference class the
 *       rest of collsim's model was fitted on.</li>
 *   <li>{@link #ROCE}: the same {@code IB} verbs network on an Ethernet link layer (RoCE v2; NCCL prints
 *       {@code /RoCE} next to the device), and Google's gIB plugin, which runs RDMA over GCP's RoCE network.</li>
 *   <li>{@link #EFA}: AWS Elastic Fabric Adapter through the aws-ofi-nccl plugin (libfabric {@code efa} provider,
 *       SRD transport).</li>
 *   <li>{@link #TCPX}: GCP's GPUDirect-TCPX plugin (A3 High, A3 Edge; google/nccl-plugin-gpudirecttcpx): the guest
 *       kernel's TCP with device-memory receive, each connection over its own TCP data sockets
 *       (NCCL_NSOCKS_PERTHREAD x NCCL_SOCKET_NTHREADS), the received pages unpacked into the buffer by NCCL's kernel
 *       (net device type UNPACK); no RDMA.</li>
 *   <li>{@link #TCPXO}: GCP's GPUDirect-TCPXO ("FasTrak") plugin (A3 Mega; google/nccl-plugin-gpudirect-tcpxo): TCP
 *       offloaded from the guest to the host's data path (its {@code dxs} client), control messages over its own
 *       low-latency channel (NCCL_FASTRAK_USE_LLCM), a receive-side buffer manager; no RDMA. Another plugin than
 *       TCPX, with other costs ({@code simulator.perf.NetClassDefaults}).</li>
 *   <li>{@link #SOCKET}: NCCL's internal {@code Socket} network (kernel TCP through host memory), used with
 *       {@code NCCL_IB_DISABLE=1}, {@code NCCL_NET=Socket} or when no RDMA device exists (HPE Slingshot without its
 *       aws-ofi-nccl plugin: a Cassini NIC has no IB verbs device, so NCCL falls back to Socket; the validation
 *       module's {@code compare.PluginAbsent} reads such a run as this class).</li>
 *   <li>{@link #SLINGSHOT}: HPE Slingshot-11 (Cassini NICs, libfabric {@code cxi} provider) through the aws-ofi-nccl
 *       plugin, NCCL net {@code AWS Libfabric} (aws-ofi-nccl {@code src/nccl_ofi_interface_nvidia.cpp}); an RDMA
 *       NIC whose messages go through libfabric's CXI eager and rendezvous protocols ({@code man/fi_cxi.7.md}).</li>
 * </ul>
 */
public enum NetworkClass {
    /** InfiniBand verbs (NCCL net "IB" on an InfiniBand port). */
    INFINIBAND("infiniband", "InfiniBand"),
    /** RDMA over Converged Ethernet (NCCL net "IB" on an Ethernet port, or the gIB plugin). */
    ROCE("roce", "RoCE"),
    /** AWS EFA through aws-ofi-nccl. */
    EFA("efa", "AWS EFA (aws-ofi-nccl)"),
    /** GCP GPUDirect-TCPX (guest kernel TCP, device-memory receive). */
    TCPX("tcpx", "GCP GPUDirect-TCPX"),
    /** GCP GPUDirect-TCPXO (FasTrak: TCP offloaded to the host). */
    TCPXO("tcpxo", "GCP GPUDirect-TCPXO"),
    /** NCCL's kernel-TCP socket transport. */
    SOCKET("socket", "TCP sockets"),
    /** HPE Slingshot (CXI NICs) through aws-ofi-nccl. */
    SLINGSHOT("slingshot", "HPE Slingshot");

    // order matters: the more specific transports are recognised before the generic words they contain
    private static final Pattern TCPXO_TEXT = Pattern.compile("(?i)tcpxo\\b|fastrak");
    private static final Pattern TCPX_TEXT = Pattern.compile("(?i)tcpx\\b|gpudirect[- ]?tcp");
    private static final Pattern SLINGSHOT_TEXT = Pattern.compile("(?i)slingshot|\\bcxi\\b|cassini");
    private static final Pattern EFA_TEXT = Pattern.compile("(?i)\\befa\\b|aws[- ]ofi|libfabric");
    private static final Pattern SOCKET_TEXT = Pattern.compile(
            "(?i)nccl_ib_disable=1|nccl_net=socket|net/socket|tcp sockets?|\\btcp\\b(?![- ]?x)");
    private static final Pattern ROCE_TEXT = Pattern.compile("(?i)roce|\\bgib\\b|spectrum[- ]?x|rdma over");
    private static final Pattern IB_TEXT = Pattern.compile("(?i)infiniband|\\bib\\b|\\b(?:ndr|hdr|edr|xdr)\\b");

    private final String yamlName;
    private final String label;

    NetworkClass(String yamlName, String label) {
        this.yamlName = yamlName;
        this.label = label;
    }

    /** @return the YAML and command-line spelling, e.g. {@code roce} */
    public String yamlName() {
        return yamlName;
    }

    /** @return the name for people, e.g. {@code AWS EFA (aws-ofi-nccl)} */
    public String label() {
        return label;
    }

    /**
     * Reads a YAML or command-line spelling.
     *
     * @param text YAML or command-line spelling (case-insensitive)
     * @return the class, or null when unknown (see {@link #allowed()})
     */
    public static NetworkClass parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        for (NetworkClass c : values()) {
            if (c.yamlName.equals(t)) {
                return c;
            }
        }
        return null;
    }

    /** @return the allowed spellings, comma-separated */
    public static String allowed() {
        StringBuilder sb = new StringBuilder();
        for (NetworkClass c : values()) {
            sb.append(sb.length() == 0 ? "" : ", ").append(c.yamlName);
        }
        return sb.toString();
    }

    /**
     * @param text a value that {@link #parse} refused
     * @return {@link #allowed()}, and where the text names an InfiniBand generation (NDR, HDR200) rather than a
     *         class, that it is a speed ({@link Bandwidth#infiniBandRate}) of the class {@code infiniband}
     */
    public static String allowed(String text) {
        String rate = Bandwidth.infiniBandRate(text == null ? "" : text.strip());
        return allowed() + (rate == null ? "" : "; '" + text.strip() + "' is an InfiniBand port speed (" + rate
                + "), not a network class: the class is infiniband, the speed is the NIC speed");
    }

    /**
     * Recognises the transport a free text names (a data file's interconnect header, its NCCL settings, an NCCL log
     * line). TCPXO (before TCPX, whose name it contains), TCPX, EFA and sockets are checked before RoCE and
     * InfiniBand, because their descriptions often also name the Ethernet or RDMA hardware underneath
     * ("GPUDirect-TCPXO over 200 Gbps Ethernet", "SR-IOV VF of a Mellanox NIC, NCCL_IB_DISABLE=1"). HPE Slingshot (CXI NICs, reached through libfabric and aws-ofi-nccl like
     * EFA) is checked before EFA, whose words ("aws-ofi", "libfabric") its descriptions also contain.
     *
     * @param text the text (null allowed)
     * @return the class, empty when the text names none
     */
    public static Optional<NetworkClass> detect(String text) {
        return detect(text, true);
    }

    /**
     * As {@link #detect(String)}, optionally never answering {@link #SOCKET} (for a run known to use the IB verbs
     * network, described in a text that also names another run's sockets).
     *
     * @param text          the text (null allowed)
     * @param socketAllowed false to skip the socket class
     * @return the class, empty when the text names none
     */
    public static Optional<NetworkClass> detect(String text, boolean socketAllowed) {
        String t = text == null ? "" : text;
        if (TCPXO_TEXT.matcher(t).find()) {
            return Optional.of(TCPXO);
        }
        if (TCPX_TEXT.matcher(t).find()) {
            return Optional.of(TCPX);
        }
        if (SLINGSHOT_TEXT.matcher(t).find()) {
            return Optional.of(SLINGSHOT);
        }
        if (EFA_TEXT.matcher(t).find()) {
            return Optional.of(EFA);
        }
        if (socketAllowed && SOCKET_TEXT.matcher(t).find()) {
            return Optional.of(SOCKET);
        }
        if (ROCE_TEXT.matcher(t).find()) {
            return Optional.of(ROCE);
        }
        return IB_TEXT.matcher(t).find() ? Optional.of(INFINIBAND) : Optional.empty();
    }
}
