package dev.collsim.simulator;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.RingChannel;
import dev.collsim.simulator.channel.SearchedHost;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.xml.NcclGraphDump.Channel;
import dev.collsim.topology.io.xml.NcclGraphDump.Graph;
import dev.collsim.topology.io.xml.NcclGraphDump.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The channel-by-channel part of {@link GraphDumpComparison}: the GPU order of each channel of NCCL's ring and tree
 * graphs, and on several nodes the NICs each ring channel enters and leaves the node by, beside those of collsim's
 * search on the first host of the cluster. NCCL 2.28.9 {@code src/graph/search.cc ncclTopoGetXmlFromChannel} writes a
 * channel as {@code <net dev=inter[0]/>}, then its GPUs in order ({@code <gpu dev/>}, the GPUs' {@code dev}, NVML
 * order), then {@code <net dev=inter[1]/>}, the NETs only where the system has a network ({@code system->inter});
 * NCCL's {@code ncclTopoGetNetDev} has the channel's first GPU receive through {@code inter[0]} and the others send
 * through {@code inter[1]} ({@link RingChannel}). The dump is the graph of rank 0's node
 * ({@code NCCL_GRAPH_DUMP_FILE_RANK}, default 0, 2.28.9 {@code src/init.cc}). NVLS channels list only their first GPU
 * and collsim's CollNet graphs have no channels, so only graphs 0 (ring) and 1 (tree) are compared here. Immutable.
 */
final class GraphDumpOrders {

    private final SearchedHost host;
    private final boolean multiNode;
    private final String notCompared;
    private final NcclSettings settings;
    private final NcclVersion version;

    private GraphDumpOrders(SearchedHost host, boolean multiNode, String notCompared, NcclSettings settings,
            NcclVersion version) {
        this.host = host;
        this.multiNode = multiNode;
        this.notCompared = notCompared;
        this.settings = settings;
        this.version = version;
    }

    /**
     * What one graph's channels give.
     *
     * @param lines   the lines to print under the graph's rows (none for a graph not compared channel by channel)
     * @param differs whether an order or a NIC differs
     */
    record Lines(List<String> lines, boolean differs) {

        /** Copies the list. */
        Lines {
            lines = List.copyOf(lines);
        }
    }

    /**
     * @param t        the cluster, every GPU a rank
     * @param plan     collsim's search on it
     * @param settings the run's NCCL settings
     * @param version  the NCCL release
     * @return the comparison on the cluster's first host
     */
    static GraphDumpOrders of(Topology t, ChannelPlan plan, NcclSettings settings, NcclVersion version) {
        int first = t.gpus().get(0).host();
        List<Gpu> gpus = t.gpus().stream().filter(g -> g.host() == first).toList();
        long hosts = t.gpus().stream().map(Gpu::host).distinct().count();
        String not = plan.nNodes() < hosts ? "NCCL's node is an NVLink domain of " + hosts / plan.nNodes()
                + " hosts here, collsim reads the search per host" : null;
        return new GraphDumpOrders(SearchedHost.of(t, gpus), plan.nNodes() > 1, not, settings, version);
    }

    /**
     * @param g a graph of the dump
     * @return its lines: the GPU order (same in every channel, or the first channel that differs), and where the
     *         dump has NETs the NICs of every channel, NCCL's and, for the ring, collsim's
     */
    Lines compare(Graph g) {
        if (g.id() > 1 || g.channels().isEmpty()) {
            return new Lines(List.of(), false);
        }
        boolean dumpNets = g.channels().stream().anyMatch(c -> c.devices().stream().anyMatch(Step::net));
        String why = notCompared != null ? notCompared
                : dumpNets && !multiNode ? "the dump's channels pass through NETs (a run over several nodes) but the"
                        + " cluster is one node: give the run's cluster, e.g. -c topo.xml:N"
                : !dumpNets && multiNode ? "the dump has no NET (a run on one node) but the cluster spans several"
                        : null;
        if (why != null) {
            return new Lines(List.of("GPU order not compared: " + why), false);
        }
        List<String> lines = new ArrayList<>();
        List<List<Integer>> ours = host.graphOrders(g.id() == 1, multiNode, settings, version);
        boolean differs = orderLine(g, ours, lines);
        if (dumpNets && g.id() == 0) {
            differs |= nicLines(g, lines);
        } else if (dumpNets) {
            lines.add("NICs in>out  NCCL    " + nics(g) + "  (not compared: collsim keeps the ring's NICs)");
        }
        return new Lines(lines, differs);
    }

    /** @return whether the order differs; adds its line */
    private static boolean orderLine(Graph g, List<List<Integer>> ours, List<String> lines) {
        if (ours.isEmpty()) {
            lines.add("GPU order differs: collsim's search kept no channel (NCCL's fallback graph)");
            return true;
        }
        for (int c = 0; c < g.channels().size(); c++) {
            List<Integer> nccl = g.channels().get(c).gpuOrder();
            List<Integer> mine = ours.get(c % ours.size());
            if (!nccl.equals(mine)) {
                lines.add("GPU order differs at channel " + c + ": NCCL " + words(nccl) + ", collsim " + words(mine));
                return true;
            }
        }
        lines.add("GPU order same in " + g.channels().size() + (g.channels().size() == 1 ? " channel" : " channels"));
        return false;
    }

    /** @return whether a NIC differs; adds NCCL's and collsim's NICs per channel */
    private boolean nicLines(Graph g, List<String> lines) {
        List<RingChannel> ring = host.ringChannels(settings, version);
        List<String> mine = new ArrayList<>();
        int first = -1;
        for (int c = 0; c < g.channels().size(); c++) {
            String m = ring.isEmpty() ? "-" : inOut(ring.get(c % ring.size()));
            mine.add(m);
            if (first < 0 && !m.equals(inOut(g.channels().get(c)))) {
                first = c;
            }
        }
        lines.add("NICs in>out  NCCL    " + nics(g));
        lines.add("             collsim " + String.join(" ", mine) + "  "
                + (first < 0 ? "same" : "differs at channel " + first));
        return first >= 0;
    }

    /** @return NCCL's NETs of every channel, {@code in>out} */
    private static String nics(Graph g) {
        return g.channels().stream().map(GraphDumpOrders::inOut).collect(Collectors.joining(" "));
    }

    /** @return the channel's first and last NET dev, {@code in>out} ({@code -} for a side without one) */
    private static String inOut(Channel c) {
        List<Step> d = c.devices();
        String in = !d.isEmpty() && d.get(0).net() ? Integer.toString(d.get(0).dev()) : "-";
        String out = !d.isEmpty() && d.get(d.size() - 1).net() ? Integer.toString(d.get(d.size() - 1).dev()) : "-";
        return in + ">" + out;
    }

    /** @return collsim's NICs of the channel as NCCL's NET devs, {@code in>out} */
    private String inOut(RingChannel r) {
        return host.nic(r.entryNic()).ncclDev() + ">" + host.nic(r.exitNic()).ncclDev();
    }

    private static String words(List<Integer> gpus) {
        return gpus.stream().map(String::valueOf).collect(Collectors.joining(" "));
    }
}
