package dev.collsim.simulator;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.topology.GraphPattern;
import dev.collsim.simulator.tuning.GraphSet;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.xml.NcclGraphDump;
import dev.collsim.topology.io.xml.NcclGraphDump.Graph;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * {@code topo show --graph-dump FILE}: the graphs NCCL's search chose on a machine, as {@code NCCL_GRAPH_DUMP_FILE}
 * wrote them (NCCL 2.28.9 {@code src/init.cc} dumps ring, tree, collnet direct, collnet chain and NVLS after
 * {@code ncclTopoCompute}, so after {@code ncclTopoDupChannels}), set beside the graphs collsim's own search
 * ({@link ChannelSearch}) finds on the cluster, every GPU a rank, under the run's NCCL settings. NCCL searches the
 * NVLS graph only where NVLS is supported ({@code comm->nvlsSupport}) and the CollNet graphs only with CollNet
 * enabled; otherwise it dumps them with 0 channels, and so does this comparison. Per graph: channels,
 * per-channel bandwidth inside and between nodes (GB/s = 1e9 B/s, NCCL's {@code speedintra} and {@code speedinter})
 * and path types, with {@code same} or {@code differs}; under the ring and the tree, the GPU order of every channel
 * and on several nodes the NICs of every ring channel ({@link GraphDumpOrders}). This class is stateless.
 */
public final class GraphDumpComparison {

    /** NCCL's graph ids (NCCL 2.28.9 {@code src/init.cc}): 0 ring, 1 tree, 2 collnet chain, 3 NVLS, 4 collnet direct. */
    private static final List<String> NAMES = List.of("ring", "tree", "collnet chain", "nvls", "collnet direct");

    private GraphDumpComparison() {
    }

    /**
     * Prints the comparison.
     *
     * @param file    the graph dump's path (for the heading)
     * @param dump    its graphs, as {@code NcclGraphXmlReader} read them
     * @param t       the cluster, normally the topology XML of the same run ({@code NCCL_TOPO_DUMP_FILE})
     * @param version the NCCL release whose search speeds collsim uses
     * @param s       the run's NCCL settings
     * @param out     where to print
     * @return the number of graphs that differ (in a figure, a channel's GPU order or a ring channel's NIC)
     */
    public static int print(Path file, NcclGraphDump dump, Topology t, NcclVersion version, NcclSettings s,
            PrintWriter out) {
        ChannelPlan plan = ChannelSearch.search(t, t.gpus(), s, version);
        GraphSet ours = plan.nvlsSupport() ? plan.graphs()
                : plan.graphs().withNvls(GraphSummary.none(GraphPattern.NVLS));
        out.println();
        out.printf(Locale.ROOT, "NCCL graph dump %s vs collsim's search (%d GPUs, NCCL %s%s)%n",
                file.getFileName(), t.gpus().size(), version.text(),
                s.label().isEmpty() ? "" : ", " + s.label());
        out.printf(Locale.ROOT, "  %-16s %-7s %8s %12s %12s  %s%n", "graph", "", "channels", "intra GB/s",
                "inter GB/s", "types intra/inter");
        int differ = 0;
        GraphDumpOrders orders = GraphDumpOrders.of(t, plan, s, version);
        for (Graph g : dump.graphs()) {
            String nccl = row(g.nChannels(), g.bwIntra(), g.bwInter(), g.typeIntra() + "/" + g.typeInter());
            GraphSummary c = ours(ours, g.id());
            String mine = row(c.nChannels(), c.bwIntra(), c.bwInter(), c.typeIntra() + "/" + c.typeInter());
            // an absent graph (0 channels) has no speeds or types to compare: NCCL writes LOC, collsim SYS
            boolean same = nccl.equals(mine);
            GraphDumpOrders.Lines channels = orders.compare(g);
            differ += same && !channels.differs() ? 0 : 1;
            String name = g.id() + " " + NAMES.get(g.id());
            out.printf(Locale.ROOT, "  %-16s %-7s %s%n", name, "NCCL", nccl);
            out.printf(Locale.ROOT, "  %-16s %-7s %s  %s%n", "", "collsim", mine, same ? "same" : "differs");
            channels.lines().forEach(l -> out.printf(Locale.ROOT, "  %-16s %s%n", "", l));
        }
        return differ;
    }

    private static String row(int channels, double intra, double inter, String types) {
        if (channels == 0) {
            return String.format(Locale.ROOT, "%8d  (no graph)", 0);
        }
        return String.format(Locale.ROOT, "%8d %12.1f %12.1f  %s", channels, intra, inter, types);
    }

    private static GraphSummary ours(GraphSet set, int id) {
        return switch (id) {
            case 0 -> set.ring();
            case 1 -> set.tree();
            case 2 -> set.collnetChain();
            case 3 -> set.nvls();
            default -> set.collnetDirect();
        };
    }
}
