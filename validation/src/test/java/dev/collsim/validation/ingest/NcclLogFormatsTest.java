package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * NCCL_DEBUG=INFO lines of each NCCL release, written as that release's format strings print them (tag, file and
 * line of github.com/NVIDIA/nccl cited per line), behind the debug prefix {@code "%s:%d:%d [%d] NCCL INFO "}
 * (src/debug.cc ncclDebugLog, every tag). The parser must get the version, the rank count, the network, the IB
 * devices, the channel counts, the trees, the search graph and the per-call algorithm choice. Values are
 * synthetic: 16 ranks on 2 nodes, 2 IB HCAs.
 */
class NcclLogFormatsTest {

    private static final String PREFIX = "node-0:4000:4000 [0] NCCL INFO ";

    /**
     * One release's lines.
     *
     * @param tag       NCCL tag
     * @param lines     the INFO messages (without the prefix)
     * @param countsP2p p2p channels per peer the counts line says, -1 when the release prints none
     * @param choice    the algorithm the choice line names, "" when the release prints none at INFO
     */
    record Release(String tag, List<String> lines, int countsP2p, String choice) {
        @Override
        public String toString() {
            return tag;
        }
    }

    static Stream<Release> releases() {
        List<Release> r = new ArrayList<>();
        // v2.4.8-1: init.cc:306 version, init.cc:828 Trees, init.cc:957 Init COMPLETE (no busId), net_ib.cc:168
        r.add(new Release("v2.4.8-1", List.of("NCCL version 2.4.8+cuda10.1",
                "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:10.0.0.1<0>",
                "Trees [0] 1->0->-1/-1/-1 [1] 1->0->-1/-1/-1",
                "comm 0x5555 rank 0 nranks 16 cudaDev 0 nvmlDev 0 - Init COMPLETE"), -1, ""));
        // v2.7.8-1: init.cc:280, init.cc:124 Using network, net_ib.cc:203, init.cc:748 Trees, paths.cc:517 counts,
        // search.cc:785 Pattern (speed), init.cc:843 Init COMPLETE (busId %x)
        r.add(new Release("v2.7.8-1", List.of("NCCL version 2.7.8+cuda11.0", "Using network IB",
                "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:10.0.0.1<0>",
                "Trees [0] 1/8/-1->0->-1 [1] 1/8/-1->0->-1",
                "Pattern 4, crossNic 0, nChannels 2, speed 24.000000/12.000000, type NVL/PIX, sameChannels 1",
                "2 coll channels, 2 p2p channels, 2 p2p channels per peer",
                "comm 0x5555 rank 0 nranks 16 cudaDev 0 busId 1b000 - Init COMPLETE"), 2, ""));
        // v2.12.12-1: init.cc:302, init.cc:78, net_ib.cc:248 ([RO]), init.cc:719, paths.cc:678, search.cc:905
        // (speed), init.cc:917 Init COMPLETE (busId %lx)
        r.add(new Release("v2.12.12-1", List.of("NCCL version 2.12.12+cuda11.7", "Using network IB",
                "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:10.0.0.1<0>",
                "Trees [0] 1/8/-1->0->-1 [1] 1/8/-1->0->-1",
                "Pattern 4, crossNic 0, nChannels 2, speed 24.000000/12.000000, type NVL/PIX, sameChannels 1",
                "2 coll channels, 2 p2p channels, 2 p2p channels per peer",
                "comm 0x5555 rank 0 nranks 16 cudaDev 0 busId 1b000 - Init COMPLETE"), 2, ""));
        // v2.18.6-1: init.cc:455, init.cc:310, net_ib.cc:264, init.cc:1045, search.cc:1001 (bw), init.cc:1113
        // (nvls channels), init.cc:1375 Init COMPLETE (nvmlDev, commId)
        r.add(new Release("v2.18.6-1", List.of("NCCL version 2.18.6+cuda12.2", "Using network IB",
                "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:10.0.0.1<0>",
                "Trees [0] 1/8/-1->0->-1 [1] 1/8/-1->0->-1",
                "Pattern 4, crossNic 0, nChannels 2, bw 24.000000/12.000000, type NVL/PIX, sameChannels 1",
                "2 coll channels, 0 nvls channels, 2 p2p channels, 2 p2p channels per peer",
                "comm 0x5555 rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x1234 - Init COMPLETE"), 2, ""));
        // v2.21.5-1: init.cc:479, init.cc:322, net_ib.cc:538, init.cc:1160 nRanks/nNodes, init.cc:1224,
        // search.cc:1047, init.cc:1297 (collnet), init.cc:1573 ncclCommInitRank ... Init COMPLETE,
        // enqueue.cc:1534 "%ld Bytes -> Algo %d proto %d time %f" (algo 1 = Ring, proto 2 = Simple)
        r.add(new Release("v2.21.5-1", List.of("NCCL version 2.21.5+cuda12.4", "Using network IB",
                "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:10.0.0.1<0>",
                "comm 0x5555 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0",
                "Trees [0] 1/8/-1->0->-1 [1] 1/8/-1->0->-1",
                "Pattern 4, crossNic 0, nChannels 2, bw 24.000000/12.000000, type NVL/PIX, sameChannels 1",
                "2 coll channels, 2 collnet channels, 0 nvls channels, 2 p2p channels, 2 p2p channels per peer",
                "ncclCommInitRank comm 0x5555 rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x1234 - "
                        + "Init COMPLETE",
                "1048576 Bytes -> Algo 1 proto 2 time 40.500000"), 2, "RING"));
        // v2.28.9-1: init.cc:608, init.cc:428, net_ib.cc:839, init.cc:1170, init.cc:1226, search.cc:1201,
        // init.cc:1358, init.cc:1593 "%s comm %p ... Init COMPLETE", enqueue.cc:741 choice with channel{Lo..Hi}
        // v2.30.7-1: init.cc:702, init.cc:486, net_ib/init.cc:513, init.cc:1422, init.cc:1497, search.cc:1319,
        // init.cc:1646, init.cc:1945, enqueue.cc:822 (the same strings)
        for (String[] t : new String[][] {{"v2.28.9-1", "2.28.9+cuda12.9"}, {"v2.30.7-1", "2.30.7+cuda13.0"}}) {
            r.add(new Release(t[0], List.of("NCCL version " + t[1], "Using network IB",
                    "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:10.0.0.1<0>",
                    "comm 0x5555 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0",
                    "Trees [0] 1/8/-1->0->-1 [1] 1/8/-1->0->-1",
                    "Pattern 4, crossNic 0, nChannels 2, bw 24.000000/12.000000, type NVL/PIX, sameChannels 1",
                    "2 coll channels, 2 collnet channels, 0 nvls channels, 2 p2p channels, 2 p2p channels per peer",
                    "ncclCommInitRankConfig comm 0x5555 rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 1b000 commId "
                            + "0x1234 - Init COMPLETE",
                    "AllReduce: 1048576 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..1}"), 2, "RING"));
        }
        return r.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("releases")
    void everyRelease(Release r) {
        NcclLogParser p = new NcclLogParser();
        int no = 0;
        for (String l : r.lines()) {
            assertEquals(true, p.accept(PREFIX + l, ++no), l);
        }
        NcclLog log = p.build();
        assertEquals(r.lines().get(0).substring("NCCL version ".length()), log.version());
        assertEquals(1, log.versionLine());
        assertEquals(16, log.nRanks(), "16 ranks: nranks of Init COMPLETE, nRanks of the 2.21+ line");
        assertEquals(r.lines().get(1).startsWith("Using network") ? "IB" : "", log.network());
        // NetworkLog.Device names a port: "[0]mlx5_0:1/IB" is device mlx5_0 port 1
        assertEquals(List.of("mlx5_0:1", "mlx5_1:1"), log.net().devices().stream().map(NetworkLog.Device::name).toList());
        assertEquals(1, log.treeLines());
        if (r.countsP2p() >= 0) {
            assertEquals(2, log.lastChannelCounts().orElseThrow().coll());
            assertEquals(r.countsP2p(), log.lastChannelCounts().orElseThrow().p2pPerPeer());
            assertEquals(1, log.graphs().size(), "the Pattern line ('speed' before 2.14, 'bw' after)");
            assertEquals(24.0, log.graphs().get(0).bwIntra(), 0);
            assertEquals(12.0, log.graphs().get(0).bwInter(), 0);
        }
        if (!r.choice().isEmpty()) {
            assertEquals(1, log.choices().size());
            assertEquals(r.choice(), log.choices().get(0).algorithm().toUpperCase(Locale.ROOT));
            assertEquals(1048576L, log.choices().get(0).bytes());
        }
    }
}
