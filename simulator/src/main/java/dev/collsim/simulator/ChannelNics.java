package dev.collsim.simulator;

import dev.collsim.simulator.network.Placement;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Nic;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.paths.HostPaths;
import dev.collsim.topology.paths.PathFinder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which local rank each ring channel enters a host at, so that the channels spread over the host's NICs as NCCL's
 * rings do. NCCL's ring search starts channel c at the NIC {@code nets[c mod netCount]} (NCCL 2.30 {@code
 * src/graph/search.cc ncclTopoSearchRecNet}: {@code n = nets[(graph->nChannels + i) % netCount]}), enters the host
 * at a GPU local to that NIC ({@code net->net.localGpu}, then the other GPUs of {@code ncclTopoGetLocal}), and every
 * rank of the channel uses the NIC of the channel's graph, {@code graph->inter[channel * 2 + index]}, not its own
 * nearest one ({@code ncclTopoGetNetDev}). So on a host of 8 GPUs and 2 NICs (GPUs 0-3 local to NIC 0, 4-7 to NIC 1)
 * channels 0, 1, 2, 3 enter at GPUs 0, 4, 1, 5 and their network hops alternate between the two NICs, where a
 * rotation over every local rank (0, 1, 2, 3) would put all four on NIC 0.
 *
 * <p>The entries are read on the first host of the ranks (a cluster described once: its template): walking its
 * ranks in topology order, each rank joins its nearest compute NIC ({@link HostPaths#nearestNic}, compute NICs are
 * those on a rail) when its path to that NIC is of the NIC's best type among the host's ranks (NCCL's local GPUs of
 * a NIC: a GPU that reaches it only through another GPU, PXN, is not local to it). Round r, NIC k (NICs in order of
 * first appearance) enters at the NIC's local rank {@code r mod (its local ranks)}; the period is the NIC count
 * times the most local ranks of one NIC.
 */
public final class ChannelNics {

    private ChannelNics() {
    }

    /**
     * @param topology the cluster the ranks are on
     * @param ranks    the GPUs, any order
     * @return the local rank (position among the host's ranks in topology order) channel c enters at, for c modulo
     *         the list's size; empty when every rank has a NIC of its own in rank order (the plain rotation over
     *         every local rank is then NCCL's), when hosts have one rank, or when no rank reaches a compute NIC
     */
    public static List<Integer> entries(Topology topology, List<Gpu> ranks) {
        List<Gpu> order = Placement.topologyOrder(ranks);
        int perHost = order.isEmpty() ? 0 : Placement.ranksPerHost(order);
        if (perHost < 2) {
            return List.of();
        }
        Topology t = topology.hostTemplate().orElse(topology);
        int host = t == topology ? order.get(0).host() : 0;
        Map<Integer, Gpu> byIndex = new HashMap<>();
        t.gpus().stream().filter(g -> g.host() == host).forEach(g -> byIndex.put(g.index(), g));
        HostPaths paths = PathFinder.of(t).host(host);
        Map<Nic, List<Integer>> local = new LinkedHashMap<>();
        Map<Nic, PathType> best = new HashMap<>();
        for (int j = 0; j < perHost; j++) {
            Gpu gpu = byIndex.get(order.get(j).index());
            Optional<Nic> nic = gpu == null ? Optional.empty() : paths.nearestNic(gpu, n -> n.rail() >= 0);
            if (nic.isEmpty()) {
                continue;
            }
            PathType type = paths.path(gpu, nic.get()).type();
            PathType was = best.get(nic.get());
            if (was == null || type.compareTo(was) < 0) {
                best.put(nic.get(), type);
                local.put(nic.get(), new ArrayList<>());
            }
            if (type == best.get(nic.get())) {
                local.get(nic.get()).add(j);
            }
        }
        return interleave(new ArrayList<>(local.values()), perHost);
    }

    /**
     * @param perNic  each NIC's local ranks, NICs in order
     * @param perHost ranks per host
     * @return round r, NIC k: {@code perNic[k][r mod size]}; empty when that is every local rank in order or no NIC
     */
    static List<Integer> interleave(List<List<Integer>> perNic, int perHost) {
        int rounds = perNic.stream().mapToInt(List::size).max().orElse(0);
        List<Integer> out = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            for (List<Integer> l : perNic) {
                out.add(l.get(r % l.size()));
            }
        }
        boolean identity = out.size() == perHost;
        for (int i = 0; identity && i < out.size(); i++) {
            identity = out.get(i) == i;
        }
        return identity ? List.of() : List.copyOf(out);
    }
}
