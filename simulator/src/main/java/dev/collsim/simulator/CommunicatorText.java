package dev.collsim.simulator;

import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ScaleUp;
import dev.collsim.simulator.tuning.GraphSummary;
import java.util.Locale;

/**
 * A communicator's channel plan in words, for {@code predict}'s header ({@link PreparedCommunicator#describeChannels},
 * {@link PreparedCommunicator#describeHardware}).
 */
final class CommunicatorText {

    private CommunicatorText() {
    }

    /**
     * @return the graphs and channel counts: {@code ring C x intra/inter GB/s (typeIntra/typeInter), tree ..., NVLS
     *         ...; runtime R, NVLS V, p2p P}
     */
    static String channels(ChannelPlan plan) {
        return String.format(Locale.ROOT, "ring %s, tree %s, NVLS %s; runtime %d, NVLS %d, p2p %d",
                graph(plan.graphs().ring()), graph(plan.graphs().tree()), graph(plan.graphs().nvls()),
                plan.runtimeChannels(), plan.nvlsChannels(), plan.p2pChannels());
    }

    /**
     * @return the hardware figures the model uses: the GPU's way out ({@link ScaleUp#describe}), NICs per node and the
     *         network class between nodes, sm, CPU kind
     */
    static String hardware(ChannelPlan plan) {
        String nics = plan.nNodes() > 1 ? String.format(Locale.ROOT, "%.1f GB/s NICs per node over %s",
                plan.nodeNicBw(), plan.netClass().label()) : "one node";
        return String.format(Locale.ROOT, "%s, %s; sm%d, %s", plan.scaleUp().describe(), nics, plan.minSm(),
                plan.cpu());
    }

    private static String graph(GraphSummary g) {
        return !g.present() ? "none" : String.format(Locale.ROOT, "%d x %.1f/%.1f GB/s (%s/%s)", g.nChannels(),
                g.bwIntra(), g.bwInter(), g.typeIntra(), g.typeInter());
    }
}
