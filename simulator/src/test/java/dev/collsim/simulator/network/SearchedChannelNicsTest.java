package dev.collsim.simulator.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.ChannelNics;
import dev.collsim.simulator.FlowPredictor;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.schedule.HostCrossings;
import dev.collsim.simulator.schedule.RingSchedule;
import dev.collsim.simulator.schedule.ScheduleRequest;
import dev.collsim.simulator.schedule.Transfer;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The flow backend's ring channels cross hosts by the NICs of the search's graph ({@link ChannelNics#searched}, the
 * one the analytical model reads), on the catalog DGX H100 x 2 hosts. By hand from NCCL 2.30.7 {@code
 * src/graph/search.cc} (worked out in {@code channel.CrossNicSearchTest}: the search keeps crossNic 2 at PXB) and the
 * DGX H100 User Guide (GPU g and NIC g, rail g, behind one PCIe switch): {@code ncclTopoSelectNets} at PXB lists the
 * NICs by index; channel 0 enters by {@code nets[0]} = NIC 0 at its local GPU 0, walks the NVSwitch host forwards
 * 0, 1, ..., 7 and leaves by the first NIC in GPU 7's order, NIC 7 (PXB; every other NIC is PXN from GPU 7); channel
 * 1 must enter by NIC 7 ({@code ncclTopoSearchRecNet}: the NIC channel 0 left by) at GPU 7 and leave by NIC 0
 * ({@code ncclTopoSearchCheckNet}), which GPU 0 reaches at PXB, so it walks backwards 7, 6, ..., 0. NCCL's
 * {@code ncclTopoGetNetDev} sends from the channel's last GPU by {@code inter[2c + 1]} and receives at its first by
 * {@code inter[2c]}: both NICs local, so no byte crosses NVLink to reach a NIC (no PXN relay).
 */
class SearchedChannelNicsTest {

    private static final Topology DGX = ClusterLoader.load("dgx-h100x2");

    private static List<Nic> nicsOf(int host) {
        return DGX.nicsOf(host);
    }

    @Test
    void dgxH100ChannelsPairOverTwoNicsAsNcclsGraph() {
        ChannelNics.Layout l = ChannelNics.searched(DGX, DGX.gpus(), NcclSettings.DEFAULTS, NcclVersion.V2_30_7)
                .orElseThrow();
        assertEquals(List.of(0, 7), l.entries().subList(0, 2));
        assertEquals(List.of(false, true), l.reversed().subList(0, 2));
        List<Nic> nics = nicsOf(0);
        assertEquals(0, nics.get(l.nets().entry().get(0)).rail());
        assertEquals(7, nics.get(l.nets().exit().get(0)).rail());
        assertEquals(7, nics.get(l.nets().entry().get(1)).rail());
        assertEquals(0, nics.get(l.nets().exit().get(1)).rail());
        assertTrue(l.nets().alternate());
    }

    /**
     * NCCL alternates a crossNic-2 graph's rings on odd nodes (NCCL 2.30 {@code src/graph/connect.cc}: "Alternate rings
     * to avoid crossing rails", channels c and c XOR 1 exchanged): on host 1 channel 0 runs graph channel 1, entering
     * at GPU 7 by NIC 7. So channel 0's hop from host 0 leaves GPU 7 (rank 7) by NIC 7 and enters host 1's GPU 7
     * (rank 15) by NIC 7, on rail 7 through leaf 7 alone; channel 1's leaves GPU 0 by NIC 0 for host 1's GPU 0 (rank
     * 8). Neither touches an NVSwitch (no PXN relay) nor a spine.
     */
    @Test
    void flowRoutesEachChannelOnOneRailThroughItsGraphNics() {
        ChannelNics.Layout l = ChannelNics.searched(DGX, DGX.gpus(), NcclSettings.DEFAULTS, NcclVersion.V2_30_7)
                .orElseThrow();
        ChannelNets nets = l.nets();
        List<Transfer> t = new RingSchedule().schedule(new ScheduleRequest(Collective.ALL_GATHER, 1L << 20, 16, 16, 8,
                0, List.of(), l.entries(), l.reversed(), List.of(), nets.alternate())).steps().get(0).transfers();
        int[][] expected = {{7, 15}, {0, 8}};
        NetworkModel m = NetworkModel.of(DGX);
        Router router = new Router(m);
        HostCrossings.assertCrossings(t, expected);
        for (int c = 0; c < 2; c++) {
            int rail = c == 0 ? 7 : 0;
            List<Device> hops = TestFabrics.routeDevices(m, router.route(m.indexOf(gpu(expected[c][0] / 8, expected[c][0] % 8)),
                    m.indexOf(gpu(expected[c][1] / 8, expected[c][1] % 8)), c, nets.exit(c, expected[c][0]),
                    nets.entry(c, expected[c][1])));
            assertTrue(hops.contains(nicsOf(0).stream().filter(n -> n.rail() == rail).findFirst().orElseThrow()),
                    hops::toString);
            assertTrue(hops.contains(nicsOf(1).stream().filter(n -> n.rail() == rail).findFirst().orElseThrow()),
                    hops::toString);
            assertFalse(hops.stream().anyMatch(d -> d instanceof NvSwitch
                    || d instanceof NetSwitch sw && sw.tier() == NetSwitch.Tier.SPINE), hops::toString);
        }
    }

    /**
     * Ring AllReduce of 8 GiB on the two hosts, NCCL_ALGO=Ring (16 runtime channels of the 8-channel graph). The
     * analytical model runs the smaller of the graph at NCCL's search speed, 8 x 48 GB/s = 384, times Simple's
     * efficiency 0.98 ({@code PerformanceParameters.DEFAULTS}), 376.3, and the 16 channels at a Hopper Ring's
     * measured one-channel rate between nodes, 16 x 20.7 = 331.2 ({@code perf.RingChannelRate}); the flow backend
     * moves the same channels over the same NICs at their line rate, 8 x 50 GB/s = 400 (ConnectX-7 400 Gb/s), with no
     * protocol cost and no per-channel rate. So flow's busbw over analytical's is 400 / 331.2 = 1.208, within 1 %
     * either way (the analytical launch and latency terms, under 1 % of 52 ms at 8 GiB), and flow stays at or under
     * the NICs' 400.
     */
    @Test
    void flowAndAnalyticalRingAgreeUpToLineRateAndSimpleEfficiency() {
        PredictionRequest r = new PredictionRequest(DGX, DGX.gpus(), Collective.ALL_REDUCE, 8L << 30, DataType.FLOAT,
                null, NcclSettings.parse(Map.of("NCCL_ALGO", "Ring")));
        NcclPredictor analytical = new NcclPredictor(NcclVersion.V2_30_7, PerformanceParameters.DEFAULTS);
        Prediction a = analytical.predict(r);
        Prediction f = new FlowPredictor(analytical, FlowPredictor.Mode.FLOW, Multipath.ECMP, 0).predict(r);
        double ratio = f.busBw() / a.busBw();
        double expected = 400 / Math.min(384 * 0.98, 16 * 20.7);
        assertTrue(ratio >= expected * 0.99 && ratio <= expected * 1.01, "flow " + f.busBw() + " GB/s, analytical "
                + a.busBw() + ": ratio " + ratio + ", expected " + expected + " +- 1 %");
        assertTrue(f.busBw() <= 400 * (1 + 1e-9), f.busBw() + " GB/s above the NICs' line rate");
    }

    /**
     * A GB200 NVL72 tray is no NCCL node: NCCL makes the rack's NVLink domain one node (NCCL 2.27.3 {@code
     * src/graph/topo.cc} fuses the clique), so a tray's multi-node graph is not NCCL's and the flow layout keeps its
     * own rule there.
     */
    @Test
    void aTrayOfAnNvlinkDomainHasNoSearchedRing() {
        Topology racks = ClusterLoader.load("gb200-nvl72x2");
        assertTrue(ChannelNics.searched(racks, racks.gpus(), NcclSettings.DEFAULTS, NcclVersion.V2_30_7).isEmpty());
    }

    private static Gpu gpu(int host, int index) {
        return DGX.gpusOf(host).stream().filter(g -> g.index() == index).findFirst().orElseThrow();
    }
}
