package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.io.ClusterLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Channel counts a tuner plugin forces ({@link PreparedCall#candidates(PerformanceParameters, int)}): the time formula
 * at two counts worked out by hand and set against measured runs, and the two properties that keep channel advice
 * honest (fewer channels never predicted faster, more than NCCL's own count never credited beyond its work).
 */
class TunerChannelsTest {

    private static final Path DIR = Path.of("..", "data", "device", "h200x2-2026-11-29");
    private static final PerformanceParameters PP = PerformanceParameters.DEFAULTS;

    private static PreparedCommunicator h200x2() throws Exception {
        Topology t = ClusterLoader.read("nccl-topo-dump.xml", Files.readString(DIR.resolve("nccl-topo-dump.xml")));
        return new NcclPredictor(NcclVersion.parse("2.28"), PP).prepare(t, t.gpus(),
                NcclSettings.parse(Map.of("NCCL_NVLS_ENABLE", "0")));
    }

    private static double ringSimpleUs(PreparedCall call, int channels) {
        return call.candidates(PP, channels).stream()
                .filter(c -> c.algorithm() == Algorithm.RING && c.protocol() == Protocol.SIMPLE).findFirst()
                .orElseThrow().predicted().timeUs();
    }

    @Test
    void twoAndFourChannelsAt8GiBByHandAndMeasured() throws Exception {
        PreparedCall call = h200x2().call(Collective.ALL_REDUCE, 8L << 30, DataType.FLOAT, RedOp.SUM);
        double two = ringSimpleUs(call, 2);
        double four = ringSimpleUs(call, 4);
        // by hand: 2 ranks, so AllReduce algbw = busbw (busbw = algbw x 2(n-1)/n); at 8 GiB the per-channel cap binds
        // (20.7 GB/s per channel for Simple on Hopper, PerformanceParameters, far below the NV18 ring's links), so
        // time ~ 8589934592 B / (1000 x k x 20.7 GB/s): k = 2 -> 207486 us, k = 4 -> 103743 us, plus the launch,
        // NCCL's latency and one 2 MiB chunk of pipeline fill (under 1 %)
        assertEquals(207_486, two, 207_486 * 0.01);
        assertEquals(103_743, four, 103_743 * 0.01);
        // measured, data/device/h200x2-2026-11-29/collsim-sweep-NCCL_MAX_NCHANNELS.txt at 8589934592 B, out of place:
        // NCCL_MAX_NCHANNELS=2 205887 us, =4 104490 us (at this size NCCL uses every channel it is allowed, so the
        // limit acts as a forced count)
        assertEquals(205_887, two, 205_887 * 0.03);
        assertEquals(104_490, four, 104_490 * 0.03);
    }

    @Test
    void fewerChannelsAreNeverFasterAndMoreThanNcclsCountGainNothing() throws Exception {
        List<PreparedCommunicator> comms = List.of(h200x2(),
                prepare(Catalog.standalone(Catalog.hostType("dgx-h100").orElseThrow(), 2)),
                prepare(Catalog.standalone(Catalog.hostType("dgx-a100").orElseThrow(), 1)));
        for (PreparedCommunicator comm : comms) {
            for (Collective c : List.of(Collective.ALL_REDUCE, Collective.ALL_GATHER, Collective.BROADCAST)) {
                for (long size : new long[] {4096, 256L << 10, 16L << 20, 1L << 30}) {
                    PreparedCall call = comm.call(c, size, DataType.FLOAT, RedOp.SUM);
                    List<Candidate> own = call.candidates(PP);
                    for (int i = 0; i < own.size(); i++) {
                        Candidate o = own.get(i);
                        if (o.algorithm() == Algorithm.RING && comm.nNodes() > 1) {
                            continue; // each rank's proxy posts its channels' sends in turn: see the test below
                        }
                        double previous = Double.POSITIVE_INFINITY;
                        for (int k = 1; k <= comm.tunerChannelCap(o.algorithm()); k++) {
                            double t = call.candidates(PP, k).get(i).predicted().timeUs();
                            String where = comm.nRanks() + " ranks " + c + " " + size + " B " + o.algorithm() + "/"
                                    + o.protocol() + " on " + k + " channels";
                            assertTrue(t <= previous * (1 + 1e-9), "more channels slower: " + where);
                            assertTrue(t >= o.predicted().timeUs() * (1 - 1e-9), "beats NCCL's own count: " + where
                                    + " " + t + " us vs " + o.predicted().timeUs());
                            previous = t;
                        }
                    }
                }
            }
        }
    }

    /**
     * Between nodes a Ring's sends are posted by one proxy thread per rank, 3 us each for Simple on Intel hosts (NCCL
     * 2.30.7 tuning.cc getNetOverhead, x3), so more channels per rank cost more posting: 2 DGX H100 (16 ranks, 8 per
     * host), Ring/Simple AllReduce of 16 MiB, 60 sends per connection (15 x 2 ring steps x 2 slices). NCCL's 16
     * channels: 2 connections per rank, 2 x 60 x 3 = 360 us. 8 channels: 1 per rank, 180 us of posting, but a Hopper
     * Ring between nodes moves the one-node 20.7 GB/s per channel ({@code perf.RingChannelRate}): 16 MiB x 1.875 /
     * (8 x 20.7 GB/s) = 189.97 us of data after NCCL's latency, so 8 channels are slower than NCCL's 16.
     */
    @Test
    void ringBetweenNodesPaysItsProxyPostsPerChannel() throws Exception {
        PreparedCommunicator comm = prepare(Catalog.standalone(Catalog.hostType("dgx-h100").orElseThrow(), 2));
        PreparedCall call = comm.call(Collective.ALL_REDUCE, 16L << 20, DataType.FLOAT, RedOp.SUM);
        assertEquals(360.0, ringSimpleUs(call, 16), 1e-6);
        double eight = ringSimpleUs(call, 8);
        assertTrue(eight > 360.0 && eight >= (16 << 20) * 1.875 / (8 * 20.7e3), eight + " us");
    }

    @Test
    void aNegativeCountIsRefused() throws Exception {
        PreparedCall call = h200x2().call(Collective.ALL_REDUCE, 1024, DataType.FLOAT, RedOp.SUM);
        assertThrows(IllegalArgumentException.class, () -> call.candidates(PP, -1));
    }

    private static PreparedCommunicator prepare(Topology t) {
        return new NcclPredictor().prepare(t, t.gpus(), NcclSettings.DEFAULTS);
    }
}
