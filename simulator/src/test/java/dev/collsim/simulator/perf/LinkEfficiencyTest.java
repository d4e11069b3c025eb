package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The per-link-class efficiencies ({@link PerformanceParameters#bwEfficiency(dev.collsim.simulator.tuning.HardwareClass)}):
 * each moves only the calls of its class, so a profile fitted between nodes leaves one-host calls alone.
 */
class LinkEfficiencyTest {

    private static final long[] SIZES = {1L << 10, 1L << 20, 64L << 20, 8L << 30};

    private static PerformanceParameters eff(double net, double nvlink, double pcie) {
        PerformanceParameters d = PerformanceParameters.DEFAULTS;
        return new PerformanceParameters(d.launchOverheadUs(), d.latencyScale(), d.bwEfficiencyLL(),
                d.bwEfficiencyLL128(), d.bwEfficiencySimple(), d.perChannelCapLL(), d.perChannelCapLL128(),
                d.perChannelCapSimple(), d.pipelineFillChunks(), d.p2pBaseLatencyUs(), d.localCopyGBps(),
                d.netStepUs(), d.perChannelCapNvls(), d.nvlsBwScale(), d.netClasses(), d.nvlsLoopUs(), net, nvlink,
                pcie);
    }

    private static Prediction predict(String cluster, Collective c, long bytes, PerformanceParameters pp)
            throws Exception {
        return predict(cluster, c, bytes, pp, NcclSettings.DEFAULTS);
    }

    private static Prediction predict(String cluster, Collective c, long bytes, PerformanceParameters pp,
            NcclSettings s) throws Exception {
        Topology t = ClusterLoader.load(cluster);
        return new NcclPredictor(NcclVersion.DEFAULT, pp).predict(new PredictionRequest(t, t.gpus(), c, bytes,
                DataType.FLOAT, RedOp.SUM, s));
    }

    /** The defaults are 1: the bare model is the model without these factors. */
    @Test
    void defaultsAreOne() {
        PerformanceParameters d = PerformanceParameters.DEFAULTS;
        assertEquals(1.0, d.bwEfficiencyNet());
        assertEquals(1.0, d.bwEfficiencyNvlink());
        assertEquals(1.0, d.bwEfficiencyPcie());
    }

    /**
     * One DGX H100 (NVSwitch) and one 8x L40S PCIe host under a network efficiency of 0.5: every AllReduce and AllToAll
     * time is the default's to the last bit (no call of one host crosses the network). The NVLink efficiency leaves
     * the PCIe host alone and the PCIe efficiency the NVSwitch host.
     */
    @Test
    void oneHostCallsIgnoreTheNetworkEfficiency() throws Exception {
        for (long n : SIZES) {
            for (Collective c : new Collective[] {Collective.ALL_REDUCE, Collective.ALL_TO_ALL}) {
                double h100 = predict("dgx-h100", c, n, PerformanceParameters.DEFAULTS).timeUs();
                assertEquals(h100, predict("dgx-h100", c, n, eff(0.5, 1, 1)).timeUs(), 0.0, c + " " + n);
                assertEquals(h100, predict("dgx-h100", c, n, eff(1, 1, 0.5)).timeUs(), 0.0, c + " " + n);
                double l40s = predict("pcie-8x-l40s", c, n, PerformanceParameters.DEFAULTS).timeUs();
                assertEquals(l40s, predict("pcie-8x-l40s", c, n, eff(0.5, 1, 1)).timeUs(), 0.0, c + " " + n);
                assertEquals(l40s, predict("pcie-8x-l40s", c, n, eff(1, 0.5, 1)).timeUs(), 0.0, c + " " + n);
            }
        }
    }

    /**
     * At 8 GiB the bandwidth term is the call: algBw = min(link x eff, per-channel cap, NIC bound x eff). Where the
     * default's bottleneck is a link class's bandwidth (not the per-channel cap, which no efficiency scales), an
     * efficiency of 0.5 halves that term, so the algorithm bandwidth halves (to within the latency, < 1 % at 8 GiB).
     * One DGX A100 under the NVLink efficiency (one DGX H100 is held by its NVLS per-channel cap), one L40S host under the PCIe efficiency, two DGX B200 under the
     * network efficiency (two DGX H100's Ring is held by its channels' one-node rate, {@link RingChannelRate}).
     */
    @Test
    void eachClassEfficiencyScalesItsOwnCalls() throws Exception {
        long n = 8L << 30;
        check("dgx-a100", n, eff(1, 0.5, 1));
        check("pcie-8x-l40s", n, eff(1, 1, 0.5));
        check("dgx-b200x2", n, eff(0.5, 1, 1));
    }

    private static void check(String cluster, long n, PerformanceParameters half) throws Exception {
        NcclSettings s = cluster.endsWith("x2") ? NcclSettings.parse(Map.of("NCCL_ALGO", "Ring")) : NcclSettings.DEFAULTS;
        Prediction d = predict(cluster, Collective.ALL_REDUCE, n, PerformanceParameters.DEFAULTS, s);
        Prediction h = predict(cluster, Collective.ALL_REDUCE, n, half, s);
        assertTrue(!d.bottleneck().startsWith("per-channel"), d.toString());
        double ratio = d.algBw() / h.algBw();
        assertTrue(ratio > 1.98 && ratio < 2.02, cluster + ": " + ratio + " " + d + " / " + h);
    }

    /**
     * Two DGX H100 AllToAll at 8 GiB (P2pModel): a rank sends 8/16 of S across nodes over its 50 GB/s NIC share and
     * 7/16 within the node over NVLink (hundreds of GB/s), so the network term binds: halving the network efficiency
     * about doubles the time, while halving the NVLink efficiency leaves the intra-node term below it (same time).
     */
    @Test
    void pointToPointSplitsItsBytesByClass() throws Exception {
        long n = 8L << 30;
        double d = predict("dgx-h100x2", Collective.ALL_TO_ALL, n, PerformanceParameters.DEFAULTS).timeUs();
        double net = predict("dgx-h100x2", Collective.ALL_TO_ALL, n, eff(0.5, 1, 1)).timeUs();
        double nvl = predict("dgx-h100x2", Collective.ALL_TO_ALL, n, eff(1, 0.5, 1)).timeUs();
        assertTrue(net / d > 1.9 && net / d < 2.01, net / d + "");
        assertEquals(d, nvl, 0.0);
    }
}
