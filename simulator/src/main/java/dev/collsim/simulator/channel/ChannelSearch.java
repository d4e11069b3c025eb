package dev.collsim.simulator.channel;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.CpuKind;
import dev.collsim.topology.GraphPattern;
import dev.collsim.simulator.tuning.GraphSet;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Derives a {@link ChannelPlan} from a topology and the GPUs taking part, the way NCCL's init does (fact sheet
 * §3.4, §5): group ranks into NCCL nodes (hosts; hosts joined by a shared NVSwitch form one multi-node NVLink
 * node), run the ring, tree and NVLS searches ({@link GraphSearch}) on each node, let all nodes agree (minimum
 * nChannels and bandwidths, maximum path types), then compute the runtime channel counts.
 *
 * <p><b>Symmetry.</b> Nodes with the same structure give the same search result, so the search runs once per
 * distinct node signature (the GPUs used by local index, plus a digest of the node's devices and links) and
 * not once per node: a 1,024-host cluster of one host type costs one node search plus a linear scan of the
 * graph ({@link TopologyScan}, done once per topology and cached, since topologies are immutable). A cluster whose
 * hosts are described once ({@link Topology#hostTemplate()}) needs no scan: its nodes are searched on the template's
 * host 0, and its graph is never built. This class is stateless and thread-safe.
 */
public final class ChannelSearch {

    private ChannelSearch() {
    }

    /**
     * Runs the search.
     *
     * @param topo     the cluster
     * @param ranks    GPUs in rank order, at least one
     * @param settings NCCL settings (NCCL_P2P_LEVEL, NCCL_P2P_DISABLE, NCCL_PXN_DISABLE, NCCL_CROSS_NIC,
     *                 NCCL_NVB_DISABLE, NCCL_NVLS_ENABLE and channel limits act here)
     * @param version  NCCL release (speed arrays, the NVLS GPU count of {@link NvlsTuning#ncclNvlsInitSupports})
     * @return the plan
     * @throws IllegalArgumentException when ranks is empty
     */
    public static ChannelPlan search(Topology topo, List<Gpu> ranks, NcclSettings settings, NcclVersion version) {
        return search(topo, ranks, settings, version, version.minor());
    }

    /**
     * Runs the search with the sm70/sm80 NVLink figure and sm80 speed arrays of a given release ({@code
     * NcclBandwidths#nvlinkPerLink(int, int)}, {@link SearchSpeeds#of(int, boolean, NcclVersion, int)}): a 2.16 run,
     * modelled by 2.18.5, searched with its own 22 GB/s links; or 2.18's 20, the rate the time reads.
     *
     * @param topo     the cluster
     * @param ranks    GPUs in rank order, at least one
     * @param settings NCCL settings
     * @param version  NCCL release modelled
     * @param nvlMinor the NCCL 2 minor release whose NVLink figure and sm80 arrays the search uses
     * @return the plan
     * @throws IllegalArgumentException when ranks is empty
     */
    public static ChannelPlan search(Topology topo, List<Gpu> ranks, NcclSettings settings, NcclVersion version,
            int nvlMinor) {
        Objects.requireNonNull(topo, "topo");
        if (ranks.isEmpty()) {
            throw new IllegalArgumentException("ranks must not be empty");
        }
        // hosts described once (the template's host 0): no scan, no digest; each distinct GPU set searched on it
        Topology template = topo.hostTemplate().orElse(null);
        TopologyScan scan = template == null ? TopologyScan.of(topo) : null;
        int[] nodeKey = scan == null ? new int[0] : scan.nodeKey();
        long[][] digest = scan == null ? new long[0][] : scan.digestOf();
        Map<Integer, List<Gpu>> byNode = new LinkedHashMap<>();
        // ranks of one node are usually consecutive: look the node up only when it changes
        int lastKey = 0;
        List<Gpu> last = null;
        for (Gpu g : ranks) {
            int h = g.host();
            int key = h >= 0 && h < nodeKey.length ? nodeKey[h] : h;
            if (last == null || key != lastKey) {
                last = byNode.computeIfAbsent(key, k -> new ArrayList<>());
                lastKey = key;
            }
            last.add(g);
        }
        int nNodes = byNode.size();
        boolean multi = nNodes > 1;
        Map<Signature, NodeResult> cache = new HashMap<>();
        List<NodeResult> results = new ArrayList<>();
        int minSm = Integer.MAX_VALUE;
        int maxSm = 0;
        int maxLocal = 0;
        int minLocal = Integer.MAX_VALUE;
        for (Map.Entry<Integer, List<Gpu>> e : byNode.entrySet()) {
            List<Gpu> gpus = e.getValue();
            maxLocal = Math.max(maxLocal, gpus.size());
            minLocal = Math.min(minLocal, gpus.size());
            int firstHost = gpus.get(0).host();
            long[] sig = new long[gpus.size() + 5];
            int prevHost = Integer.MIN_VALUE;
            boolean oneHost = true;
            for (int i = 0; i < gpus.size(); i++) {
                Gpu g = gpus.get(i);
                minSm = Math.min(minSm, g.sm());
                maxSm = Math.max(maxSm, g.sm());
                sig[i] = ((long) (g.host() - firstHost) << 32) | g.index();
                if (g.host() != prevHost) {
                    long[] dg = g.host() >= 0 && g.host() < digest.length ? digest[g.host()] : null;
                    for (int k = 0; dg != null && k < 5; k++) {
                        sig[gpus.size() + k] = sig[gpus.size() + k] * 31 + dg[k];
                    }
                    oneHost &= prevHost == Integer.MIN_VALUE;
                    prevHost = g.host();
                }
            }
            boolean single = oneHost;
            results.add(cache.computeIfAbsent(new Signature(sig), k -> {
                if (template != null) {
                    return searchNode(new HostModel(template, Set.of(0), SearchedHost.onTemplate(template, gpus),
                            settings, nvlMinor), multi, settings, version, nvlMinor);
                }
                Set<Integer> hosts = single ? Set.of(firstHost) : new TreeSet<>(gpus.stream().map(Gpu::host).toList());
                return searchNode(new HostModel(topo, hosts, gpus, settings, nvlMinor), multi, settings, version,
                        nvlMinor);
            }));
        }
        NodeResult agreed = agree(results);
        double netUs = NetPluginLatency.reportedUs(topo.networkClass());
        GraphSet graphs = multi ? agreed.graphs.withLatencyInter(netUs) : agreed.graphs;
        int runtime = RuntimeChannels.collectiveChannels(agreed.graphs, minSm, nNodes, settings);
        boolean nvlsSupport = agreed.hasNvSwitch && minSm >= 90 && settings.nvlsEnable() != 0
                && agreed.graphs.nvls().present() && NvlsTuning.ncclNvlsInitSupports(version, minLocal);
        NvlsTuning nvls = NvlsTuning.of(version, minSm, nNodes, minLocal, agreed.minNetBw,
                agreed.graphs.nvls().typeInter()).withSettings(settings, nNodes);
        GraphSummary nvlsTime = multi ? agreed.nvlsTime.withLatencyInter(netUs) : agreed.nvlsTime;
        return new ChannelPlan(graphs, ranks.size(), nNodes, maxLocal, minLocal, minSm, maxSm, agreed.cpu,
                agreed.hasNvSwitch, nvlsSupport, runtime, RuntimeChannels.nvlsChannels(nvls, settings),
                RuntimeChannels.p2pChannels(runtime, settings), agreed.scaleUp, multi ? agreed.nodeNicBw : 0,
                agreed.gpuPathBw, agreed.nics, topo.networkClass(), topo.nicVendor(), multi ? agreed.netBw : 0,
                agreed.ringPathBw, agreed.pairPathBw, agreed.gpuPcieGen, nvls, agreed.localNets, nvlsTime,
                agreed.switchHops, multi ? agreed.nicPortBw : 0, agreed.shmOneWay);
    }

    /** Node signature: GPUs used (host offset, local index) and the hosts' digests. */
    private record Signature(long[] v) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Signature s && Arrays.equals(s.v, v);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(v);
        }
    }

    private record NodeResult(GraphSet graphs, CpuKind cpu, boolean hasNvSwitch, ScaleUp scaleUp,
            double nodeNicBw, double gpuPathBw, int nics, double netBw, double minNetBw, double ringPathBw,
            double pairPathBw, int gpuPcieGen, int localNets, GraphSummary nvlsTime, double switchHops,
            double nicPortBw, boolean shmOneWay) {
    }

    private static NodeResult searchNode(HostModel h, boolean multi, NcclSettings s, NcclVersion v, int nvlMinor) {
        double[] speeds = SearchSpeeds.of(h.minSm, multi, v, nvlMinor);
        GraphSearch ringSearch = new GraphSearch(h, multi, speeds, s, v);
        GraphSummary ring = ringSearch.search(GraphPattern.RING, 1, GraphSearch.RING_MAX_CHANNELS);
        GraphSummary tree = new GraphSearch(h, multi, speeds, s, v).searchTree(ring);
        GraphSummary nvls = s.nvlsEnable() == 0 ? GraphSummary.none(GraphPattern.NVLS)
                : NvlsSearch.search(h, multi, speeds);
        // the time's NVLS graph: NCCL 2.30.7's search, whose sm100 arrays are finer (ChannelPlan#nvlsTimeGraph)
        GraphSummary nvlsTime = s.nvlsEnable() == 0 || v == NcclVersion.V2_30_7 ? nvls
                : NvlsSearch.search(h, multi, SearchSpeeds.of(h.minSm, multi, NcclVersion.V2_30_7));
        GraphSummary chain = s.collnetEnable() && multi ? new GraphSummary(GraphPattern.TREE, ring.nChannels(),
                tree.bwIntra(), tree.bwInter(), tree.typeIntra(), tree.typeInter(), 0, true)
                : GraphSummary.none(GraphPattern.TREE);
        GraphSummary direct = s.collnetEnable() && multi && h.hasNvSwitch
                ? new GraphSummary(GraphPattern.COLLNET_DIRECT, Math.min(8, h.gpus.size()), tree.bwIntra(),
                        tree.bwInter(), tree.typeIntra(), tree.typeInter(), 0, true)
                : GraphSummary.none(GraphPattern.COLLNET_DIRECT);
        CpuKind cpu = h.cpuKind();
        double pathBw = 0;
        for (int i = 0; i < h.gpus.size(); i++) {
            for (int j = 0; j < h.gpus.size(); j++) {
                if (i != j && h.gpuToGpu[i][j] != null) {
                    // at 2.18+'s NVLink figure: the P2P time's rate, and NCCL's link count through its own figure
                    pathBw = Math.max(pathBw, Arrays.stream(h.gpuToGpu[i][j].links()).mapToDouble(l -> h.figure[l])
                            .min().orElse(0));
                }
            }
        }
        int[] local = h.localNics();
        // physical: each NIC at most its own PCIe link (HostModel#nicLineBw)
        double nicBw = Arrays.stream(local).mapToDouble(h::nicLineBw).sum();
        return new NodeResult(new GraphSet(ring, tree, nvls, direct, chain), cpu, h.hasNvSwitch,
                h.physicalScaleUp(), nicBw, pathBw, local.length, StagedNetPaths.nodeBw(h, nicBw), h.minLocalNetBw(),
                CpuPathRates.ring(h, ringSearch.orders()), CpuPathRates.pair(h), h.gpuPcieGen(), h.localNetCountByBw(),
                nvlsTime, RingSwitchHops.share(h, ringSearch.orders()),
                Arrays.stream(local).mapToDouble(n -> h.nicSpeed[n]).sum(),
                RingShmDirections.oneWay(h, ringSearch.orders(), s));
    }

    private static NodeResult agree(List<NodeResult> rs) {
        NodeResult a = rs.get(0);
        for (NodeResult r : rs.subList(1, rs.size())) {
            if (r == a) {
                continue;
            }
            GraphSet g = new GraphSet(min(a.graphs.ring(), r.graphs.ring()), min(a.graphs.tree(), r.graphs.tree()),
                    min(a.graphs.nvls(), r.graphs.nvls()), min(a.graphs.collnetDirect(), r.graphs.collnetDirect()),
                    min(a.graphs.collnetChain(), r.graphs.collnetChain()));
            a = new NodeResult(g, a.cpu, a.hasNvSwitch && r.hasNvSwitch, a.scaleUp.weaker(r.scaleUp),
                    Math.min(a.nodeNicBw, r.nodeNicBw), Math.min(a.gpuPathBw, r.gpuPathBw), Math.min(a.nics, r.nics),
                    Math.min(a.netBw, r.netBw), Math.min(a.minNetBw, r.minNetBw), Math.min(a.ringPathBw, r.ringPathBw),
                    Math.min(a.pairPathBw, r.pairPathBw), Math.min(a.gpuPcieGen, r.gpuPcieGen),
                    Math.min(a.localNets, r.localNets), min(a.nvlsTime, r.nvlsTime),
                    Math.min(a.switchHops, r.switchHops), Math.min(a.nicPortBw, r.nicPortBw),
                    a.shmOneWay && r.shmOneWay);
        }
        return a;
    }

    private static GraphSummary min(GraphSummary a, GraphSummary b) {
        if (!a.present() || !b.present()) {
            return GraphSummary.none(a.pattern());
        }
        PathType ti = a.typeIntra().max(b.typeIntra());
        PathType te = a.typeInter().max(b.typeInter());
        // NCCL 2.26+ reads the largest tree pattern over the ranks (comm->maxTreePattern): a plain tree anywhere wins
        GraphPattern pattern = a.pattern().ncclNumber() >= b.pattern().ncclNumber() ? a.pattern() : b.pattern();
        return new GraphSummary(pattern, Math.min(a.nChannels(), b.nChannels()), Math.min(a.bwIntra(), b.bwIntra()),
                Math.min(a.bwInter(), b.bwInter()), ti, te, Math.max(a.latencyInter(), b.latencyInter()),
                a.sameChannels() && b.sameChannels(), Math.min(a.dupFactor(), b.dupFactor()));
    }
}
