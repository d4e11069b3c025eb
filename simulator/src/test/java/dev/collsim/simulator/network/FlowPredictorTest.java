package dev.collsim.simulator.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.CollectivePredictor;
import dev.collsim.simulator.FlowPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.schedule.RingSchedule;
import dev.collsim.simulator.schedule.ScheduleAlgorithms;
import dev.collsim.simulator.schedule.ScheduleRequest;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * NCCL's choice timed on a fabric. Fabric: 2 hosts of 2 GPUs (NVLink 400 GB/s, PCIe 64 GB/s, one 50 GB/s NIC per
 * GPU on rail = local index), each host alone on its leaf, the two leaves joined through one spine by one cable of
 * {@code U} GB/s per direction; every link has zero latency, so times are bytes over bandwidth exactly.
 *
 * <p>By hand: Ring AllReduce, S = 1 GiB, n = 4 ranks, C = 2 channels, 2 ranks per host. Channel 0 rings 0-1-2-3,
 * channel 1 (rotated by one inside each host) 1-0-3-2, so in every one of the 2(n-1) = 6 steps two transfers of
 * {@code b = S / (n C) = S / 8} bytes leave each host: 1 to 2 (received on rail 0) and 0 to 3 (rail 1). With PXN each
 * goes out through the NIC on the receiver's rail, so the two flows use different NICs (50 GB/s each) and share the
 * one uplink cable. Max-min fair share per flow: min(50, U / 2). With U = 100 (1:1: two 50 GB/s NICs up) the share
 * is 50 GB/s; with U = 50 (2:1) it is 25 GB/s. Time {@code 6 b / share}: 1:1 16,106.127 us, 2:1 32,212.254 us;
 * busbw = S / T x 2(n-1)/n = 100 and 50 GB/s (the host's uplink share, as nccl-tests' bus bandwidth means).
 */
class FlowPredictorTest {

    private static final TestFabrics.Spec HOST = new TestFabrics.Spec(2, 400, 64, 50, 0);
    private static final long S = 1L << 30;
    private static final double ONE_TO_ONE_US = 6.0 * S / 8 / 50e3;
    private static final double TWO_TO_ONE_US = 6.0 * S / 8 / 25e3;

    /** Stands in for the NCCL model: Ring/Simple on 2 channels, a fixed time. */
    private static CollectivePredictor chooser(double timeUs) {
        return r -> new Prediction(r.collective(), r.sizeBytes(), r.nRanks(),
                r.collective() == Collective.ALL_REDUCE ? Algorithm.RING : null, Protocol.SIMPLE, 2, timeUs,
                r.sizeBytes() / timeUs / 1e3, 0, 123, 400, "stub");
    }

    private static Topology fabric(double uplinkGBps) {
        return TestFabrics.fatTree(2, 1, 1, uplinkGBps, HOST);
    }

    private static PredictionRequest allReduce(Topology t) {
        return new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, S, DataType.FLOAT, null, NcclSettings.DEFAULTS);
    }

    @Test
    void flowTimeIsBytesOverTheUplinkShare() {
        for (Multipath m : Multipath.values()) {
            FlowPredictor f = new FlowPredictor(chooser(1), FlowPredictor.Mode.FLOW, m, 0);
            Prediction one = f.predict(allReduce(fabric(100)));
            Prediction two = f.predict(allReduce(fabric(50)));
            assertEquals(ONE_TO_ONE_US, one.timeUs(), 1e-9 * ONE_TO_ONE_US, m.name());
            assertEquals(TWO_TO_ONE_US, two.timeUs(), 1e-9 * TWO_TO_ONE_US, m.name());
            assertEquals(100.0, one.busBw(), 1e-9);
            assertEquals(50.0, two.busBw(), 1e-9);
            assertEquals(Algorithm.RING, two.algorithm());
            assertEquals(2, two.nChannels());
            assertEquals(123, two.ncclEstimateUs(), "NCCL's estimate is the chooser's");
            assertTrue(FlowPredictor.fabricLimited(two), two.bottleneck());
        }
    }

    /** Where nothing is shared the flow backend equals the congestion-unaware links backend (BackendAgreementTest). */
    @Test
    void flowEqualsLinksBackendWhereNothingIsShared() {
        Topology t = fabric(100);
        Prediction p = new FlowPredictor(chooser(1), FlowPredictor.Mode.FLOW, Multipath.ECMP, 0)
                .predict(allReduce(t));
        Job job = new Job("j", new RingSchedule().schedule(new ScheduleRequest(Collective.ALL_REDUCE, S, 4, 2, 2)),
                t.gpus(), 0);
        double links = new LinksNetwork().time(List.of(job), NetworkModel.of(t)).jobs().get(0).timeUs();
        assertEquals(links, p.timeUs(), 1e-12 * links);
    }

    /**
     * Slower-of-both: a chooser time of 20,000 us lies between the 1:1 (16,106 us) and 2:1 (32,212 us) fabric
     * times, so 1:1 keeps the chooser's prediction exactly and 2:1 takes the fabric's.
     */
    @Test
    void slowerModeKeepsTheAnalyticalTimeUnlessTheFabricLimits() {
        FlowPredictor f = new FlowPredictor(chooser(20_000), FlowPredictor.Mode.SLOWER, Multipath.ECMP, 0);
        Prediction one = f.predict(allReduce(fabric(100)));
        assertEquals(20_000.0, one.timeUs(), 0.0);
        assertFalse(FlowPredictor.fabricLimited(one));
        assertTrue(one.bottleneck().startsWith("stub; the fabric does not limit (flow 16106.13 us)"), one.bottleneck());
        Prediction two = f.predict(allReduce(fabric(50)));
        assertEquals(TWO_TO_ONE_US, two.timeUs(), 1e-9 * TWO_TO_ONE_US);
        assertTrue(two.bottleneck().endsWith("(analytical alone 20000.00 us)"), two.bottleneck());
    }

    @Test
    void pointsWithoutScheduleKeepTheChoosersPrediction() {
        Topology t = fabric(50);
        FlowPredictor f = new FlowPredictor(chooser(77), FlowPredictor.Mode.FLOW, Multipath.ECMP, 0);
        Prediction b = f.predict(new PredictionRequest(t, t.gpus(), Collective.BROADCAST, S, DataType.FLOAT, null,
                NcclSettings.DEFAULTS));
        assertEquals(77.0, b.timeUs(), 0.0);
        assertTrue(b.bottleneck().startsWith("analytical (no flow schedule for Broadcast): stub"), b.bottleneck());
        Prediction one = f.predict(new PredictionRequest(t, t.gpus().subList(0, 1), Collective.ALL_REDUCE, S,
                DataType.FLOAT, null, NcclSettings.DEFAULTS));
        assertEquals(77.0, one.timeUs(), 0.0);
        assertFalse(FlowPredictor.covers(Collective.SEND_RECV, null, 4));
        assertTrue(FlowPredictor.covers(Collective.ALL_TO_ALL, null, 4));
        assertFalse(FlowPredictor.covers(Collective.ALL_REDUCE, Algorithm.RING, 1));
    }

    /** The stand-ins of NCCL's algorithms, as ScheduleAlgorithms.forNccl documents them. */
    @Test
    void ncclAlgorithmsMapToSchedules() {
        assertEquals("Ring", ScheduleAlgorithms.forNccl(Algorithm.RING, Collective.ALL_GATHER).orElseThrow().name());
        assertEquals("Tree", ScheduleAlgorithms.forNccl(Algorithm.TREE, Collective.ALL_REDUCE).orElseThrow().name());
        assertEquals("PAT-like", ScheduleAlgorithms.forNccl(Algorithm.PAT, Collective.REDUCE_SCATTER).orElseThrow()
                .name());
        assertEquals("Hierarchical", ScheduleAlgorithms.forNccl(Algorithm.NVLS_TREE, Collective.ALL_REDUCE)
                .orElseThrow().name());
        assertEquals("Ring", ScheduleAlgorithms.forNccl(Algorithm.NVLS, Collective.ALL_GATHER).orElseThrow().name(),
                "NVLS AllGather: no NVLS schedule, the Ring default");
        assertEquals("Direct", ScheduleAlgorithms.forNccl(null, Collective.ALL_TO_ALL).orElseThrow().name());
        assertTrue(ScheduleAlgorithms.forNccl(Algorithm.RING, Collective.BROADCAST).isEmpty());
    }

    /**
     * Two 2-rank groups at once, A = GPU 0 of each host, B = GPU 1 of each host, one channel each: every one of
     * the 2 ring steps sends {@code S / 2} from host 0 to host 1 per group (and back). Alone, group A's flow has
     * its NIC and the uplink to itself: 50 GB/s, T = 2 (S/2) / 50 GB/s = 21,474.84 us. Together on the 2:1 fabric
     * (one 50 GB/s uplink) the two groups' flows share it: 25 GB/s each, T doubles to 42,949.67 us. On the 1:1
     * fabric (100 GB/s uplink) each still gets its NIC's 50 GB/s.
     */
    @Test
    void concurrentGroupsShareTheUplink() {
        CollectivePredictor one = r -> new Prediction(r.collective(), r.sizeBytes(), r.nRanks(), Algorithm.RING,
                Protocol.SIMPLE, 1, 1, 0, 0, -1, 400, "stub");
        FlowPredictor f = new FlowPredictor(one, FlowPredictor.Mode.FLOW, Multipath.ECMP, 0);
        double alone = 2.0 * (S / 2) / 50e3;
        for (double uplink : new double[] {50, 100}) {
            Topology t = fabric(uplink);
            List<Gpu> a = TestFabrics.gpus(t, "h0/gpu0", "h1/gpu0");
            List<Gpu> b = TestFabrics.gpus(t, "h0/gpu1", "h1/gpu1");
            PredictionRequest r = new PredictionRequest(t, a, Collective.ALL_REDUCE, S, DataType.FLOAT, null, NcclSettings.DEFAULTS);
            assertEquals(alone, f.predict(r).timeUs(), 1e-9 * alone);
            double together = f.predictConcurrent(r, List.of(a, b)).timeUs();
            assertEquals(uplink == 50 ? 2 * alone : alone, together, 1e-9 * alone, "uplink " + uplink);
        }
    }
}
