package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.NcclLog;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The NICs a run's channels cross, read from its NCCL INFO NET connection lines (real public file: nccl-tests#311,
 * 4 hosts x 2 A100, 6 NICs listed, both GPUs of each host on one NET device).
 */
class LogNicsSharedTest {

    private static final String SHARED =
            "D-info-allreduce-4x2xA100-80GB-cx6-ib-collnet-not-initialized-nccl2.23-issue-nccltests311.txt";

    private static long nicsOfHost0(Topology t) {
        return t.devices(Nic.class).stream().filter(n -> n.host() == 0 && n.rail() >= 0).count();
    }

    /** Lines 28 and 31 of the file: rank 0 receives and rank 1 sends, both via NET/IBext_v8/1. */
    @Test
    void sendAndReceiveLinesNameTheirDevice() throws Exception {
        List<NcclLog.TransportEdge> net = Corpus.read(SHARED).get(0).log().transports();
        assertEquals(12, net.size());
        NcclLog.TransportEdge recv = net.get(0);
        assertEquals(List.of(7, 0, "receive", 0, 1), List.of(recv.fromRank(), recv.toRank(), recv.side(),
                recv.printingRank(), recv.netDevice()));
        NcclLog.TransportEdge send = net.get(3);
        assertEquals(List.of(1, 2, "send", 1, 1), List.of(send.fromRank(), send.toRank(), send.side(),
                send.printingRank(), send.netDevice()));
        // the PXN form "NET/IBext_v8/5(2)/GDRDMA" (rank 3's send) is device 5 of proxy rank 2
        assertEquals(5, new NcclLog.TransportEdge(0, 3, 4, "NET/IBext_v8/5(2)/GDRDMA", "send", 1).netDevice());
        assertEquals(-1, new NcclLog.TransportEdge(0, 0, 1, "P2P/CUMEM/read", "", 1).netDevice());
    }

    /**
     * gpu34 receives (rank 0, lines 28-30) and sends (rank 1, lines 31-33) on channels 0-2, all of the "3 coll channels"
     * (line 27), via device 1 alone: 1 NIC per host of the catalog DGX A100's 8 (the log lists 6).
     */
    @Test
    void twoRanksOnOneDeviceCrossOneNic() throws Exception {
        Dataset d = Corpus.read(SHARED).get(0);
        ClusterGuess g = ClusterGuesser.guess(d).orElseThrow();
        assertEquals(1, nicsOfHost0(g.topology()));
        assertTrue(g.assumptions().stream().anyMatch(a -> a.startsWith("1 of the 8 NICs per host as the NCCL INFO"
                + " log's NET connection lines use them (host gpu34 sends and receives on all 3 channels via NET"
                + " device(s) [1], line 28")),
                g.assumptions().toString());
    }

    /**
     * Rank 1's sends moved to device 0: gpu34 crosses devices 0 and 1, 2 NICs per host; with the channel-2 sends
     * (lines 33 and 38) left out, the lines no longer cover every channel and the 6 NICs the log lists stay.
     */
    @Test
    void theDevicesOfAFullyShownHostCount() throws Exception {
        Dataset d = Corpus.read(SHARED).get(0);
        List<NcclLog.TransportEdge> moved = d.log().transports().stream().map(t -> t.printingRank() == 1
                ? new NcclLog.TransportEdge(t.channel(), t.fromRank(), t.toRank(), "NET/IBext_v8/0/GDRDMA", t.side(),
                t.line()) : t).toList();
        assertEquals(2, nicsOfHost0(ClusterGuesser.guess(with(d, moved)).orElseThrow().topology()));
        List<NcclLog.TransportEdge> part = d.log().transports().stream().filter(t -> t.channel() != 2
                || !t.side().equals("send")).toList();
        assertEquals(6, nicsOfHost0(ClusterGuesser.guess(with(d, part)).orElseThrow().topology()));
    }

    private static Dataset with(Dataset d, List<NcclLog.TransportEdge> edges) {
        NcclLog l = d.log();
        return new Dataset(d.file(), d.label(), d.line(), d.kind(), d.collective(), d.dataType(), d.nRanks(),
                d.nHosts(), d.gpuModel(), d.ncclRelease(), d.env(), d.header(), d.ranks(), d.points(), d.avgBusBw(),
                d.summaryMaxBusBw(), new NcclLog(l.version(), l.versionLine(), l.nRanks(), l.nNodes(), l.localRanks(),
                l.busIds(), l.network(), l.networkLine(), l.ibNotFound(), edges, l.channelCounts(), l.rings(),
                l.treeLines(), l.graphs(), l.tuning(), l.choices(), l.env(), l.flagged(), l.net()), d.notes(),
                d.launch(), d.rounding());
    }
}
