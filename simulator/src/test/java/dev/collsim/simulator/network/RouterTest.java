package dev.collsim.simulator.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Routes on hand-built fabrics: which links a transfer crosses and with what share. */
class RouterTest {

    private static Set<String> links(NetworkModel m, Route r) {
        Set<String> out = new HashSet<>();
        for (int i = 0; i < r.size(); i++) {
            out.add(m.link(r.link(i)).id());
        }
        return out;
    }

    /**
     * PXN: h0/gpu1 to h1/gpu0 (rail 0). With PXN the data goes over NVLink to h0/gpu0 and leaves by h0/nic0; without,
     * it leaves by h0/gpu1's own h0/nic1 and crosses rails on the switch.
     */
    @Test
    void pxnMovesDataToTheReceiversRailOverNvlink() {
        Topology t = TestFabrics.singleSwitch(2, new TestFabrics.Spec(2, 450, 64, 50, 0));
        List<Gpu> g = TestFabrics.gpus(t, "h0/gpu1", "h1/gpu0");
        NetworkModel pxn = NetworkModel.of(t, List.of(), new RoutingOptions(Multipath.ECMP, true, 0));
        NetworkModel direct = NetworkModel.of(t, List.of(), new RoutingOptions(Multipath.ECMP, false, 0));
        Set<String> a = links(pxn, new Router(pxn).route(g.get(0), g.get(1), 0));
        Set<String> b = links(direct, new Router(direct).route(g.get(0), g.get(1), 0));
        assertEquals(Set.of("h0/gpu1>h0/nvs0#0", "h0/nvs0>h0/gpu0#0", "h0/gpu0>h0/pcie0#0", "h0/pcie0>h0/nic0#0",
                "h0/nic0>sw0#0", "sw0>h1/nic0#0", "h1/nic0>h1/pcie0#0", "h1/pcie0>h1/gpu0#0"), a);
        assertTrue(b.contains("h0/nic1>sw0#0") && !b.contains("h0/gpu1>h0/nvs0#0"), b.toString());
    }

    /**
     * ECMP on a 2-spine fat-tree: each channel's flow takes one spine (share 1 on its links), the same channel always
     * the same route, and over 32 channels both spines get used. Spraying puts half on each spine.
     */
    @Test
    void ecmpPicksOneSpinePerChannelAndSprayingSplits() {
        Topology t = TestFabrics.fatTree(4, 2, 2, 25, new TestFabrics.Spec(1, 450, 64, 50, 0));
        List<Gpu> g = TestFabrics.gpus(t, "h0/gpu0", "h2/gpu0");
        NetworkModel m = NetworkModel.of(t);
        Router r = new Router(m);
        Set<String> spines = new HashSet<>();
        for (int ch = 0; ch < 32; ch++) {
            Route route = r.route(g.get(0), g.get(1), ch);
            assertSame(route, r.route(g.get(0), g.get(1), ch));
            for (int i = 0; i < route.size(); i++) {
                assertEquals(1.0, route.share(i), 0);
                String id = m.link(route.link(i)).id();
                if (id.startsWith("leaf0>")) {
                    spines.add(id);
                }
            }
            assertEquals(25_000, route.aloneRate(), 1e-9);
        }
        assertEquals(Set.of("leaf0>spine0#0", "leaf0>spine1#0"), spines);
        NetworkModel sm = NetworkModel.of(t, List.of(), new RoutingOptions(Multipath.SPRAY, true, 0));
        Route s = new Router(sm).route(g.get(0), g.get(1), 0);
        for (int i = 0; i < s.size(); i++) {
            String id = sm.link(s.link(i)).id();
            assertEquals(id.contains("spine") ? 0.5 : 1.0, s.share(i), 1e-12, id);
        }
        assertEquals(50_000, s.aloneRate(), 1e-9);
    }

    /** A different ECMP seed changes some channels' spine. */
    @Test
    void ecmpSeedChangesTheHash() {
        Topology t = TestFabrics.fatTree(4, 2, 2, 25, new TestFabrics.Spec(1, 450, 64, 50, 0));
        List<Gpu> g = TestFabrics.gpus(t, "h0/gpu0", "h2/gpu0");
        Router a = new Router(NetworkModel.of(t, List.of(), new RoutingOptions(Multipath.ECMP, true, 1)));
        Router b = new Router(NetworkModel.of(t, List.of(), new RoutingOptions(Multipath.ECMP, true, 2)));
        int differ = 0;
        for (int ch = 0; ch < 32; ch++) {
            differ += a.route(g.get(0), g.get(1), ch).toString().equals(b.route(g.get(0), g.get(1), ch).toString())
                    ? 0 : 1;
        }
        assertNotEquals(0, differ);
    }
}
