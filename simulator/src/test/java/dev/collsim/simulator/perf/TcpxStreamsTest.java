package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * GPUDirect-TCPX's TCP streams, values from the plugin's source (google/nccl-plugin-gpudirecttcpx v3.1.9, commit
 * 4b8ea7f2: {@code src/flags.cc} kNSocksPerThread 1 and kNThreads 1, kept when NCCL_NSOCKS_PERTHREAD or
 * NCCL_SOCKET_NTHREADS is unset or out of range; {@code src/connect.cc tcpxGetNsockNthread}; {@code src/macro.h}
 * MAX_SOCKETS 8) and worked by hand.
 */
class TcpxStreamsTest {


    /**
     * Neither set: GCP's scripts' 1 x 4 (nccl-config.yaml); one set: the other is the plugin's 1; 2 threads x 8 is
     * 16 > 8, so 8 / 2 = 4 per thread.
     */
    @Test
    void thePluginsSocketsPerConnection() {
        assertEquals(new SocketStreams.Setup(1, 4), SocketStreams.tcpxSetup(NcclSettings.DEFAULTS));
        assertEquals(new SocketStreams.Setup(2, 2), SocketStreams.tcpxSetup(NcclSettings.parse(Map.of("NCCL_SOCKET_NTHREADS", "2"))));
        assertEquals(new SocketStreams.Setup(1, 1), SocketStreams.tcpxSetup(NcclSettings.parse(Map.of("NCCL_NSOCKS_PERTHREAD", "1"))));
        assertEquals(new SocketStreams.Setup(1, 4), SocketStreams.tcpxSetup(
                NcclSettings.parse(Map.of("NCCL_SOCKET_NTHREADS", "1", "NCCL_NSOCKS_PERTHREAD", "4"))));
        assertEquals(new SocketStreams.Setup(2, 8), SocketStreams.tcpxSetup(
                NcclSettings.parse(Map.of("NCCL_SOCKET_NTHREADS", "2", "NCCL_NSOCKS_PERTHREAD", "8"))));
    }

    /**
     * 2 x A3 High (4x 200 Gb/s per host), GKE's settings (8 channels, 1 thread x 4 sockets, Ring/Simple): a Ring
     * AllGather of 512 MiB moves at most 8 connections x 4 streams x 2.225 GB/s = 71.2 GB/s per node, and a node of a
     * two-node Ring AllGather sends at its busbw, so the bound is 71.2 GB/s busbw (measured 70.90 and 71.35 on
     * A-allgather-2x8xH100-gcp-a3high-gke-tcpx-cluster-toolkit.txt line 26). Sockets set to 1 x 1: 8 x 1 x 2.225 = 17.8.
     * On TCPXO the plugin has no stream rate: no bound.
     */
    @Test
    void tcpxStreamsBoundTheA3HighRing() {
        Topology t = ClusterLoader.load("a3-highgpu-8gx2");
        assertEquals(NetworkClass.TCPX, t.networkClass());
        NcclSettings gke = NcclSettings.parse(Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple", "NCCL_MIN_NCHANNELS", "8",
                "NCCL_MAX_NCHANNELS", "8", "NCCL_BUFFSIZE", "4194304", "NCCL_SOCKET_NTHREADS", "1",
                "NCCL_NSOCKS_PERTHREAD", "4"));
        ChannelPlan plan = ChannelSearch.search(t, t.gpus(), gke, NcclVersion.DEFAULT);
        PerformanceParameters pp = PerformanceParameters.DEFAULTS;
        long bytes = 512L << 20;
        assertEquals(71.2, SocketStreams.busBwCap(plan, gke, pp, Collective.ALL_GATHER, Algorithm.RING,
                Protocol.SIMPLE, bytes, 8), 1e-9);
        NcclSettings unset = NcclSettings.parse(Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple", "NCCL_MIN_NCHANNELS", "8",
                "NCCL_MAX_NCHANNELS", "8", "NCCL_SOCKET_NTHREADS", "1", "NCCL_NSOCKS_PERTHREAD", "1"));
        ChannelPlan plain = ChannelSearch.search(t, t.gpus(), unset, NcclVersion.DEFAULT);
        assertEquals(17.8, SocketStreams.busBwCap(plain, unset, pp, Collective.ALL_GATHER, Algorithm.RING,
                Protocol.SIMPLE, bytes, 8), 1e-9);
        ChannelPlan mega = ChannelSearch.search(ClusterLoader.load("a3-megagpu-8gx2"),
                ClusterLoader.load("a3-megagpu-8gx2").gpus(), gke, NcclVersion.DEFAULT);
        assertTrue(Double.isInfinite(SocketStreams.busBwCap(mega, gke, pp, Collective.ALL_GATHER, Algorithm.RING,
                Protocol.SIMPLE, bytes, 8)));
    }

    /**
     * The header note: on TCPX the plugin's streams per connection (GCP's 1 x 4), on TCPXO that its plugin reads
     * neither setting (it has NCCL_FASTRAK_NUM_FLOWS, google/nccl-plugin-gpudirect-tcpxo {@code
     * tcpdirect_plugin/fastrak_offload/const_params.h}).
     */
    @Test
    void theNoteNamesThePluginsStreams() {
        Topology l40s = ClusterLoader.load("pcie-8x-l40sx2");
        NcclSettings gcp = NcclSettings.parse(Map.of("NCCL_SOCKET_NTHREADS", "1", "NCCL_NSOCKS_PERTHREAD", "4"));
        String tcpx = NetworkNotes.of(l40s.withNetworkClass(NetworkClass.TCPX), gcp).orElseThrow();
        assertTrue(tcpx.contains("4 TCP stream(s) per connection (GPUDirect-TCPX: 1 thread(s) x 4 socket(s)"), tcpx);
        String tcpxo = NetworkNotes.of(l40s.withNetworkClass(NetworkClass.TCPXO), gcp).orElseThrow();
        assertTrue(tcpxo.contains("whose plugin reads neither"), tcpxo);
        assertFalse(tcpxo.contains("act only on NCCL's socket transport"), tcpxo);
    }
}
