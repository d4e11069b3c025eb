package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Network classes in the performance model, with values worked by hand. */
class NetClassTest {

    private static Prediction allReduce(Topology t, long bytes, PerformanceParameters pp, Map<String, String> env) {
        return new NcclPredictor(NcclVersion.DEFAULT, pp).predict(new PredictionRequest(t, t.gpus(),
                Collective.ALL_REDUCE, bytes, DataType.FLOAT, RedOp.SUM, NcclSettings.parse(env)));
    }

    private static PerformanceParameters with(String cls, double step, double hop, double bw) throws Exception {
        ObjectMapper m = new ObjectMapper();
        ObjectNode tree = m.valueToTree(PerformanceParameters.DEFAULTS);
        ObjectNode p = m.createObjectNode().put("stepUs", step).put("hopLatencyUs", hop).put("bwFraction", bw);
        tree.set("netClasses", m.createObjectNode().set(cls, p));
        return m.treeToValue(tree, PerformanceParameters.class);
    }

    /**
     * 2 DGX H100, Tree/LL AllReduce of 8 B: NCCL's Tree latency charges 2 log2(2) = 2 network hops (fact sheet §2.4:
     * 2 x ((ppn - 1) x intraLat + log2(nNodes) x interLat)); a class adding 45 us per hop adds 2 x 45 = 90 us, and
     * nothing on one host.
     */
    @Test
    void theHopLatencyIsPaidOncePerNetworkHopOfNcclsFormula() throws Exception {
        Topology ib = ClusterLoader.load("dgx-h100x2");
        Map<String, String> tree = Map.of("NCCL_ALGO", "Tree", "NCCL_PROTO", "LL");
        PerformanceParameters pp = with("TCPXO", 10, 45, 1);
        double base = allReduce(ib, 8, pp, tree).timeUs();
        double tcpxo = allReduce(ib.withNetworkClass(NetworkClass.TCPXO), 8, pp, tree).timeUs();
        assertEquals(90.0, tcpxo - base, 1e-9);
        Topology one = ClusterLoader.load("dgx-h100");
        assertEquals(allReduce(one, 8, pp, tree).timeUs(),
                allReduce(one.withNetworkClass(NetworkClass.TCPXO), 8, pp, tree).timeUs(), 1e-12);
    }

    /**
     * Hop counts of NCCL's latency formula (fact sheet §2.4), by hand for 4 nodes: Tree 2 x 2, PAT log2 4; with 8
     * ranks per node Ring AG 4, not NCCL's 3: the chunk of rank 1 crosses nRanks - 1 = 31 consecutive links, every
     * node boundary among them (NCCL 2.28.9 {@code src/device/all_gather.h runRing}); Ring AR 8, not NCCL's 2 x 3: the
     * chunk of rank 1 is reduced along the 31 links from rank 2 to rank 1 and sent along the 31 from rank 1 to rank 0
     * (NCCL 2.28.9 {@code src/device/all_reduce.h runRing}), each pass crossing all 4 node boundaries.
     */
    @Test
    void hopCountsFollowNcclsInterNodeSteps() throws Exception {
        Topology t = ClusterLoader.load("dgx-h100x4");
        var plan = ChannelSearch.search(t, t.gpus(), NcclSettings.DEFAULTS, NcclVersion.DEFAULT);
        assertEquals(8, NetHops.of(Collective.ALL_REDUCE, Algorithm.RING, plan));
        assertEquals(4, NetHops.of(Collective.ALL_GATHER, Algorithm.RING, plan));
        assertEquals(4, NetHops.of(Collective.ALL_REDUCE, Algorithm.TREE, plan));
        assertEquals(2, NetHops.of(Collective.ALL_GATHER, Algorithm.PAT, plan));
        Topology one = ClusterLoader.load("dgx-h100");
        assertEquals(0, NetHops.of(Collective.ALL_REDUCE, Algorithm.RING,
                ChannelSearch.search(one, one.gpus(), NcclSettings.DEFAULTS, NcclVersion.DEFAULT)));
    }

    /**
     * Ring/Simple AllReduce on 2 DGX H100 (8 x 400 Gb/s = 400 GB/s of NICs per node) with the step cost off (0 us),
     * no added hop latency and a quarter of the line rate: every ring leaves a node once per channel, and each ring
     * edge carries 2 (n-1)/n S over the 2 (n-1) steps (nccl-tests doc/PERFORMANCE.md: a ring's bus bandwidth is what
     * each link carries), so a node's NICs send 2 x 15/16 S = 1.875 S each way (an algorithm that sends the other node
     * only half of the reduce-scatter and of the all-gather, S, is not a Ring), and algbw <= 400 x 0.25 / 1.875 =
     * 53.33 GB/s, below the Ring graph's 376.3 GB/s busbw x 16/30 = 200.7 algbw. From 4 to 8 GiB the time grows by
     * 4294967296 B x 1.875 / (1000 x 100 GB/s) = 80530.6368 us (latency and pipeline fill cancel).
     */
    @Test
    void theBandwidthFractionDeratesTheNicBound() throws Exception {
        Topology roce = ClusterLoader.load("dgx-h100x2").withNetworkClass(NetworkClass.ROCE);
        Map<String, String> ring = Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple");
        PerformanceParameters pp = with("ROCE", 0, 0, 0.25);
        Prediction big = allReduce(roce, 8L << 30, pp, ring);
        assertTrue(big.bottleneck().startsWith("NICs"), big.bottleneck());
        assertEquals(80530.6368, big.timeUs() - allReduce(roce, 4L << 30, pp, ring).timeUs(), 1e-6);
    }

    @Test
    void infinibandIsTheReferenceAndCannotBeGivenAProfile() {
        PerformanceParameters d = PerformanceParameters.DEFAULTS;
        assertEquals(new NetClassProfile(d.netStepUs(), 0, 1), d.netProfile(NetworkClass.INFINIBAND));
        Exception e = assertThrows(Exception.class, () -> with("INFINIBAND", 10, 0, 1));
        assertTrue(String.valueOf(e.getMessage()).contains("InfiniBand is the reference"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new NetClassProfile(10, 0, 1.2));
    }

    @Test
    void aProfileFileGivingOneClassKeepsTheOthersDefaults() throws Exception {
        PerformanceParameters pp = with("EFA", 25, 12, 0.8);
        assertEquals(new NetClassProfile(25, 12, 0.8), pp.netProfile(NetworkClass.EFA));
        assertEquals(NetClassDefaults.PROFILES.get(NetworkClass.TCPXO), pp.netProfile(NetworkClass.TCPXO));
    }
    /**
     * GPUDirect-TCPX under GCP's published settings (Ring/Simple; 8 channels), class defaults: a Ring step between
     * the nodes waits one network step of InfiniBand's 10 us plus the class's 48 us hop ({@link NetClassDefaults}),
     * and a small call is all steps: AllGather of 8 MiB, 16 ranks, 15 ring steps of 2 sends of 32768 B, 4 in flight
     * (30 sends: 7.5 slot cycles, 8 to the last delivery, {@link NetSendCycle}), each cycle 2 x 58 us plus one send's
     * bytes at the connection's 4 streams x 2.225 GB/s: 8 x (116 + 32768 / 8900) = 957.45 us (measured 1007.2 us on
     * A-allgather-2x8xH100-gcp-a3high-gke-tcpx-cluster-toolkit.txt line 20; 784.9 us on
     * A-allgather-2x8xH100-gcp-a3high-tcpx-dstack.txt line 17, NCCL_BUFFSIZE 4 MiB both); AllReduce of 1 MiB,
     * 30 ring steps of 2 sends of 4096 B, 60 sends: 15 whole cycles, 15 x (116 + 4096 / 8900) = 1746.90 us
     * (SkyPilot's A3 High run, skypilot-org/skypilot examples/gcp_gpu_direct_tcpx/README.md: 1.33 GB/s busbw at 1 MB,
     * 1048576 x 30 / 16 / 1.33e9 = 1478 us, NCCL_BUFFSIZE 8 MiB: the model is 18.2 % slow there, a known miss, not
     * asserted). With InfiniBand's step alone the same calls would
     * take 15 x 10 and 30 x 10 us at most in steps.
     */
    @Test
    void aSmallTcpxRingPaysTheClassStepOnEveryRingStep() {
        Topology a3 = ClusterLoader.load("a3-highgpu-8gx2");
        assertEquals(NetworkClass.TCPX, a3.networkClass());
        Map<String, String> gcp = Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple", "NCCL_MIN_NCHANNELS", "8",
                "NCCL_MAX_NCHANNELS", "8");
        NcclPredictor p = new NcclPredictor(NcclVersion.DEFAULT, PerformanceParameters.DEFAULTS);
        Map<String, String> ag = new HashMap<>(gcp);
        ag.put("NCCL_BUFFSIZE", "4194304");
        double allGather = p.predict(new PredictionRequest(a3, a3.gpus(), Collective.ALL_GATHER, 8L << 20,
                DataType.FLOAT, RedOp.SUM, NcclSettings.parse(ag))).timeUs();
        assertEquals(8 * (116 + 32768 / 8900.0), allGather, 1e-6);
        assertTrue(Math.abs(allGather / 1007.2 - 1) < 0.05, "8 MiB: " + allGather);
        Map<String, String> ar = new HashMap<>(gcp);
        ar.put("NCCL_BUFFSIZE", "8388608");
        double allReduce = allReduce(a3, 1L << 20, PerformanceParameters.DEFAULTS, ar).timeUs();
        assertEquals(15 * (116 + 4096 / 8900.0), allReduce, 1e-6);
    }
}
