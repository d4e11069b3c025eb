package dev.collsim.simulator.channel;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.topology.paths.HostPaths;
import dev.collsim.topology.paths.PathFinder;
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
        int[][] heads = NvlsSearch.netHeads(new HostModel(graph, Set.of(host), gpus, settings));
        return Arrays.stream(heads).mapToInt(x -> x[0]).sorted().boxed().toList();
    }
}
