package dev.collsim.simulator.perf;

import static dev.collsim.units.DecimalText.fixed;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.PathType;

/**
 * What limits one call of {@link PerformanceModel}, in words ({@link PerfEstimate#bottleneck}): the term of the
 * model's time that binds, in this order: the latency (or its pipeline fill, {@link PipelineFill}, when that is most
 * of it) when it is more than half the time; the proxy's sends ({@link NetTransport#bottleneck}) or SHM's
 * host-memory reads ({@link ShmHostReads#bottleneck}) when their time bound stands; the proxy's turns over a rank's
 * other connections ({@link NetTransport#proxyTurnsUs}) when they outlast the data; else the lowest bandwidth bound:
 * the network (TCP streams, GPU-NIC paths through the CPU, or the NICs), the per-channel throughput cap, or the
 * links. Only the text that stands is formatted, as {@code String.format(Locale.ROOT, ...)} would
 * ({@code DecimalText}). Stateless and thread-safe.
 */
final class BottleneckText {

    private BottleneckText() {
    }

    /**
     * The terms of one estimate the text compares.
     *
     * @param timeUs      predicted time, microseconds
     * @param latencyUs   latency term (fill included), microseconds
     * @param fillUs      pipeline fill, microseconds
     * @param proxyUs     the network proxy's time bound, microseconds
     * @param readsUs     SHM host-memory reads' time bound, microseconds
     * @param bwUs        bandwidth term, microseconds
     * @param turnsUs     the LL steps' waits for their proxy's other connections, microseconds
     *                    ({@link NetTransport#proxyTurnsUs}; the time holds the larger of it and bwUs)
     * @param netAlgBw    algorithm bandwidth the network allows, GB/s (1e9 B/s)
     * @param linkAlgBw   algorithm bandwidth the links allow, GB/s
     * @param capAlgBw    algorithm bandwidth the per-channel cap allows, GB/s
     * @param channels    runtime channels of the call
     * @param effChannels channels as a continuous quantity, >= 1
     * @param perChannel  per-channel throughput cap, bus bandwidth, GB/s
     * @param ratio       bus-to-algorithm bandwidth ratio
     * @param chain       the call runs as the one-host Tree chain ({@link IntraNodeChain})
     * @param runMinor    the run's NCCL 2 minor release (where the EFA read rendezvous applies,
     *                    {@link LibfabricReadRendezvous#applies})
     */
    record Terms(double timeUs, double latencyUs, double fillUs, double proxyUs, double readsUs, double bwUs,
            double turnsUs, double netAlgBw, double linkAlgBw, double capAlgBw, int channels, double effChannels, double perChannel,
            double ratio, boolean chain, int runMinor) {
    }

    /**
     * @param t      the estimate's terms
     * @param plan   the channel plan
     * @param s      NCCL settings
     * @param pp     performance parameters
     * @param func   collective
     * @param a      algorithm
     * @param p      protocol
     * @param nBytes bytes of the call
     * @return what limits the call, in words
     */
    static String of(Terms t, ChannelPlan plan, NcclSettings s, PerformanceParameters pp, Collective func,
            Algorithm a, Protocol p, long nBytes) {
        double time = t.timeUs(), latency = t.latencyUs(), fill = t.fillUs();
        if (latency > time / 2) {
            // the fixed part grows with size only through the pipeline fill: name it when it is most of it
            return fill > latency / 2
                    ? "pipeline fill: " + fixed(fill, 1) + " us (of " + fixed(latency, 1) + " us latency) of "
                            + fixed(time, 1) + " us"
                    : "latency: " + fixed(latency, 1) + " us of " + fixed(time, 1) + " us";
        } else if (Math.max(t.proxyUs(), t.readsUs()) > latency + Math.max(t.bwUs(), t.turnsUs())) {
            return t.readsUs() > t.proxyUs() ? ShmHostReads.bottleneck(plan, s, a, p, t.channels())
                    : NetTransport.bottleneck(plan, s, pp, func, a, p, nBytes, t.effChannels());
        } else if (t.turnsUs() > t.bwUs()) {
            return "proxy turns: " + fixed(t.turnsUs(), 1) + " us of LL steps waiting for "
                    + fixed(NetTransport.connectionsPerProxy(plan, t.effChannels()) - 1, 1)
                    + " other network connections per rank";
        } else if (t.netAlgBw() < Math.min(t.linkAlgBw(), t.capAlgBw())) {
            return network(plan, s, pp, func, a, p, nBytes, t);
        } else if (t.capAlgBw() < t.linkAlgBw()) {
            return "per-channel throughput: " + t.channels() + " channels x " + fixed(t.perChannel(), 1) + " GB/s";
        }
        return "links: " + (t.chain() ? "Tree chain on ring links" : a.ncclName() + " graph") + " "
                + fixed(t.linkAlgBw() / t.ratio(), 1) + " GB/s busBw"
                + hop(t.chain() ? plan.graphs().ring() : plan.graphs().graphFor(a));
    }

    /**
     * The CPU hop on the graph's paths, which is what holds a graph whose paths leave the PCIe switches (NCCL's
     * search caps such a channel at the SYS or PHB link's bandwidth, NCCL 2.30.7 {@code src/graph/search.cc}): so a
     * faster NIC behind a socket link is seen not to help.
     *
     * @return {@code " (its paths cross the CPU socket link, SYS)"}, {@code " (its paths go through a CPU's PCIe
     *         host bridge, PHB)"}, or empty for a graph on NVLink and PCIe switches
     */
    private static String hop(GraphSummary g) {
        if (!g.present()) {
            return "";
        }
        boolean sys = g.typeIntra() == PathType.SYS || g.typeInter() == PathType.SYS;
        boolean phb = g.typeIntra() == PathType.PHB || g.typeInter() == PathType.PHB;
        return sys ? " (its paths cross the CPU socket link, SYS)"
                : phb ? " (its paths go through a CPU's PCIe host bridge, PHB)" : "";
    }

    /**
     * @return the text when the network bound binds: the socket streams, the EFA read rendezvous of each later send
     *         ({@link LibfabricReadRendezvous}, where it holds the NICs below their line rate), the staged paths, or
     *         the NICs
     */
    private static String network(ChannelPlan plan, NcclSettings s, PerformanceParameters pp, Collective func,
            Algorithm a, Protocol p, long nBytes, Terms t) {
        double channels = t.effChannels();
        double socket = SocketStreams.busBwCap(plan, s, pp, func, a, p, nBytes, channels);
        boolean tcpx = plan.netClass() == NetworkClass.TCPX;
        int streams = tcpx ? SocketStreams.tcpxSetup(s).streams() : SocketStreams.setup(plan.nicVendor(), s).streams();
        double share = LibfabricReadRendezvous.applies(plan, a, p, t.runMinor()) ? LibfabricReadRendezvous.lineShare(
                plan, s, func, nBytes, channels, t.channels(), t.runMinor()) : 1;
        if (share < 1 && socket >= PerformanceModel.nicBusBw(plan, pp, func, a)) {
            return "EFA read rendezvous: each later Tree/Simple network send of a connection waits "
                    + fixed(LibfabricReadRendezvous.EFA_RENDEZVOUS_US, 0) + " us, so the NICs ("
                    + fixed(plan.nodeNetBw(), 0) + " GB/s per node) move at " + fixed(100 * share, 1)
                    + " % of their line rate";
        }
        return socket < PerformanceModel.nicBusBw(plan, pp, func, a)
                ? "TCP streams: " + fixed(socket, 1) + " GB/s busBw (" + (tcpx ? "GPUDirect-TCPX" : "socket transport")
                        + ", " + streams + " per connection)"
                : plan.nodeNetBw() < plan.nodeNicBw()
                        ? "GPU-NIC paths through the CPU: " + fixed(plan.nodeNetBw(), 0) + " GB/s per node (NICs "
                                + fixed(plan.nodeNicBw(), 0) + ")"
                        : "NICs: " + fixed(plan.nodeNicBw(), 0) + " GB/s per node";
    }
}
