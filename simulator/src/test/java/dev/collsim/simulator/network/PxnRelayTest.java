package dev.collsim.simulator.network;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.topology.Cpu;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.hardware.PcieGen;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.topology.Topology;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.topology.catalog.HostContext;
import dev.collsim.units.Bandwidth;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Router's PXN relay follows NCCL's path rule (NCCL 2.30.7 {@code src/graph/paths.cc}: PXN only when the NIC's
 * local GPU is joined to the sender by NVLink). Two PCIe-only hosts, each: one CPU, two PCIe switches under it, switch
 * k holding GPU k and NIC k (rail k); NICs on one network switch. h0/gpu1 to h1/gpu0 (rail 0): h0/gpu1 has no NVLink,
 * so NCCL's path to h0/nic0 is PHB straight through the CPU (gpu1, switch 1, CPU, switch 0, nic0) and no byte touches
 * h0/gpu0's links.
 */
class PxnRelayTest {

    @Test
    void pcieOnlyHostSendsDirectlyToTheOtherRailsNic() {
        TopologyBuilder b = Topology.builder("pcie-only");
        NetSwitch sw = b.add(new NetSwitch("sw0", NetSwitch.Tier.LEAF, 0));
        for (int h = 0; h < 2; h++) {
            HostContext ctx = new HostContext(b, h);
            Cpu cpu = ctx.cpu(0, "x86_64", "GenuineIntel", "Xeon Platinum 8462Y+");
            for (int k = 0; k < 2; k++) {
                PcieSwitch ps = ctx.pcieSwitch(k, k);
                ctx.pcie(cpu, ps, PcieGen.GEN4, 16);
                Gpu g = ctx.gpu(k, "L40S", 89, 0);
                ctx.pcie(ps, g, PcieGen.GEN4, 16);
                Nic nic = ctx.nic(k, "mlx5_" + k, Bandwidth.ofGbits(200), true, k);
                ctx.pcie(ps, nic, PcieGen.GEN4, 16);
                TestFabrics.net(b, nic, sw, 25, 0);
                TestFabrics.net(b, sw, nic, 25, 0);
            }
        }
        Topology t = b.build();
        List<Gpu> g = TestFabrics.gpus(t, "h0/gpu1", "h1/gpu0");
        NetworkModel m = NetworkModel.of(t, List.of(), new RoutingOptions(Multipath.ECMP, true, 0));
        Route r = new Router(m).route(g.get(0), g.get(1), 0);
        List<String> hops = new ArrayList<>();
        for (int i = 0; i < r.size(); i++) {
            hops.add(m.vertex(m.source(r.link(i))).id() + ">" + m.vertex(m.target(r.link(i))).id());
        }
        assertEquals(List.of("h0/gpu1>h0/pcisw1", "h0/pcisw1>h0/cpu0", "h0/cpu0>h0/pcisw0", "h0/pcisw0>h0/nic0",
                "h0/nic0>sw0", "sw0>h1/nic0", "h1/nic0>h1/pcisw0", "h1/pcisw0>h1/gpu0"), hops.stream().sorted(
                        (x, y) -> Integer.compare(order(x), order(y))).toList());
    }

    private static int order(String hop) {
        List<String> expected = List.of("h0/gpu1>", "h0/pcisw1>", "h0/cpu0>", "h0/pcisw0>", "h0/nic0>", "sw0>",
                "h1/nic0>", "h1/pcisw0>");
        for (int i = 0; i < expected.size(); i++) {
            if (hop.startsWith(expected.get(i))) {
                return i;
            }
        }
        return expected.size();
    }
}
