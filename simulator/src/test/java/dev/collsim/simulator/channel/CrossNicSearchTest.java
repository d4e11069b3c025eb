package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.GraphPattern;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * NCCL's order of the multi-node ring search (NCCL 2.30.7 {@code src/graph/search.cc ncclTopoCompute}: crossNic 0
 * at every typeInter first, typeInter raised to PXN even after a graph is found, crossNic 2 last; {@code
 * ncclTopoSearchCheckNet}, {@code ncclTopoSearchRecNet}), worked out by hand on two catalog hosts with NCCL's figures
 * ({@code src/graph/topo.h}: sm90 NVLink 20.6 GB/s x 18 = 370.8 per GPU, sm100 40.1 x 18 = 721.8; PCIe Gen5 x16 48;
 * ConnectX-7 400 Gb/s = 50 GB/s; sm90 inter speeds 48, 45, 42, ...):
 * <ul>
 *   <li>DGX H100: each GPU and its NIC behind one PCIe switch pair (PXB); another GPU reaches that NIC over NVLink
 *       to the NIC's GPU (PXN). A ring channel with crossNic 0 enters NIC n at GPU n and must leave from its last
 *       GPU through NIC n, over PXN, so it crosses NVLink 8 times (7 ring hops + the relay) and every GPU sends 48
 *       GB/s once per channel: 370.8 / 48 = 7 channels, 336 GB/s &lt; totalBw 370.8. crossNic 2 at PXB pairs the
 *       channels: channel 0 enters NIC 0 at GPU 0 and leaves from GPU 7 by NIC 7, channel 1 enters NIC 7 at GPU 7
 *       and, to leave by NIC 0 at PXB, runs backwards 7, 6, ..., 0; the last GPU of a channel sends nothing over
 *       NVLink, so 8 channels fit (7 x 48 = 336 per GPU): 8 x 48 = 384 &gt;= 370.8, NCCL stops.</li>
 *   <li>HGX B200: the same layout with NVLink 721.8: crossNic 0 at PXN fits a channel per NIC, 8 x 48 = 384;
 *       crossNic 2 finds no more (384 is not better), so the ring keeps crossNic 0 and reports PXN.</li>
 * </ul>
 */
class CrossNicSearchTest {

    private static final double EPS = 1e-9;

    private static Topology twoHosts(String type) {
        return Catalog.standalone(Catalog.hostType(type).orElseThrow(), 2);
    }

    private static HostModel firstHost(Topology t) {
        return new HostModel(t, Set.of(0), t.gpus().subList(0, 8), NcclSettings.parse(Map.of()), 30);
    }

    private static GraphSummary ring(Topology t, Map<String, String> env) {
        return ring(t, env, NcclVersion.V2_30_7);
    }

    private static GraphSummary ring(Topology t, Map<String, String> env, NcclVersion v) {
        return ChannelSearch.search(t, t.gpus(), NcclSettings.parse(env), v).graphs().ring();
    }

    @Test
    void dgxH100SameNicRingClosesOverPxnAndFitsSevenChannels() {
        HostModel h = firstHost(twoHosts("dgx-h100"));
        ChannelFill fill = new ChannelFill(h, true, new SearchNets(h));
        GraphSolution pxb = fill.at(GraphPattern.RING, 48, 48, 16, PathType.PXB, PathType.PXB, SearchNets.SAME_NIC);
        assertEquals(0, pxb.nCh(), "the last GPU reaches the entry NIC only over PXN");
        GraphSolution pxn = fill.at(GraphPattern.RING, 48, 48, 16, PathType.PXN, PathType.PXN, SearchNets.SAME_NIC);
        assertEquals(7, pxn.nCh());
        assertEquals(PathType.PXN, pxn.typeInter());
        for (int[] c : fill.channels()) {
            assertEquals(c[8], c[9], "enters and leaves by one NIC");
            assertEquals(c[8], c[0], "enters at the NIC's own GPU (NIC k next to GPU k)");
            assertEquals((c[0] + 7) % 8, c[7], "NVSwitch order: next index first");
        }
    }

    @Test
    void dgxH100CrossNicTwoPairsChannels() {
        HostModel h = firstHost(twoHosts("dgx-h100"));
        ChannelFill fill = new ChannelFill(h, true, new SearchNets(h));
        GraphSolution s = fill.at(GraphPattern.RING, 48, 48, 16, PathType.PXB, PathType.PXB, SearchNets.PAIRED);
        assertEquals(8, s.nCh());
        List<int[]> c = fill.channels();
        assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6, 7, 0, 7}, c.get(0));
        assertArrayEquals(new int[] {7, 6, 5, 4, 3, 2, 1, 0, 7, 0}, c.get(1));
        for (int k = 1; k < c.size(); k += 2) {
            assertEquals(c.get(k - 1)[9], c.get(k)[8], "odd channel enters by the even one's exit NIC");
            assertEquals(c.get(k - 1)[8], c.get(k)[9], "and leaves by its entry NIC");
        }
    }

    @Test
    void dgxH100RingSettlesOnCrossNicTwoAtPxb() {
        GraphSummary r = ring(twoHosts("dgx-h100"), Map.of());
        assertEquals(8, r.nChannels());
        assertEquals(48.0, r.bwInter(), EPS);
        assertEquals(PathType.PXB, r.typeInter());
    }

    /**
     * NCCL_CROSS_NIC=0: only crossNic 0. At 48 GB/s 7 channels (336); at 45 the 8 PXN channels fit the NVLink
     * (8 x 45 = 360 &lt;= 370.8) and are better; 42 and 40 give less, 30 one channel per NIC, 24 two per NIC but
     * NVLink holds 15 (360, not better); 20 / 45 &lt; 0.49 stops. No duplication (sm90, bwIntra 45 &lt; 50, 8 &gt; 4
     * channels); pass 2 cannot fit 8 at 48.
     */
    @Test
    void dgxH100WithoutCrossNicRunsPxnAtLowerSpeed() {
        GraphSummary r = ring(twoHosts("dgx-h100"), Map.of("NCCL_CROSS_NIC", "0"));
        assertEquals(8, r.nChannels());
        assertEquals(45.0, r.bwInter(), EPS);
        assertEquals(PathType.PXN, r.typeInter());
    }

    /**
     * NCCL 2.18 (read at v2.18.5-1): crossNic 1 is tried last and must beat a graph that keeps its NICs by 15 %:
     * at 48 GB/s crossNic 0 finds 7 channels (336), crossNic 1 finds 8 (384 &lt; 1.15 x 336 = 386.4, not kept); at 45
     * crossNic 0 finds 8 (360, kept; crossNic 1's 360 is not 15 % better); then as with NCCL_CROSS_NIC=0 above.
     * NCCL 2.21 (v2.21.5-1) has no bonus: crossNic 1's 8 x 48 = 384 is kept and reaches totalBw.
     */
    @Test
    void olderReleasesTryAnyExitNicLast() {
        GraphSummary r18 = ring(twoHosts("dgx-h100"), Map.of(), NcclVersion.V2_18_5);
        assertEquals(8, r18.nChannels());
        assertEquals(45.0, r18.bwInter(), EPS);
        assertEquals(PathType.PXN, r18.typeInter());
        GraphSummary r21 = ring(twoHosts("dgx-h100"), Map.of(), NcclVersion.V2_21_5);
        assertEquals(8, r21.nChannels());
        assertEquals(48.0, r21.bwInter(), EPS);
        assertEquals(PathType.PXB, r21.typeInter());
    }

    /**
     * NCCL's {@code nHops} counts every path a channel follows, its NIC paths too ({@code ncclTopoFollowPath}), so a
     * ring that closes over PXN pays the relay's NVLink hop in the tie-break between equal graphs. DGX-1 V100 (NVIDIA
     * DGX-1 V100 whitepaper: hybrid cube-mesh, GPUs 0-3, 1-5, 7-4 ... joined directly; two GPUs and a NIC per PCIe
     * switch): channel NIC 0 -> GPU 0, 3, 2, 1, 5, 6, 7, 4 -> NIC 2 crosses 7 direct NVLinks, 2 links in (NIC 0,
     * switch, GPU 0) and 2 out (GPU 4, switch, NIC 2): 11 hops.
     */
    @Test
    void hopsCountTheNicPaths() {
        Topology t = Catalog.standalone(Catalog.hostType("dgx1-v100").orElseThrow(), 2);
        HostModel h = firstHost(t);
        GraphSolution s = GraphSolution.of(h, true, GraphPattern.RING, 12, 12,
                List.of(new int[] {0, 3, 2, 1, 5, 6, 7, 4, 0, 2}));
        assertEquals(11, s.hops());
        GraphSolution fewer = new GraphSolution(4, 12, 12, PathType.NVL, PathType.PXN, 40, false, List.of(), 0);
        GraphSolution more = new GraphSolution(4, 12, 12, PathType.NVL, PathType.PIX, 46, false, List.of(), 0);
        GraphSolution crossing = new GraphSolution(4, 12, 12, PathType.NVL, PathType.PIX, 40, false, List.of(), 2);
        assertTrue(fewer.betterThan(more));
        assertFalse(crossing.betterThan(more), "hops only decide between searches of one crossNic");
        GraphSolution any = new GraphSolution(8, 48, 48, PathType.NVL, PathType.PXB, 0, false, List.of(), 1);
        GraphSolution same = new GraphSolution(7, 48, 48, PathType.NVL, PathType.PXN, 0, false, List.of(), 0);
        assertFalse(any.betterThan(same, true), "384 < 1.15 x 336");
        assertTrue(any.betterThan(same, false));
    }

    @Test
    void hgxB200RingKeepsTheEntryNic() {
        GraphSummary r = ring(twoHosts("hgx-b200"), Map.of());
        assertEquals(8, r.nChannels());
        assertEquals(48.0, r.bwInter(), EPS);
        assertEquals(PathType.PXN, r.typeInter());
    }
}
