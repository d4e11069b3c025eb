package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** NCCL_DEBUG=INFO content of the D- files, asserted against the lines cited. */
class NcclLogParserTest {

    /** D-info-1x2xA100: NCCL 2.20.5, Socket network (no IB in the container), 24 rings, 48 P2P connections. */
    @Test
    void a100TwoGpuLog() throws Exception {
        Dataset d = Corpus.read("D-info-1x2xA100-sxm4-80gb-nccl2.20.txt").get(0);
        NcclLog log = d.log();
        assertEquals("2.20.5+cuda12.4", log.version());
        assertEquals(19, log.versionLine());
        assertEquals(2, log.nRanks());
        assertEquals(1, log.nNodes());
        assertEquals("Socket", log.network());
        assertEquals(22, log.ibNotFound(), "first 'NET/IB : No device found.'");
        assertEquals(24, log.rings().size());
        assertEquals(List.of(0, 1), log.rings().get(0).order());
        assertEquals(48, log.transports().size());
        assertTrue(log.transports().stream().allMatch(t -> t.transport().equals("P2P/direct pointer/read")));
        NcclLog.ChannelCounts c = log.lastChannelCounts().orElseThrow();
        assertEquals(24, c.coll());
        assertEquals(0, c.nvls());
        assertEquals(32, c.p2pPerPeer());
        assertEquals("a4000", log.busIds().get(0));
        assertEquals(2, log.treeLines());
        assertEquals("2.20.5", d.ncclRelease().text());
        assertEquals(192.43, d.peakBusBw().getAsDouble(), 0);
    }

    /** D-info-alltoall (H20, nccl-tests issue 321): RDMA plugin, 4 rings, 2 p2p channels per peer, GDRDMA. */
    @Test
    void h20AlltoallLog() throws Exception {
        Dataset d = Corpus.read("D-info-alltoall-2x2xH20-tencent-vm-roce-bond-nccl2.26-issue-nccltests321.txt").get(0);
        NcclLog log = d.log();
        assertEquals("NCCL RDMA Plugin v6", log.network());
        assertEquals(List.of(0, 3, 2, 1), log.rings().get(0).order());
        assertEquals(2, log.lastChannelCounts().orElseThrow().p2pPerPeer());
        assertEquals("NVL", log.env().get("NCCL_P2P_LEVEL"));
        assertTrue(log.transports().stream().anyMatch(NcclLog.TransportEdge::gdr));
        assertTrue(log.transports().stream().anyMatch(t -> t.family().equals("P2P")
                && t.transport().equals("P2P/CUMEM")));
        assertEquals(13, d.points().size());
        assertEquals(90, d.points().get(0).line());
        assertEquals(52.94, d.points().get(0).outOfPlace().timeUs(), 0);
    }

    /** TUNING table, GRAPH line and per-call choice in NCCL's printf formats (src/graph/tuning.cc, search.cc, enqueue.cc). */
    @Test
    void tuningGraphAndChoiceLines() {
        NcclLogParser p = new NcclLogParser();
        p.accept("h:1:1 [0] NCCL INFO Latency/AlgBw |    Tree/    LL |    Tree/ LL128 |    Tree/Simple |    Ring/    LL |    Ring/ LL128 |    Ring/Simple |", 1);
        p.accept("h:1:1 [0] NCCL INFO  Max NThreads |            512 |            640 |            512 |            512 |            640 |            512 |", 2);
        p.accept("h:1:1 [0] NCCL INFO     AllReduce |    15.2/  43.6 |    31.5/ 128.8 |    64.4/ 165.6 |    15.0/  80.6 |    40.6/ 189.3 |    56.0/ 205.7 |", 3);
        p.accept("h:1:1 [0] NCCL INFO Pattern 4, crossNic 0, nChannels 12, bw 20.000000/20.000000, type NVL/PIX, sameChannels 1", 4);
        p.accept("h:1:1 [0] NCCL INFO 1048576 Bytes -> Algo 1 proto 0 time 28.000000", 5);
        NcclLog log = p.build();
        assertEquals(6, log.tuning().size());
        NcclLog.TuningEntry ringSimple = log.tuning().get(5);
        assertEquals("Ring", ringSimple.algorithm());
        assertEquals("Simple", ringSimple.protocol());
        assertEquals(56.0, ringSimple.latencyUs(), 0);
        assertEquals(205.7, ringSimple.bandwidth(), 0);
        NcclLog.GraphLine g = log.graphs().get(0);
        assertEquals(4, g.pattern());
        assertEquals(12, g.nChannels());
        assertEquals("NVL", g.typeIntra());
        NcclLog.AlgoChoice c = log.choices().get(0);
        assertEquals("Ring", c.algorithm(), "algorithm index 1 is Ring (NCCL order)");
        assertEquals("LL", c.protocol());
        assertEquals(1048576L, c.bytes());
    }

    /**
     * NCCL 2.28 shapes, lines copied from data/device/h200x2-2026-11-29/nccl-info-allreduce.txt (lines 258-264 and
     * the first choice line): the two-line tuning header and a choice line without a time.
     */
    @Test
    void ncclTwoLineTuningHeaderAndChoiceWithoutTime() {
        NcclLogParser p = new NcclLogParser();
        p.accept("vm:896:961 [0] NCCL INFO   Algorithm   |                            Tree                  |                            Ring                  |", 1);
        p.accept("vm:896:961 [0] NCCL INFO   Protocol    |             LL |          LL128 |         Simple |             LL |          LL128 |         Simple |", 2);
        p.accept("vm:896:961 [0] NCCL INFO     AllReduce |     8.0/  61.1 |    16.5/ 180.6 |    16.4/ 232.2 |     7.8/ 141.0 |    17.8/ 331.2 |    15.2/ 360.0 |", 3);
        p.accept("vm:896:961 [0] NCCL INFO   Algorithm   |                             PAT                  |", 4);
        p.accept("vm:896:961 [0] NCCL INFO   Protocol    |             LL |          LL128# collsim run 0.1.0", 5);
        p.accept("vm:896:961 [0] NCCL INFO     Broadcast |     0.0/   0.0 |     0.0/   0.0 |     0.0/   0.0 |", 6);
        p.accept("vm:896:897 [0] NCCL INFO AllReduce: 8 Bytes -> Algo RING proto LL channel{Lo..Hi}={0..0}", 7);
        NcclLog log = p.build();
        assertEquals(6, log.tuning().size(), "the mangled PAT header yields no columns, so its row is skipped");
        NcclLog.TuningEntry treeLl128 = log.tuning().get(1);
        assertEquals("Tree", treeLl128.algorithm());
        assertEquals("LL128", treeLl128.protocol());
        assertEquals(16.5, treeLl128.latencyUs(), 0);
        assertEquals(180.6, treeLl128.bandwidth(), 0);
        NcclLog.TuningEntry ringSimple = log.tuning().get(5);
        assertEquals("Ring", ringSimple.algorithm());
        assertEquals(360.0, ringSimple.bandwidth(), 0);
        NcclLog.AlgoChoice c = log.choices().get(0);
        assertEquals("RING", c.algorithm());
        assertEquals("LL", c.protocol());
        assertEquals(8L, c.bytes());
        assertTrue(Double.isNaN(c.timeUs()));
    }

    /**
     * Connection and ring lines as older releases print them, each built from the release's format string: 2.4.8
     * {@code src/transport/p2p.cc} "Ring %02d : %d[%d] -> %d[%d] via P2P/IPC", {@code net.cc} "Ring %02d : %d -> %d
     * [send] via NET/%s/%d%s" (with "/GDRDMA" when used), {@code shm.cc} "... via direct shared memory", {@code
     * init.cc} "Channel %02d : " + ranks; 2.7.8 "Channel %02d : %d[%lx] -> %d[%lx] [receive] via NET/%s/%d%s".
     */
    @Test
    void olderReleasesConnectionAndRingLines() {
        NcclLogParser p = new NcclLogParser();
        p.accept("h:1:1 [0] NCCL INFO Channel 00 :    0   1   2   3", 1);
        p.accept("h:1:1 [0] NCCL INFO Ring 00 : 0[0] -> 1[1] via P2P/IPC", 2);
        p.accept("h:1:1 [1] NCCL INFO Ring 01 : 1[1] -> 2[0] via direct shared memory", 3);
        p.accept("h:1:1 [3] NCCL INFO Ring 00 : 3 -> 4 [send] via NET/IB/0", 4);
        p.accept("h:1:1 [0] NCCL INFO Channel 02 : 7[c7000] -> 0[7000] [receive] via NET/IB/1/GDRDMA", 5);
        p.accept("h:1:1 [0] NCCL INFO Ring 00 : 3 -> 0 -> 1", 6); // 2.10's graph line: no connection
        NcclLog log = p.build();
        assertEquals(List.of(0, 1, 2, 3), log.rings().get(0).order());
        assertEquals(-1, log.rings().get(0).nChannels());
        assertEquals(4, log.transports().size());
        List<String> got = log.transports().stream().map(t -> t.channel() + ":" + t.fromRank() + ">" + t.toRank()
                + " " + t.family() + (t.gdr() ? " gdr" : "")).toList();
        assertEquals(List.of("0:0>1 P2P", "1:1>2 SHM", "0:3>4 NET", "2:7>0 NET gdr"), got);
    }

    @Test
    void warnAndTransportFamilies() {
        NcclLogParser p = new NcclLogParser();
        p.accept("h:1:1 [0] NCCL WARN NET/IB : Got async event : port error", 7);
        p.accept("h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct", 8);
        p.accept("h:1:1 [0] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [send] via NET/Socket/0", 9);
        NcclLog log = p.build();
        assertEquals(7, log.flagged().get(0).line());
        assertEquals("SHM", log.transports().get(0).family());
        assertEquals("NET", log.transports().get(1).family());
    }

    /**
     * NCCL 2.23 to 2.28 cut a ring line at 128 characters (v2.23.4-1, v2.28.9-1 src/graph/rings.cc dumpLine: prefix "Channel %02d/%02d :",
     * then " %*d" per rank at the width of nranks - 1; past the buffer, "..." over characters 124-126). By hand:
     * 64 ranks print 3 characters each after the 15-character prefix, 15 + 36 x 3 = 123, so ranks 0-35 are whole and
     * character 123 is the space before rank 36: order 0..35. 1024 ranks print 5 each: 15 + 21 x 5 = 120, ranks 0-20
     * whole, characters 120-123 are "   2" of rank 21, cut by the "...": left out, order 0..20. Such lines used to be
     * skipped (the ring and its channel count lost).
     */
    @Test
    void ringLineCutAt128Characters() {
        for (int[] c : new int[][] {{64, 2, 36}, {1024, 4, 21}}) {
            StringBuilder line = new StringBuilder("Channel 00/24 :");
            for (int r = 0; r < c[0]; r++) {
                line.append(String.format(" %" + c[1] + "d", r));
            }
            String cut = line.substring(0, 124) + "...";
            NcclLogParser p = new NcclLogParser();
            assertTrue(p.accept("h:1:1 [0] NCCL INFO " + cut, 1), cut);
            NcclLog.RingOrder ring = p.build().rings().get(0);
            assertEquals(24, ring.nChannels());
            assertEquals(IntStream.range(0, c[2]).boxed().toList(), ring.order(), cut);
        }
    }
}
