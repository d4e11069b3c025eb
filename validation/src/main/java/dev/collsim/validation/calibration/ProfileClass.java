package dev.collsim.validation.calibration;

import dev.collsim.hardware.GpuArchitecture;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.Topology;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The class of cluster a shipped calibration profile is fitted for and applied to: GPU generation (the architecture
 * of the oldest GPU's compute capability, {@link GpuArchitecture}: Ada's sm89 is {@code ada}, not Ampere, although
 * NCCL's tables share one row for sm80-89), and then what carries the data between GPUs:
 * <ul>
 *   <li>one host: NVSwitch, direct NVLink or PCIe only ({@code hopper-1host-nvswitch}); a superchip tray of a
 *       rack-scale NVLink domain (GPUs on a Grace CPU by NVLink-C2C, the NVSwitch chips in the rack's switch trays,
 *       e.g. one GB200 NVL72 compute tray) is a class of its own ({@code blackwell-1host-nvltray}), apart from a
 *       baseboard of GPUs and NVSwitch chips (HGX/DGX B200): a profile fitted on trays is not applied to baseboards,
 *       whose measured NVLink rate differs (GB200 in-tray runs reach 0.85-0.92 of NCCL's 18 x 40.1 GB/s NVLink
 *       figure, which the bare model now meets with its per-channel Simple rate, 32 x 20.7 GB/s; 8x B300 Ring 0.96,
 *       NVIDIA/nccl#2140);</li>
 *   <li>several hosts sharing one NVLink domain (multi-node NVLink, MNNVL, e.g. GB200 NVL72): {@code
 *       blackwell-mnnvl};</li>
 *   <li>several NVLink domains (or a domain and hosts outside it) joined by a network, e.g. two GB200 NVL72 racks
 *       over RoCE: {@code blackwell-mnnvl-roce}. NCCL makes each domain one node, so such a run crosses the network
 *       as a several-host run does, but each node is a rack of NVLink-joined GPUs: neither the one-domain class nor
 *       the plain network class describes it;</li>
 *   <li>several hosts otherwise: the network class between them ({@link NetworkClass}, e.g. {@code
 *       hopper-infiniband}, {@code hopper-efa}, {@code hopper-tcpxo}, {@code ampere-roce}); GCP's GPUDirect-TCPX
 *       and GPUDirect-TCPXO share {@code tcpxo} (the calibration's bands and profiles need files, and each plugin
 *       has only two or three public ones).</li>
 * </ul>
 * The key is the file name of the shipped profile ({@code configs/calibration/auto/KEY.yaml}). Immutable.
 *
 * @param key   file-name spelling, lower case, e.g. {@code hopper-infiniband}
 * @param label in words, e.g. {@code Hopper, several hosts over InfiniBand}
 */
public record ProfileClass(String key, String label) {

    /**
     * The class of a cluster by the network class it carries ({@link Topology#networkClass}: a YAML's
     * {@code fabric.network}, {@code --network}, a report variant's {@code network}, the catalog system's own, or what
     * compare read from a data file), the one the prediction is timed with. The cluster's name and source text are not
     * read: a cluster described as on Slingshot but given {@code --network infiniband} is timed, and so classed, as
     * InfiniBand.
     *
     * @param t a cluster
     * @return its class (generation of the oldest GPU, as NCCL indexes its tables by the minimum compute capability)
     */
    public static ProfileClass of(Topology t) {
        return of(t, null, null);
    }

    /**
     * As {@link #of(Topology)}, with a text describing the network (a data file's label, interconnect and hardware
     * lines): a text naming HPE Slingshot ({@link NetworkClass#detect}) gives the Slingshot class
     * ({@code hopper-slingshot}) even on a cluster given without its network class, so that runs on it neither train
     * nor use the InfiniBand profile.
     *
     * @param t           a cluster
     * @param networkText text naming the network (null allowed)
     * @return its class
     */
    public static ProfileClass of(Topology t, String networkText) {
        return of(t, networkText, null);
    }

    /**
     * The class of the part of a cluster a communicator's ranks span: NCCL builds its graphs from the nodes its ranks
     * are on, so 8 ranks on one host of a two-host cluster run as one node ({@code -1host-} class) and never cross the
     * network; ranks on several hosts of one multi-node NVLink domain are one NCCL node ({@code -mnnvl}).
     *
     * @param t     a cluster
     * @param ranks the communicator's GPUs (each {@link Gpu#host()} an index of {@code t}); empty for every host
     * @return the class of the hosts they span
     */
    public static ProfileClass ofRanks(Topology t, Collection<Gpu> ranks) {
        return of(t, null, ranks.isEmpty() ? null : ranks.stream().map(Gpu::host).collect(Collectors.toSet()));
    }

    /** As {@link #of(Topology, String)} over the given hosts, or every host when {@code hosts} is null. */
    private static ProfileClass of(Topology t, String networkText, Set<Integer> hosts) {
        // a cluster of identical hosts described once is asked through its template, never built in full
        Topology probe = t.hostTemplate().orElse(t);
        int sm = probe.gpus().stream().mapToInt(Gpu::sm).min().orElse(0);
        GpuArchitecture arch = GpuArchitecture.of(sm);
        String g = arch.key();
        String gl = arch.label();
        if (t.hostCount() <= 1 || hosts != null && hosts.size() <= 1) {
            if (hasNvSwitch(probe) && hasC2c(probe)) {
                return new ProfileClass(g + "-1host-nvltray", gl + ", one superchip tray of a rack-scale NVLink "
                        + "domain, GPUs joined by the rack's NVSwitch trays");
            }
            String fabric = hasNvSwitch(probe) ? "nvswitch" : hasNvlink(probe) ? "nvlink" : "pcie";
            return new ProfileClass(g + "-1host-" + fabric, gl + ", one host, GPUs joined by "
                    + (fabric.equals("pcie") ? "PCIe" : fabric.equals("nvlink") ? "direct NVLink" : "NVSwitch"));
        }
        int[] nodes = ncclNodes(probe, hosts);
        NetworkClass c = NetworkClass.detect(networkText).filter(x -> x == NetworkClass.SLINGSHOT)
                .orElse(t.networkClass());
        // GCP's two GPU-direct TCP plugins share one class: two public TCPX and three TCPXO files, too few for two
        boolean gcpTcp = c == NetworkClass.TCPX || c == NetworkClass.TCPXO;
        String net = gcpTcp ? NetworkClass.TCPXO.yamlName() : c.yamlName();
        String netLabel = gcpTcp ? "GCP GPUDirect-TCPX/TCPXO" : c.label();
        if (nodes[1] > 0) {
            return nodes[0] == 1
                    ? new ProfileClass(g + "-mnnvl", gl + ", several hosts in one NVLink domain (MNNVL)")
                    : new ProfileClass(g + "-mnnvl-" + net, gl + ", several NVLink domains (MNNVL racks) joined over "
                            + netLabel);
        }
        return new ProfileClass(g + "-" + net, gl + ", several hosts over " + netLabel);
    }

    /**
     * NCCL's nodes of a cluster: each multi-node NVLink domain (the hosts one rack-wide NVLink switch, host index
     * below 0, reaches) is one node (NCCL 2.27.3 {@code src/graph/topo.cc}: the MNNVL clique's ranks are one node),
     * every other host one of its own.
     *
     * @param t     a cluster built device by device (one with rack-wide switches always is)
     * @param hosts the hosts counted, null for every host
     * @return {NCCL nodes, multi-node NVLink domains} over those hosts
     */
    private static int[] ncclNodes(Topology t, Set<Integer> hosts) {
        Set<Integer> inDomain = new HashSet<>();
        Set<Integer> domains = new HashSet<>();
        for (NvSwitch s : t.devices(NvSwitch.class)) {
            if (s.host() < 0) {
                Set<Integer> reached = t.outgoing(s).stream().map(l -> t.target(l).host())
                        .filter(h -> h >= 0 && (hosts == null || hosts.contains(h))).collect(Collectors.toSet());
                if (hosts == null || !reached.isEmpty()) {
                    domains.add(s.domain());
                    inDomain.addAll(reached);
                }
            }
        }
        int counted = hosts == null ? t.hostCount() : hosts.size();
        return new int[] {domains.size() + Math.max(0, counted - inDomain.size()), domains.size()};
    }

    /**
     * @return true for a class of several hosts joined by a network (not one host, not MNNVL), whose profile is
     *         fitted with {@link FitLadder#network()}
     */
    public boolean network() {
        return !key.contains("-1host-") && !key.endsWith("-mnnvl");
    }

    private static boolean hasNvSwitch(Topology t) {
        return !t.devices(NvSwitch.class).isEmpty();
    }

    /** @return true when a GPU reaches a CPU over NVLink-C2C (a Grace superchip) */
    private static boolean hasC2c(Topology t) {
        return t.gpus().stream().anyMatch(g -> t.outgoing(g).stream().anyMatch(l -> l.type() == LinkType.C2C));
    }

    private static boolean hasNvlink(Topology t) {
        return t.gpus().stream().anyMatch(g -> t.outgoing(g).stream().anyMatch(l -> l.type() == LinkType.NVLINK));
    }
}
