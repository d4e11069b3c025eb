package dev.collsim.simulator.network;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Routes between GPUs of one GB200 NVL72 rack (configs/gb200-nvl72.yaml: 18 trays of 4 GPUs, every GPU with 18
 * NVLink5 links to the rack's NVLink switch {@code nvl0/nvs0}, a switch of host -1 shared by the trays). NCCL joins
 * these GPUs over NVLink: within a tray its path search keeps, of the two-hop paths GPU-NVSwitch-GPU (900 GB/s) and
 * GPU-C2C-Grace-C2C-GPU (the C2C share, 225 GB/s), the one of more bandwidth (NCCL 2.27.3
 * {@code src/graph/paths.cc ncclTopoSetPaths}); across the trays of one rack NCCL fuses the MNNVL clique's
 * topologies into one node ({@code src/graph/topo.cc}, {@code ncclTopoFuseXml}) and connects the GPUs by P2P over
 * NVLink, never through the trays' NICs. So every byte of these routes crosses exactly two links, the sender's
 * NVLinks into the switch and the switch's NVLinks to the receiver, with share 1 each.
 */
class NvlinkDomainRouteTest {

    private static Map<String, Double> shares(NetworkModel m, Route r) {
        Map<String, Double> out = new HashMap<>();
        for (int i = 0; i < r.size(); i++) {
            out.merge(m.link(r.link(i)).id(), r.share(i), Double::sum);
        }
        return out;
    }

    /** The link shares of the route from one GPU to another on 2 trays of a GB200 NVL72 rack. */
    private static Map<String, Double> routeOnTwoTrays(String from, String to, int flow) throws Exception {
        Topology t = ClusterLoader.load("gb200-nvl72").withHostsOnly(new int[] {0, 1});
        NetworkModel m = NetworkModel.of(t);
        List<Gpu> g = TestFabrics.gpus(t, from, to);
        return shares(m, new Router(m).route(g.get(0), g.get(1), flow));
    }

    @Test
    void gpusOfOneGraceMeetOverTheRackSwitchNotTheirCpu() throws Exception {
        assertEquals(Map.of("h0/gpu0>nvl0/nvs0#0", 1.0, "nvl0/nvs0>h0/gpu1#0", 1.0),
                routeOnTwoTrays("h0/gpu0", "h0/gpu1", 0));
    }

    @Test
    void traysOfOneRackMeetOverNvlinkNotTheirNics() throws Exception {
        assertEquals(Map.of("h0/gpu2>nvl0/nvs0#0", 1.0, "nvl0/nvs0>h1/gpu3#0", 1.0),
                routeOnTwoTrays("h0/gpu2", "h1/gpu3", 5));
    }
}
