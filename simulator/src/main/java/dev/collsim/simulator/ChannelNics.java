package dev.collsim.simulator;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.RingChannel;
import dev.collsim.simulator.channel.SearchedHost;
import dev.collsim.simulator.network.ChannelNets;
import dev.collsim.simulator.network.Placement;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.paths.HostPaths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

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
 * <p>The entries are read on the first host of the ranks ({@link SearchedHost}: a cluster described once is read
 * on its template): walking its ranks in topology order, each rank joins its nearest compute NIC ({@link
 * HostPaths#nearestNic}, compute NICs are those on a rail) when its path to that NIC is of the NIC's best type among
 * the host's ranks (NCCL's local GPUs of a NIC: a GPU that reaches it only through another GPU, PXN, is not local to
 * it). Round r, NIC k (NICs in order of first appearance) enters at the NIC's local rank {@code r mod (its local
 * ranks)}; the period is the NIC count times the most local ranks of one NIC. The same host gives the hierarchical
 * schedule its NVLS heads ({@link #heads}) and the flow schedules the ranks with a NIC of their own ({@link
 * #ownNicRanks}).
 */
public final class ChannelNics {

    private ChannelNics() {
    }

    /**
     * Where a host's NICs meet NCCL's channels, as the flow schedules need it ({@code FlowChoice#decide}).
     *
     * @param nicRanks local ranks 0 .. nicRanks-1 have a NIC of their own and the others none (0: not so; {@link
     *                 #ownNicRanks}, or {@code --rails}); see {@code ScheduleRequest#nicRanks}
     * @param entries  the local rank ring channel c enters a host at, for c modulo the size ({@link #entries}), or
     *                 empty
     * @param reversed per entry, whether that channel's chain runs backwards ({@link #reversed}), or empty
     * @param heads    the local ranks that cross hosts in the hierarchical schedule ({@link #heads}), or empty
     * @param nets     the NICs each ring channel leaves and enters a host by, from NCCL's multi-node ring graph
     *                 ({@link #searched}), or {@link ChannelNets#NONE} (the router's own choice)
     */
    public record Layout(int nicRanks, List<Integer> entries, List<Boolean> reversed, List<Integer> heads,
            ChannelNets nets) {

        /** No entries, heads nor reversed chains: the schedules' defaults, with {@code nicRanks}. */
        public static Layout ofNicRanks(int nicRanks) {
            return new Layout(nicRanks, List.of(), List.of(), List.of(), ChannelNets.NONE);
        }

        /** A layout without NICs of NCCL's graph ({@link ChannelNets#NONE}). */
        public Layout(int nicRanks, List<Integer> entries, List<Boolean> reversed, List<Integer> heads) {
            this(nicRanks, entries, reversed, heads, ChannelNets.NONE);
        }

        /** @throws IllegalArgumentException on a negative nicRanks */
        public Layout {
            if (nicRanks < 0) {
                throw new IllegalArgumentException("nicRanks must be >= 0, got " + nicRanks);
            }
            entries = List.copyOf(entries);
            reversed = List.copyOf(reversed);
            heads = List.copyOf(heads);
            Objects.requireNonNull(nets, "nets");
            if (!reversed.isEmpty() && reversed.size() != entries.size()) {
                throw new IllegalArgumentException("reversed " + reversed + " must match entries " + entries);
            }
        }
    }

    /**
     * @param topology the cluster the ranks are on
     * @param ranks    the GPUs, any order
     * @param settings NCCL settings (path rules, NCCL_CROSS_NIC)
     * @param version  the NCCL release whose search gives the ring graph ({@link #searched})
     * @param rails    {@code --rails}: only the first N compute NICs of each host are cabled (0: as the cluster
     *                 says); the N GPUs next to them are then the ranks with a NIC, the ring entries and the heads
     * @return the layout read from the cluster: where the ranks span hosts and NCCL's multi-node ring graph is one
     *         the ring schedule walks (every channel a forward or backward rotation of the host's ranks), its entries,
     *         directions and NICs ({@link #searched}); otherwise {@link #entries} and {@link #reversed}, the router
     *         picking NICs; with {@link #ownNicRanks} and {@link #heads}; or with rails given local ranks 0 ..
     *         rails-1
     */
    public static Layout of(Topology topology, List<Gpu> ranks, NcclSettings settings, NcclVersion version,
            int rails) {
        if (rails > 0) {
            return Layout.ofNicRanks(rails);
        }
        int own = ownNicRanks(topology, ranks);
        List<Integer> heads = heads(topology, ranks, settings);
        Optional<Layout> graph = searched(topology, ranks, settings, version);
        return graph.map(l -> new Layout(own, l.entries(), l.reversed(), heads, l.nets()))
                .orElseGet(() -> new Layout(own, entries(topology, ranks), reversed(topology, ranks), heads));
    }

    /**
     * The ring channels of NCCL's multi-node graph on the ranks' first host ({@link SearchedHost#ringChannels}, the
     * search the analytical model reads), as the ring schedule and the router take them: channel c enters each host
     * at the first GPU of graph channel c (c modulo the graph's channels), walks the host forwards or backwards, and
     * crosses hosts from its exit NIC to its entry NIC. On a DGX H100 (a NIC per GPU, NCCL_CROSS_NIC=2) the search
     * keeps crossNic 2: channel 0 enters by NIC 0 at GPU 0, walks 0 .. 7 and leaves by GPU 7's NIC 7; channel 1
     * enters by NIC 7 at GPU 7, walks back to GPU 0 and leaves by NIC 0; and so on in pairs.
     *
     * @param topology the cluster the ranks are on
     * @param ranks    the GPUs, any order
     * @param settings NCCL settings
     * @param version  the NCCL release
     * @return the entries, directions (empty when all forwards) and NICs; empty when the ranks are on one host or one
     *         per host, the host is a tray of a multi-host NVLink domain (NCCL's node is then the domain, not the
     *         host: a GB200 NVL72 rack), the search found no multi-node graph, or a channel's order is no rotation of
     *         the host's ranks
     */
    public static Optional<Layout> searched(Topology topology, List<Gpu> ranks, NcclSettings settings,
            NcclVersion version) {
        List<Gpu> order = Placement.topologyOrder(ranks);
        int perHost = order.isEmpty() ? 0 : Placement.ranksPerHost(order);
        if (perHost < 2 || perHost == order.size()) {
            return Optional.empty();
        }
        SearchedHost host = SearchedHost.of(topology, order.subList(0, perHost));
        if (inNvlinkDomain(host)) {
            return Optional.empty();
        }
        List<RingChannel> graph = host.ringChannels(settings, version);
        List<Integer> entries = new ArrayList<>();
        List<Boolean> reversed = new ArrayList<>();
        List<Integer> in = new ArrayList<>();
        List<Integer> out = new ArrayList<>();
        for (RingChannel c : graph) {
            int e = c.order().get(0);
            boolean fwd = true;
            boolean back = true;
            for (int k = 0; k < perHost; k++) {
                fwd &= c.order().size() == perHost && c.order().get(k) == (e + k) % perHost;
                back &= c.order().size() == perHost && c.order().get(k) == (e - k + perHost) % perHost;
            }
            if (!fwd && !back) {
                return Optional.empty();
            }
            entries.add(e);
            reversed.add(!fwd);
            in.add(c.entryNic());
            out.add(c.exitNic());
        }
        boolean alternate = !graph.isEmpty() && graph.get(0).crossNic() == 2 && graph.size() % 2 == 0;
        return graph.isEmpty() ? Optional.empty() : Optional.of(new Layout(0, entries,
                reversed.contains(true) ? reversed : List.of(), List.of(), new ChannelNets(in, out, perHost,
                alternate)));
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
        return perHost < 2 ? List.of()
                : interleave(localRanksPerNic(SearchedHost.of(topology, order.subList(0, perHost))), perHost);
    }

    /**
     * Which way each ring channel walks a host: NCCL's ring search closes a channel through its entry NIC from a GPU
     * local to it when one is left at the end of the chain (NCCL 2.30.7 {@code src/graph/search.cc}: the first pass
     * keeps {@code crossNic} 0, the way out through the entry NIC, and raises the GPU-NIC path type from PIX; on an
     * NVSwitch host the next GPU of a chain is the previous or next index, {@code ncclTopoSearchRecGpu}), so the
     * channel's network hops stay on one NIC with or without PXN. A chain entering at local rank e runs forward
     * (e, e+1, ..., e-1) and leaves from e-1; when e-1 is not local to e's NIC but e+1 is, NCCL's chain runs the
     * other way (e, e-1, ..., e+1) and leaves from e+1. Only where every GPU pair is joined over NVLink (path NVL):
     * elsewhere NCCL orders a chain by PCIe distance, and collsim's copy of the search ({@code channel.ChannelFill})
     * keeps it forwards and leaves by another NIC ({@code crossNic}). On 8 GPUs with NICs shared by GPU pairs (2k,
     * 2k+1) the channels entering at 0, 2, 4, 6 run backwards and leave from 1, 3, 5, 7, those entering at 1, 3, 5, 7
     * run forwards and leave from 0, 2, 4, 6; with a NIC per GPU every chain is taken to run forwards. NCCL's search
     * ({@code channel.SearchNets}) then relays over NVLink (PXN) to the entry NIC where NVLink has room for it (HGX
     * B200); on a DGX H100 the relay would cross NVLink once more per channel (8 x 48 &gt; 370.8 GB/s), so NCCL pairs
     * the channels over two NICs (crossNic 2), every odd channel running backwards: {@link #searched} reads that graph
     * and {@link #of} prefers it; this rule stands where the graph's orders are no rotations.
     *
     * @param topology the cluster the ranks are on
     * @param ranks    the GPUs, any order
     * @return per element of {@link #entries} (same size), true when that channel's chain runs backwards; empty
     *         when {@link #entries} is empty or every chain runs forwards
     */
    public static List<Boolean> reversed(Topology topology, List<Gpu> ranks) {
        List<Gpu> order = Placement.topologyOrder(ranks);
        int perHost = order.isEmpty() ? 0 : Placement.ranksPerHost(order);
        if (perHost < 2) {
            return List.of();
        }
        SearchedHost view = SearchedHost.of(topology, order.subList(0, perHost));
        if (!allOverNvlink(view)) {
            return List.of();
        }
        List<List<Integer>> perNic = localRanksPerNic(view);
        List<Integer> entries = interleave(perNic, perHost);
        List<Boolean> out = new ArrayList<>(entries.size());
        for (int e : entries) {
            List<Integer> nic = perNic.stream().filter(l -> l.contains(e)).findFirst().orElse(List.of());
            out.add(!nic.contains((e - 1 + perHost) % perHost) && nic.contains((e + 1) % perHost));
        }
        return out.contains(true) ? List.copyOf(out) : List.of();
    }

    /** @return true when a GPU of the host is linked to an NVLink switch of no host (a multi-host NVLink domain) */
    private static boolean inNvlinkDomain(SearchedHost h) {
        for (Gpu g : h.gpus()) {
            for (Link l : h.graph().outgoing(g)) {
                if (h.graph().target(l) instanceof NvSwitch sw && sw.host() < 0) {
                    return true;
                }
            }
        }
        return false;
    }

    /** @return true when every pair of the host's GPUs is joined over NVLink (NCCL path type NVL: NVSwitch) */
    private static boolean allOverNvlink(SearchedHost view) {
        HostPaths paths = view.paths();
        for (Gpu a : view.gpus()) {
            for (Gpu b : view.gpus()) {
                if (a != b && paths.path(a, b).type() != PathType.NVL) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * @return each compute NIC's local ranks (positions in topology order of the first host's ranks), NICs in order
     *         of first appearance: a rank joins its nearest compute NIC when its path is of that NIC's best type
     */
    private static List<List<Integer>> localRanksPerNic(SearchedHost view) {
        HostPaths paths = view.paths();
        Map<Nic, List<Integer>> local = new LinkedHashMap<>();
        Map<Nic, PathType> best = new HashMap<>();
        for (int j = 0; j < view.gpus().size(); j++) {
            Gpu gpu = view.gpus().get(j);
            Optional<Nic> nic = paths.nearestNic(gpu, n -> n.rail() >= 0);
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
        return new ArrayList<>(local.values());
    }

    /**
     * The local ranks that cross hosts in the hierarchical schedule of NCCL's NVLS, NVLSTree and CollNet Direct: the
     * NVLS heads, one GPU per NIC ({@link SearchedHost#nvlsHeads}, NCCL 2.30.7 {@code src/graph/search.cc
     * ncclTopoSearchRecNet}), read on the first host of the ranks as {@link #entries} reads its entries. On 8 GPUs
     * with 2 NICs (GPUs 0-3 local to NIC 0, 4-7 to NIC 1) local ranks 0 and 4, where every local rank crossing hosts
     * would make 8 heads.
     *
     * @param topology the cluster the ranks are on
     * @param ranks    the GPUs, any order
     * @param settings NCCL settings (its path rules)
     * @return ascending local ranks (positions among the host's ranks in topology order); empty when the ranks are
     *         on one host or one per host, when every local rank is a head, or when no rank reaches a NIC
     */
    public static List<Integer> heads(Topology topology, List<Gpu> ranks, NcclSettings settings) {
        List<Gpu> order = Placement.topologyOrder(ranks);
        int perHost = order.isEmpty() ? 0 : Placement.ranksPerHost(order);
        if (perHost < 2 || perHost == order.size()) {
            return List.of();
        }
        List<Integer> heads = SearchedHost.of(topology, order.subList(0, perHost)).nvlsHeads(settings);
        return heads.size() == perHost ? List.of() : heads;
    }

    /**
     * Local ranks with a compute NIC of their own, read from the cluster (the {@code rails} of {@link
     * FlowChoice#decide} when no {@code --rails} gives it): walking the first host's ranks in topology order, each
     * rank's nearest compute NIC ({@link HostPaths#nearestNic}, NCCL's local-NIC rule; compute NICs are those on a
     * rail); when the first N ranks reach N different NICs and every later rank only a NIC an earlier rank already
     * has (a DGX H100 with rails 0..3 cabled: GPUs 4..7 reach NICs 0..3 over PXN, and the flow router sends them all
     * through NIC 0), N, so the schedules cross hosts only through those ranks, as NCCL's graph search does (rings
     * and trees enter and leave a node through a GPU next to the channel's NIC). 0 (every rank) otherwise: one NIC
     * per GPU, or NICs shared by GPU pairs (GPUs 2k and 2k+1 on one NIC: rotating over every rank already spreads
     * the channels; the hierarchical schedule's heads are then {@link #heads}).
     *
     * @param topology the cluster the ranks are on
     * @param ranks    the GPUs, any order
     * @return N in [1, ranks per host) as above, else 0
     */
    public static int ownNicRanks(Topology topology, List<Gpu> ranks) {
        List<Gpu> order = Placement.topologyOrder(ranks);
        int perHost = order.isEmpty() ? 0 : Placement.ranksPerHost(order);
        if (perHost < 2) {
            return 0;
        }
        SearchedHost view = SearchedHost.of(topology, order.subList(0, perHost));
        HostPaths paths = view.paths();
        Set<Nic> seen = new HashSet<>();
        int own = 0;
        for (int j = 0; j < perHost; j++) {
            Optional<Nic> nic = paths.nearestNic(view.gpus().get(j), n -> n.rail() >= 0);
            boolean fresh = nic.isPresent() && seen.add(nic.get());
            if (fresh && own < j) {
                return 0;
            }
            own += fresh ? 1 : 0;
        }
        return own < perHost ? own : 0;
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
