package dev.collsim.simulator.channel;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.GraphPattern;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import dev.collsim.topology.paths.HostPaths;
import dev.collsim.topology.paths.PathFinder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The GPUs of one host as collsim's NCCL search reads them: a cluster whose hosts are described once is read on its
 * host template's host 0, which stands for every host (its whole graph is never built), any other cluster on
 * itself. The one place that maps a host's GPUs onto the graph they are read on, for the search ({@link
 * ChannelSearch}) and for the flow backend's NIC layout ({@code dev.collsim.simulator.ChannelNics}).
 *
 * @param graph the topology the GPUs are read on (the template, or the cluster)
 * @param host  their host in {@code graph}
 * @param gpus  the GPUs, in the order given, as devices of {@code graph}
 */
public record SearchedHost(Topology graph, int host, List<Gpu> gpus) {

    /** @throws NullPointerException on a null graph or GPU list */
    public SearchedHost {
        Objects.requireNonNull(graph, "graph");
        gpus = List.copyOf(gpus);
    }

    /**
     * @param topology the cluster
     * @param hostGpus GPUs of one host of the cluster, any order, at least one
     * @return the same GPUs (same local indices, same order) on the graph they are read on
     * @throws IllegalArgumentException when the list is empty, spans hosts, or names a GPU index the template lacks
     */
    public static SearchedHost of(Topology topology, List<Gpu> hostGpus) {
        if (hostGpus.isEmpty() || hostGpus.stream().anyMatch(g -> g.host() != hostGpus.get(0).host())) {
            throw new IllegalArgumentException("GPUs of one host expected, got " + hostGpus);
        }
        Topology template = topology.hostTemplate().orElse(null);
        if (template == null) {
            return new SearchedHost(topology, hostGpus.get(0).host(), hostGpus);
        }
        return new SearchedHost(template, 0, onTemplate(template, hostGpus));
    }

    /**
     * @param template a host template
     * @param gpus     GPUs of one host of a cluster built from it
     * @return the template's host-0 GPUs with the same local indices, in the same order
     * @throws IllegalArgumentException when the template has no GPU of such an index
     */
    static List<Gpu> onTemplate(Topology template, List<Gpu> gpus) {
        Map<Integer, Gpu> byIndex = new HashMap<>();
        template.gpusOf(0).forEach(g -> byIndex.put(g.index(), g));
        return gpus.stream().map(g -> {
            Gpu t = byIndex.get(g.index());
            if (t == null) {
                throw new IllegalArgumentException("host template has no GPU " + g.index() + " (" + g.id() + ")");
            }
            return t;
        }).toList();
    }

    /** @return the host's paths (NCCL's path types and bandwidths from every device of the host) */
    public HostPaths paths() {
        return PathFinder.of(graph).host(host);
    }

    /**
     * The NVLS heads of a communicator that spans several nodes, as NCCL picks them ({@link NvlsSearch#netHeads}:
     * one per NIC the GPUs use, the NIC's {@code localGpu}, a GPU heading at most one; NCCL 2.30.7 {@code
     * src/graph/search.cc ncclTopoSearchRecNet}, {@code src/graph/connect.cc} {@code nvlsHeads}). CollNet Direct's
     * heads come from the same search branch. On a host of 8 GPUs with 2 NICs, GPUs 0-3 local to NIC 0 and 4-7 to
     * NIC 1, the heads are GPUs 0 and 4; on a DGX H100 (a NIC per GPU) all 8.
     *
     * @param settings NCCL settings (path rules: NCCL_P2P_LEVEL, NCCL_PXN_DISABLE, ...)
     * @return positions in {@link #gpus} of the heads, ascending; empty when no GPU reaches a NIC
     */
    public List<Integer> nvlsHeads(NcclSettings settings) {
        int[][] heads = NvlsSearch.netHeads(new HostModel(graph, Set.of(host), gpus, settings,
                NcclVersion.DEFAULT.minor()));
        return Arrays.stream(heads).mapToInt(x -> x[0]).sorted().boxed().toList();
    }

    /**
     * NCCL's multi-node ring graph of these GPUs: the same search, speeds and rules as {@link ChannelSearch} runs on
     * a node of a communicator spanning several nodes (ring pattern, 1 to 32 channels), read back per channel. After
     * NCCL's duplication the channels found stand for their copies: runtime channel c is element {@code c mod size}
     * (NCCL 2.30 {@code ncclTopoGetNetDev}: {@code channelId % graph->nChannels}, and duplicated channels copy the
     * first ones).
     *
     * @param settings NCCL settings (path rules, NCCL_CROSS_NIC)
     * @param version  the NCCL release (speed arrays, crossNic 2 from 2.23)
     * @return the channels, or empty when the host has no NIC or the search fell back to NCCL's default graph
     */
    public List<RingChannel> ringChannels(NcclSettings settings, NcclVersion version) {
        HostModel h = new HostModel(graph, Set.of(host), gpus, settings, version.minor());
        GraphSearch search = new GraphSearch(h, true, SearchSpeeds.of(h.minSm, true, version), settings, version);
        int crossNic = search.searchRing();
        List<int[]> orders = search.orders();
        List<int[]> nets = search.nets();
        List<RingChannel> out = new ArrayList<>();
        for (int c = 0; c < orders.size() && c < nets.size(); c++) {
            out.add(new RingChannel(Arrays.stream(orders.get(c)).boxed().toList(),
                    nicPosition(h.nics.get(nets.get(c)[0])), nicPosition(h.nics.get(nets.get(c)[1])), crossNic));
        }
        return List.copyOf(out);
    }

    /**
     * The ring or the tree graph collsim's search finds on these GPUs, channel by channel, to set beside NCCL's graph
     * dump: the searches {@link ChannelSearch} runs on a node (the ring with 1 to 32 channels, then the tree with the
     * ring's channel count: {@link GraphSearch#searchTree}), read back per channel. NCCL's {@code
     * ncclTopoDupChannels} (2.28.9 {@code src/graph/search.cc}) copies channel c to c + n, so channel c of the
     * graph is element {@code c mod size}, as in {@link #ringChannels}.
     *
     * @param tree      the tree (NCCL's graph 1) rather than the ring (graph 0)
     * @param multiNode the search of a node of a communicator that spans several nodes
     * @param settings  NCCL settings (path rules, NCCL_CROSS_NIC)
     * @param version   the NCCL release (speed arrays)
     * @return per channel found, its GPUs in order as their local indices ({@link Gpu#index}, NCCL's {@code gpu dev});
     *         empty where the search fell back to NCCL's default graph
     */
    public List<List<Integer>> graphOrders(boolean tree, boolean multiNode, NcclSettings settings,
            NcclVersion version) {
        HostModel h = new HostModel(graph, Set.of(host), gpus, settings, version.minor());
        double[] speeds = SearchSpeeds.of(h.minSm, multiNode, version);
        GraphSearch search = new GraphSearch(h, multiNode, speeds, settings, version);
        GraphSummary ring = search.search(GraphPattern.RING, 1, GraphSearch.RING_MAX_CHANNELS);
        if (tree) {
            search = new GraphSearch(h, multiNode, speeds, settings, version);
            search.searchTree(ring);
        }
        return search.orders().stream().map(o -> Arrays.stream(o).limit(gpus.size()).mapToObj(k -> gpus.get(k)
                .index()).toList()).toList();
    }

    /**
     * @param position a NIC's position among its host's NICs in NCCL's NET device order ({@link
     *                 RingChannel#entryNic}, {@link RingChannel#exitNic}; {@link Topology#nicsOf})
     * @return the NIC
     */
    public Nic nic(int position) {
        return graph.nicsOf(host).get(position);
    }

    /**
     * @param nic a NIC of {@link #graph}
     * @return its position among its host's NICs in NCCL's NET device order ({@link Topology#nicsOf}: hosts built
     *         from one description number their NICs alike, so the position names the same NIC on every host)
     */
    int nicPosition(Nic nic) {
        return graph.nicsOf(nic.host()).indexOf(nic);
    }
}
