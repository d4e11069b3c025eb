package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.PathType;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The multi-node ring search against an NCCL INFO log's own channel lines, on the cluster {@code compare} builds for
 * that file ({@link ClusterGuesser}).
 */
class RingSearchAgainstLogTest {

    /**
     * Measured: validation/src/test/resources/data/D-info-alltoall-2x2xH20-tencent-vm-roce-bond-nccl2.26-issue-
     * nccltests321.txt (NCCL 2.26.5, 2 H20 and 2 NICs per host). Ring channel 1 enters host 1 by NET 0 at rank 0
     * (line 71: {@code 3[0] -> 0[1] [receive] via NET/.../0}) and leaves it by the same NET 0 from rank 1 through
     * proxy rank 0 (line 73: {@code 1[0] -> 2[1] [send] via NET/.../0(0)}): NCCL names a proxy rank only for a
     * GPU-to-NIC path of type PXN (NCCL 2.26 {@code src/graph/paths.cc ncclTopoGetNetDev}, then
     * {@code ncclTopoGetIntermediateRank}), so the ring graph kept crossNic 0 and reached typeInter PXN, where a
     * search that lets the last GPU leave by its own NIC in the same pass settles on PXB.
     */
    @Test
    void h20RingLeavesByItsEntryNicOverPxn() throws Exception {
        Dataset d = Corpus.read("D-info-alltoall-2x2xH20-tencent-vm-roce-bond-nccl2.26-issue-nccltests321.txt").get(0);
        ClusterGuess g = ClusterGuesser.guess(d).orElseThrow(() -> new AssertionError(ClusterGuesser.why(d)));
        ChannelPlan p = ChannelSearch.search(g.topology(), g.ranks(), NcclSettings.parse(Map.of()),
                NcclVersion.V2_25_1);
        assertEquals(PathType.PXN, p.graphs().ring().typeInter());
    }
}
