package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.hardware.GpuModels;
import dev.collsim.nccl.Collective;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.SimulatorFixtures;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.SynthesizedHost;
import dev.collsim.units.Bandwidth;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A one-host ring over PCIe P2P waits a P2P store's flight per hop: inside one PCIe switch the 0.681 us measured on 8
 * RTX PRO 6000 behind c-payne Gen5 switches (median of 633, 636, 726, 727 ns, github.com/voipmonitor/rtx6kpro
 * hardware/wrx90-cpayne-8gpu-root-topology-comparison.md section 2b), elsewhere NCCL's hwLat[PCI][Ring][LL] 1.0 us
 * (NCCL 2.28.9 src/graph/tuning.cc). The host: 8 RTX PRO 6000 Blackwell, 4 behind each of 2 PCIe Gen5 switches under
 * one CPU (PIX inside a switch, PHB across), as the page's groups; NCCL's ring visits the GPUs in PCI order, so of its
 * 8 hops 6 stay in a switch and 2 cross the root complex: mean flight (6 x 0.681 + 2 x 1.0) / 8 = 0.76075 us.
 * collsim adds launchOverheadUs 1.5.
 */
class PcieSwitchHopTest {

    private static final double MEAN_FLIGHT = (6 * 0.681 + 2 * 1.0) / 8;

    private static Prediction predict(int perSwitch, Collective c, long bytes, String... env) throws Exception {
        Topology t = Catalog.standalone(new SynthesizedHost(GpuModels.sku("RTX PRO 6000 Blackwell").orElseThrow(), 8,
                Bandwidth.ofGbits(400), perSwitch), 1);
        return SimulatorFixtures.predict(t, c, bytes,
                SimulatorFixtures.env(Map.of("NCCL_ALGO", "Ring", "NCCL_P2P_LEVEL", "SYS"), env));
    }

    /**
     * 8 bytes of Ring/LL AllReduce, no data to hide a hop behind: NCCL's base 6.6 + 14 steps x the mean flight,
     * 1.5 + 6.6 + 14 x 0.76075 = 18.7505 us; one switch per GPU (every hop through the root complex) keeps NCCL's
     * 1.5 + 6.6 + 14 x 1.0 = 22.1 us. NCCL's own estimate keeps 6.6 + 14 x 1.0 = 20.6 us. The page's NCCL Ring
     * AllReduce on that host (A-allreduce-1x8xRTXPRO6000-wrx90-cpayne-pcie-switches-torchdist-ring-nccl2.27.txt
     * section 7) took 17.3-18.7 us at 4-64 KiB in four of its six points.
     */
    @Test
    void llStepsWaitTheMeanFlight() throws Exception {
        double expected = 1.5 + 6.6 + 14 * MEAN_FLIGHT;
        assertEquals(18.7505, expected, 1e-4);
        Prediction switches = predict(4, Collective.ALL_REDUCE, 8, "NCCL_PROTO", "LL");
        assertEquals(expected, switches.timeUs(), 0.01, switches.toString());
        assertEquals(20.6, switches.ncclEstimateUs(), 0.05, switches.toString());
        assertEquals(22.1, predict(1, Collective.ALL_REDUCE, 8, "NCCL_PROTO", "LL").timeUs(), 0.01);
    }

    /**
     * A Simple step waits two flights (PcieSimpleStep): 8 bytes of AllReduce 1.5 + 8.4 + 14 x 2 x 0.76075 =
     * 31.201 us, with one switch per GPU 1.5 + 8.4 + 14 x 2.0 = 37.9 us; AllGather (7 steps) 1.5 + 8.4 + 7 x 2 x
     * 0.76075 = 20.5505 us.
     */
    @Test
    void simpleStepsWaitTwoMeanFlights() throws Exception {
        assertEquals(31.201, predict(4, Collective.ALL_REDUCE, 8, "NCCL_PROTO", "Simple").timeUs(), 0.01);
        assertEquals(37.9, predict(1, Collective.ALL_REDUCE, 8, "NCCL_PROTO", "Simple").timeUs(), 0.01);
        assertEquals(20.5505, predict(4, Collective.ALL_GATHER, 8, "NCCL_PROTO", "Simple").timeUs(), 0.01);
    }

    /**
     * Over SHM (P2P off) the stores land in host memory through the root complex: NCCL's figure whatever the
     * switches. Same host with NCCL_P2P_DISABLE=1, LL at 8 bytes: the ring's prediction equals that of one switch per
     * GPU.
     */
    @Test
    void shmKeepsNcclsStep() throws Exception {
        assertEquals(predict(1, Collective.ALL_REDUCE, 8, "NCCL_PROTO", "LL", "NCCL_P2P_DISABLE", "1").timeUs(),
                predict(4, Collective.ALL_REDUCE, 8, "NCCL_PROTO", "LL", "NCCL_P2P_DISABLE", "1").timeUs(), 1e-9);
    }
}
