package dev.collsim.simulator.perf;

import static dev.collsim.simulator.SimulatorFixtures.env;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.NicVendor;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * NCCL's socket transport, values from NCCL 2.30.7 {@code src/transport/net_socket.cc} ({@code
 * ncclNetSocketGetNsockNthread}, {@code ncclNetSocketTest}) and worked by hand.
 */
class SocketStreamsTest {

    /** Vendor defaults: AWS 0x1d0f autoNt 2, autoNs 8; GCP 0x1ae0 autoNt 4, autoNs 1; others autoNt 0, autoNs 1. */
    @Test
    void vendorDefaultsAreNcclsAutoDetection() {
        assertEquals(new SocketStreams.Setup(0, 0), SocketStreams.setup(NicVendor.OTHER, NcclSettings.DEFAULTS));
        assertEquals(1, SocketStreams.setup(NicVendor.OTHER, NcclSettings.DEFAULTS).streams());
        assertEquals(new SocketStreams.Setup(2, 16), SocketStreams.setup(NicVendor.AWS, NcclSettings.DEFAULTS));
        assertEquals(new SocketStreams.Setup(4, 4), SocketStreams.setup(NicVendor.GCP, NcclSettings.DEFAULTS));
    }

    /**
     * Settings win; an unset one takes the vendor's default, so NCCL_NSOCKS_PERTHREAD alone on a generic NIC keeps 0
     * threads and so no sockets (nSocks = nSocksPerThread x nThreads = 4 x 0); over 64 sockets NCCL lowers the
     * sockets per thread to 64 / threads.
     */
    @Test
    void settingsThenVendorThenTheSixtyFourSocketLimit() {
        assertEquals(new SocketStreams.Setup(4, 4), SocketStreams.setup(NicVendor.OTHER,
                env("NCCL_SOCKET_NTHREADS", "4")));
        assertEquals(new SocketStreams.Setup(0, 0), SocketStreams.setup(NicVendor.OTHER,
                env("NCCL_NSOCKS_PERTHREAD", "4")));
        assertEquals(new SocketStreams.Setup(4, 32), SocketStreams.setup(NicVendor.AWS,
                env("NCCL_SOCKET_NTHREADS", "4")));
        assertEquals(new SocketStreams.Setup(16, 64), SocketStreams.setup(NicVendor.OTHER,
                env("NCCL_SOCKET_NTHREADS", "16", "NCCL_NSOCKS_PERTHREAD", "8")));
        assertEquals(new SocketStreams.Setup(0, 0), SocketStreams.setup(NicVendor.AWS,
                env("NCCL_SOCKET_NTHREADS", "0")));
    }

    /**
     * Tasks of max(64 KiB, ceil(size / sockets)): 16 sockets, 1 MiB -> 16 tasks of 64 KiB; 614400 B (an LL128 send
     * at the default buffer) -> tasks of 65536, ceil(9.375) = 10; 64 KiB -> 1; 4 sockets, 1 MiB -> 4 of 256 KiB.
     */
    @Test
    void aSendIsCutIntoTasksOfAtLeastSixtyFourKiB() {
        SocketStreams.Setup aws = new SocketStreams.Setup(2, 16);
        assertEquals(16, SocketStreams.streamsPerSend(aws, 1 << 20));
        assertEquals(10, SocketStreams.streamsPerSend(aws, 614_400));
        assertEquals(1, SocketStreams.streamsPerSend(aws, 65_536));
        assertEquals(4, SocketStreams.streamsPerSend(new SocketStreams.Setup(4, 4), 1 << 20));
        assertEquals(1, SocketStreams.streamsPerSend(new SocketStreams.Setup(0, 0), 1 << 20));
    }

    /** The catalog's cloud systems carry their provider's NIC vendor (systems.tsv provider column); others OTHER. */
    @Test
    void catalogHostsCarryTheirProvidersVendor() {
        assertEquals(NicVendor.AWS, ClusterLoader.load("p5.48xlargex2").nicVendor());
        assertEquals(NicVendor.GCP, ClusterLoader.load("a2-highgpu-8gx2").nicVendor());
        assertEquals(NicVendor.OTHER, ClusterLoader.load("dgx-h100x2").nicVendor());
        assertEquals(NicVendor.GCP, ClusterLoader.load("a2-highgpu-8gx2").withNetworkClass(NetworkClass.ROCE)
                .nicVendor());
    }

    private static Prediction twoByOne(NcclSettings s) {
        Topology t = ClusterLoader.load("pcie-8x-l40sx2").withNetworkClass(NetworkClass.SOCKET);
        assertEquals(NicVendor.OTHER, t.nicVendor());
        List<Gpu> ranks = List.of(t.gpusOf(0).get(0), t.gpusOf(1).get(0));
        assertEquals(2, ChannelSearch.search(t, ranks, s, NcclVersion.DEFAULT).runtimeChannels(),
                "NCCL's ring graph has 1 channel over the NIC, doubled by ncclTopoPostset");
        return new NcclPredictor(NcclVersion.DEFAULT, PerformanceParameters.DEFAULTS).predict(new PredictionRequest(t,
                ranks, Collective.ALL_REDUCE, 8L << 30, DataType.FLOAT, RedOp.SUM, s));
    }

    /**
     * 2 hosts x 1 L40S, 200 Gb/s NIC (25 GB/s), Ring/Simple AllReduce of 8 GiB over sockets: 2 channels x 1 stream x
     * 2.225 GB/s = 4.45 GB/s per node; between two ranks a node sends S per AllReduce of S (busbw factor 1), so busbw
     * 4.45 GB/s. NCCL_SOCKET_NTHREADS=2 gives 2 sockets per connection and a 1 MiB send 2 tasks: 8.9 GB/s.
     */
    @Test
    void socketStreamsBoundTheTwoNodeRing() {
        NcclSettings ring = env("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple");
        assertEquals(4.45, twoByOne(ring).busBw(), 4.45 * 0.01);
        NcclSettings threads = env("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple", "NCCL_SOCKET_NTHREADS", "2");
        assertEquals(8.9, twoByOne(threads).busBw(), 8.9 * 0.01);
        assertTrue(twoByOne(ring).bottleneck().startsWith("TCP streams"));
    }

    /**
     * Point-to-point over sockets: SendRecv of 1 GiB between the two L40S hosts. A p2p send is one 128 KiB chunk
     * (NCCL_P2P_NET_CHUNKSIZE), one stream on a generic NIC; the rank keeps 2 connections busy to its one remote peer
     * (channels per net peer ceil(25 GB/s / 14) = 2), so 2 x 2.225 = 4.45 GB/s of wire; on AWS the chunk is cut in two 64 KiB
     * tasks: 2 streams per connection.
     */
    @Test
    void pointToPointSendsUseTheStreamsOfOneChunk() {
        Topology t = ClusterLoader.load("pcie-8x-l40sx2").withNetworkClass(NetworkClass.SOCKET);
        List<Gpu> ranks = List.of(t.gpusOf(0).get(0), t.gpusOf(1).get(0));
        var plan = ChannelSearch.search(t, ranks, NcclSettings.DEFAULTS, NcclVersion.DEFAULT);
        // 2 channels per net peer (pow2Up(ceil(25 / 14))); nChannelsMin 1 (2 x 2 ranks > 2 p2p channels), doubled
        // to 2 for a 1 GiB send (parts above the 128 KiB chunk): one remote peer x 2
        assertEquals(2, P2pModel.connections(plan, NcclSettings.DEFAULTS, NcclVersion.DEFAULT,
                plan.graphs().ring().typeIntra(), 1,
                1L << 30));
        // a 64 KiB send: min(1, ceil(64 KiB / (128 KiB / 2))) = 1 channel, its part not above 128 KiB: 1 connection
        assertEquals(1, P2pModel.connections(plan, NcclSettings.DEFAULTS, NcclVersion.DEFAULT,
                plan.graphs().ring().typeIntra(), 1,
                64L << 10));
        Prediction sr = new NcclPredictor(NcclVersion.DEFAULT, PerformanceParameters.DEFAULTS).predict(
                new PredictionRequest(t, ranks, Collective.SEND_RECV, 1L << 30, DataType.FLOAT, RedOp.SUM,
                        NcclSettings.DEFAULTS));
        // the p2p model applies the protocol's efficiency to every rate it uses (Simple's default 0.98)
        double expected = 4.45 * PerformanceParameters.DEFAULTS.bwEfficiency(Protocol.SIMPLE);
        assertEquals(expected, sr.algBw(), expected * 0.01);
        assertEquals(2, SocketStreams.streamsPerSend(SocketStreams.setup(NicVendor.AWS, NcclSettings.DEFAULTS),
                128 << 10));
    }

    /**
     * The stream rate is calibratable: a parameters file giving socket streamGBps 4 moves the same call to 2 x 4 = 8
     * GB/s busbw; a socket profile without the field keeps the default 2.225.
     */
    @Test
    void theStreamRateComesFromTheParametersFile() throws Exception {
        ObjectMapper m = new ObjectMapper();
        ObjectNode tree = m.valueToTree(PerformanceParameters.DEFAULTS);
        ObjectNode p = m.createObjectNode().put("stepUs", 10).put("hopLatencyUs", 0).put("bwFraction", 1);
        tree.set("netClasses", m.createObjectNode().set("SOCKET", p.deepCopy().put("streamGBps", 4)));
        PerformanceParameters pp = m.treeToValue(tree, PerformanceParameters.class);
        assertEquals(4, pp.netProfile(NetworkClass.SOCKET).streamGBps());
        Topology t = ClusterLoader.load("pcie-8x-l40sx2").withNetworkClass(NetworkClass.SOCKET);
        List<Gpu> ranks = List.of(t.gpusOf(0).get(0), t.gpusOf(1).get(0));
        double busBw = new NcclPredictor(NcclVersion.DEFAULT, pp).predict(new PredictionRequest(t, ranks,
                Collective.ALL_REDUCE, 8L << 30, DataType.FLOAT, RedOp.SUM, env("NCCL_ALGO", "Ring", "NCCL_PROTO",
                "Simple"))).busBw();
        assertEquals(8.0, busBw, 8.0 * 0.01);
        tree.set("netClasses", m.createObjectNode().set("SOCKET", p));
        assertEquals(2.225, m.treeToValue(tree, PerformanceParameters.class).netProfile(NetworkClass.SOCKET)
                .streamGBps(), 1e-12);
    }

    /**
     * The header says what the socket settings do: on sockets the streams per connection (generic NIC: the proxy
     * thread, 0 helper threads, 0 data sockets, 1 stream; NCCL_SOCKET_NTHREADS=4 with NCCL_NSOCKS_PERTHREAD=2: 8
     * sockets), on InfiniBand that NCCL ignores them, on one host nothing.
     */
    @Test
    void theNetworkNoteNamesTheStreamsOrThatTheSettingsDoNothing() {
        Topology ib = ClusterLoader.load("pcie-8x-l40sx2");
        Topology sock = ib.withNetworkClass(NetworkClass.SOCKET);
        String one = NetworkNotes.of(sock, NcclSettings.DEFAULTS).orElseThrow();
        assertTrue(one.contains("1 TCP stream per connection (no helper threads: the proxy thread sends on the"
                + " connection's own socket"), one);
        NcclSettings eight = env("NCCL_SOCKET_NTHREADS", "4", "NCCL_NSOCKS_PERTHREAD", "2");
        String many = NetworkNotes.of(sock, eight).orElseThrow();
        assertTrue(many.contains("8 TCP stream(s) per connection (4 helper thread(s), 8 data socket(s)"), many);
        String onIb = NetworkNotes.of(ib, eight).orElseThrow();
        assertTrue(onIb.contains("change nothing"), onIb);
        assertTrue(NetworkNotes.of(ib, NcclSettings.DEFAULTS).isEmpty());
        Topology oneHost = ClusterLoader.load("pcie-8x-l40s");
        assertTrue(NetworkNotes.of(oneHost, eight).isEmpty());
    }
}
