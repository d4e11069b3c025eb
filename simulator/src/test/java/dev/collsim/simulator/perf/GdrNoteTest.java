package dev.collsim.simulator.perf;

import static dev.collsim.simulator.SimulatorFixtures.env;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import dev.collsim.topology.io.yaml.YamlClusterReader;
import org.junit.jupiter.api.Test;

/**
 * The header note for GPUDirect RDMA settings says what collsim models, and the claims hold for every algorithm. On 2
 * DGX H100 with NCCL_NET_GDR_LEVEL=LOC each GPU's path to its NIC goes GPU -> PCIe switch -> CPU -> switch -> NIC
 * (one GPU and one NIC per switch, one PCIe Gen5 x16 uplink: 32 GT/s x 16 lanes x 128/130 / 8 = 63.015 GB/s per
 * direction, hardware.PcieGen). A send crosses the uplink up (GPU to CPU) and down (CPU to NIC), a receive up (NIC to
 * CPU) and down (CPU to GPU): 2 traversals per direction, 31.51 GB/s per GPU, 8 x 31.51 = 252.06 GB/s per node, below
 * the 8 x 50 = 400 GB/s of its NICs. Bound column (nccl-tests busbw, 16 ranks on 2 nodes, PhysicalBound): any
 * algorithm 252.06 x (2/1) x (15/16) = 472.62 GB/s (750.00 with GDR: 400 x 2 x 15/16); Ring alone, whose node sends
 * 2 x 15/16 S while busbw is 2 x 15/16 algbw, 252.06 (400.00 with GDR).
 */
class GdrNoteTest {

    private static final NcclPredictor P = new NcclPredictor(NcclVersion.DEFAULT, PerformanceParameters.DEFAULTS);

    static Prediction allReduce(Topology t, NcclSettings s) {
        return P.predict(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, 1L << 30, DataType.FLOAT,
                RedOp.SUM, s));
    }

    @Test
    void noteOnlyWithASettingOnSeveralNodes() {
        Topology two = ClusterLoader.load("dgx-h100x2");
        NcclSettings loc = env("NCCL_NET_GDR_LEVEL", "LOC");
        String note = NetworkNotes.of(two, loc).orElseThrow();
        assertTrue(note.contains("every algorithm's network part and the bound column are limited to what those paths"
                + " carry: 252.1 GB/s per node each way, of the NICs' 400.0"), note);
        assertTrue(NetworkNotes.of(two, NcclSettings.DEFAULTS).isEmpty());
        assertTrue(NetworkNotes.of(ClusterLoader.load("dgx-h100"), loc).isEmpty());
    }

    @Test
    void everyAlgorithmAndTheBoundFollowTheStagedPaths() {
        Topology two = ClusterLoader.load("dgx-h100x2");
        assertEquals(750.0, allReduce(two, NcclSettings.DEFAULTS).physicalBoundBusBw(), 0.01);
        assertEquals(472.62, allReduce(two, env("NCCL_NET_GDR_LEVEL", "LOC")).physicalBoundBusBw(), 0.01);
        assertEquals(400.0, allReduce(two, env("NCCL_ALGO", "Ring")).physicalBoundBusBw(), 0.01);
        Prediction ringLoc = allReduce(two, env("NCCL_ALGO", "Ring", "NCCL_NET_GDR_LEVEL", "LOC"));
        assertEquals(252.06, ringLoc.physicalBoundBusBw(), 0.01);
        for (String algo : new String[] {"Ring", "Tree", "NVLSTree"}) {
            Prediction gdr = allReduce(two, env("NCCL_ALGO", algo));
            Prediction loc = allReduce(two, env("NCCL_ALGO", algo, "NCCL_NET_GDR_LEVEL", "LOC"));
            assertTrue(loc.busBw() <= loc.physicalBoundBusBw(), algo + ": " + loc.busBw());
            assertTrue(loc.busBw() <= gdr.busBw(), algo + ": " + loc.busBw() + " vs " + gdr.busBw());
        }
        // NVLSTree was above what the staged paths carry (444 GB/s busbw against 472.62 x bwEfficiencyNet): it drops
        Prediction nvlsTree = allReduce(two, env("NCCL_ALGO", "NVLSTree"));
        Prediction nvlsTreeLoc = allReduce(two, env("NCCL_ALGO", "NVLSTree", "NCCL_NET_GDR_LEVEL", "LOC"));
        assertTrue(nvlsTreeLoc.busBw() < nvlsTree.busBw(), nvlsTreeLoc.busBw() + " vs " + nvlsTree.busBw());
    }

    /**
     * Over sockets there is no GDR to set (NCCL 2.30.7 src/transport/net_socket.cc: ptrSupport = NCCL_PTR_HOST): the
     * note says the level changes nothing instead of naming it as the cause, and gives the staged figure (the same
     * 252.1 GB/s as under LOC on InfiniBand: the same paths through the CPU) with or without a GDR setting.
     */
    @Test
    void socketsHaveNoGdrToSet() {
        Topology sock = ClusterLoader.load("dgx-h100x2").withNetworkClass(NetworkClass.SOCKET);
        String sys = NetworkNotes.of(sock, env("NCCL_NET_GDR_LEVEL", "SYS")).orElseThrow();
        assertTrue(sys.contains("socket NICs have no GPUDirect RDMA (NCCL's socket transport offers host memory only),"
                + " so NCCL_NET_GDR_LEVEL, NCCL_NET_GDR_READ and NCCL_NET_GDR_C2C change nothing"), sys);
        assertFalse(sys.contains("the GPUDirect RDMA settings route"), sys);
        assertTrue(sys.contains("252.1 GB/s per node each way, of the NICs' 400.0"), sys);
        String plain = NetworkNotes.of(sock, NcclSettings.DEFAULTS).orElseThrow();
        assertTrue(plain.contains("socket NICs have no GPUDirect RDMA (NCCL's socket transport offers host memory"
                + " only), every GPU-NIC path goes through the CPU"), plain);
        assertFalse(plain.contains("change nothing"), plain);
        assertTrue(NetworkNotes.of(ClusterLoader.load("dgx-h100").withNetworkClass(NetworkClass.SOCKET),
                NcclSettings.DEFAULTS).isEmpty());
    }

    /**
     * Over sockets every GPU-NIC path crosses the CPU, so the note must not say that none does when the paths are
     * not the limit. Two hosts of 4 L40S and one 100 Gb/s NIC (12.5 GB/s each way) on a Gen4 switch with GPUs 0, 1:
     * the staged paths run through that switch's Gen4 x16 uplink twice per direction (16 GT/s x 16 x 128/130 / 8 / 2
     * = 15.75 GB/s) or, for GPUs 2, 3 on CPU 1, over the 64 GB/s SMP link and the same uplink; both above 12.5, so
     * the NIC stays the limit, and the note says so with the NIC's 12.5.
     */
    @Test
    void socketPathsAboveTheNicSayTheNicIsTheLimit() throws Exception {
        String yaml = """
                schema: collsim/v1
                name: l40s
                hosts:
                  name: l40s-4
                  gpus: {count: 4, model: L40S}
                  cpus: {count: 2, vendor: GenuineIntel, model: Xeon 8462Y+, interconnect: 64 GB/s}
                  pcie:
                    gen: 4
                    switches: [{name: sw0, cpu: 0, gpus: [0, 1], nics: [0]}]
                    rootPorts: [{cpu: 1, gpus: [2, 3]}]
                  nics: [{name: eth0, speed: 100 Gb/s}]
                count: 2
                fabric: {kind: single-switch, linkSpeed: 100 Gb/s, network: socket}
                """;
        Topology t = new YamlClusterReader().readCluster("l40s.yaml", yaml).topology();
        String note = NetworkNotes.of(t, NcclSettings.DEFAULTS).orElseThrow();
        assertTrue(note.contains("every GPU-NIC path goes through the CPU"), note);
        assertTrue(note.contains("the GPU-NIC paths of these ranks carry at least the NICs' 12.5 GB/s per node each"
                + " way, so the NICs stay the limit"), note);
        assertFalse(note.contains("crosses the CPU"), note);
    }
}
