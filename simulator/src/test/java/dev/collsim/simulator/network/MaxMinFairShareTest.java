package dev.collsim.simulator.network;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.topology.LinkType;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Topology;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.units.Bandwidth;
import dev.collsim.units.Latency;
import org.junit.jupiter.api.Test;

/**
 * Max-min fairness on small examples worked by hand with the progressive-filling definition (Bertsekas and
 * Gallager, <i>Data Networks</i>, 2nd ed., section 6.5.2).
 */
class MaxMinFairShareTest {

    /** Three links in a row a-b-c-d with capacities (GB/s) 10, 4, 6: link indices found by id. */
    private static NetworkModel line() {
        TopologyBuilder b = Topology.builder("line");
        NetSwitch a = b.add(new NetSwitch("a", NetSwitch.Tier.LEAF, 0));
        NetSwitch bb = b.add(new NetSwitch("b", NetSwitch.Tier.LEAF, 0));
        NetSwitch c = b.add(new NetSwitch("c", NetSwitch.Tier.LEAF, 0));
        NetSwitch d = b.add(new NetSwitch("d", NetSwitch.Tier.LEAF, 0));
        b.connectOneWay(a, bb, LinkType.NET, 1, Bandwidth.ofGBps(10), Latency.ZERO, "");
        b.connectOneWay(bb, c, LinkType.NET, 1, Bandwidth.ofGBps(4), Latency.ZERO, "");
        b.connectOneWay(c, d, LinkType.NET, 1, Bandwidth.ofGBps(6), Latency.ZERO, "");
        return NetworkModel.of(b.build());
    }

    private static int link(NetworkModel m, String id) {
        for (int l = 0; l < m.linkCount(); l++) {
            if (m.link(l).id().equals(id)) {
                return l;
            }
        }
        throw new AssertionError(id);
    }

    private static SimFlow flow(NetworkModel m, int weight, String... links) {
        int[] ls = new int[links.length];
        double[] sh = new double[links.length];
        for (int i = 0; i < links.length; i++) {
            ls[i] = link(m, links[i]);
            sh[i] = 1;
        }
        SimFlow f = new SimFlow(0, 0, 0, 0, 1, 0, new Route(ls, sh, 0, m), 1, 0);
        f.weight = weight;
        return f;
    }

    private static double[] solve(NetworkModel m, SimFlow... flows) {
        double[] cap = new double[m.linkCount()];
        for (int l = 0; l < cap.length; l++) {
            cap[l] = m.capacity(l);
        }
        double[] rate = new double[flows.length];
        new MaxMinFairShare(cap).solve(flows, flows.length, rate);
        return rate;
    }

    /**
     * Flows: A over all three links, B over a-b and b-c, C over b-c and c-d, D over c-d alone. By hand (GB/s):
     * b-c (4) is crossed by A, B, C and fills first at 4/3 each; then c-d (6) has 6 - 2 x 4/3 = 10/3 left for D
     * alone, so D = 10/3; a-b (10) carries A and B at 8/3, below capacity. Rates in bytes/us = 1000 x GB/s.
     */
    @Test
    void textbookParkingLotExample() {
        NetworkModel m = line();
        double[] r = solve(m, flow(m, 1, "a>b#0", "b>c#0", "c>d#0"), flow(m, 1, "a>b#0", "b>c#0"),
                flow(m, 1, "b>c#0", "c>d#0"), flow(m, 1, "c>d#0"));
        assertEquals(4000.0 / 3, r[0], 1e-9);
        assertEquals(4000.0 / 3, r[1], 1e-9);
        assertEquals(4000.0 / 3, r[2], 1e-9);
        assertEquals(10000.0 / 3, r[3], 1e-9);
    }

    /**
     * A weighted flow stands for identical flows: B with weight 3 on a-b (10 GB/s) next to A gives 10/4 each, the
     * same as four separate flows.
     */
    @Test
    void weightCountsIdenticalFlows() {
        NetworkModel m = line();
        double[] r = solve(m, flow(m, 1, "a>b#0"), flow(m, 3, "a>b#0"));
        assertEquals(2500, r[0], 1e-9);
        assertEquals(2500, r[1], 1e-9);
    }

    /** A flow split half and half over a 4 GB/s link is limited there to 4 / 0.5 = 8 GB/s. */
    @Test
    void splitFlowIsLimitedByCapacityOverShare() {
        NetworkModel m = line();
        SimFlow f = new SimFlow(0, 0, 0, 0, 1, 0, new Route(new int[] {link(m, "a>b#0"), link(m, "b>c#0")},
                new double[] {1, 0.5}, 0, m), 1, 0);
        assertEquals(8000, solve(m, f)[0], 1e-9);
    }
}
