package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The GCP gIB AllGather runs on 2 x 8 GPUs, read as docs/gcp-gib.md uses them: the release each states and the
 * out-of-place floor below 64 KiB. Expected values are read off the files by hand: the A4 VM sample prints
 * "NCCL version 2.25.1+cuda12.8" and its 4 KiB row has count 64 (4096 B / 4 B / 64 = 16 ranks); the A3 Ultra DWS
 * flex-start header infers 2.25.1 from its gIB v1.0.5 installer; SkyPilot's run 2 prints 2.26.6.
 */
class GibReleaseFloorsTest {

    private static final String A4_VM = "A-allgather-2x8xB200-gcp-a4-gib-vm-nccl2.25.txt";
    private static final String DWS_FLEX = "A-allgather-2x8xH200-gcp-a3ultra-gke-gib-dws-flex-cluster-toolkit.txt";
    private static final String SKYPILOT = "A-allgather-2x8xH200-gcp-a3ultra-gke-gib-skypilot-nccl2.26.txt";

    /** The A4 VM sample: all_gather on 16 ranks (4 KiB row, count 64 floats), NCCL 2.25.1 as printed. */
    @Test
    void theA4VmSampleIsA16RankAllGatherOn2251() {
        Dataset d = Corpus.read(A4_VM).get(0);
        assertEquals(Collective.ALL_GATHER, d.collective());
        assertEquals(16, d.nRanks());
        assertEquals(new NcclRelease(25, 1), d.ncclRelease());
        assertEquals(23, d.points().size(), "4 KiB to 16 GiB, factor 2");
    }

    /**
     * The floors docs/gcp-gib.md compares: the smallest out-of-place time below 64 KiB is 54.07 us (DWS flex-start,
     * 1 KiB row) and 58.17 us (A4 VM, 8 KiB row) on the 2.25.1 runs, 28.05 us on SkyPilot's 2.26.6 run 2 (2 KiB row).
     */
    @Test
    void the2251RunsSitAboutTwiceAsHighAsThe2266Run() {
        Dataset dws = Corpus.read(DWS_FLEX).get(0);
        Dataset a4 = Corpus.read(A4_VM).get(0);
        List<Dataset> sky = Corpus.read(SKYPILOT);
        Dataset sky2 = sky.get(sky.size() - 1);
        assertEquals(new NcclRelease(25, 1), dws.ncclRelease());
        assertEquals(new NcclRelease(26, 6), sky2.ncclRelease());
        assertEquals(54.07, floorUs(dws), 1e-9);
        assertEquals(58.17, floorUs(a4), 1e-9);
        assertEquals(28.05, floorUs(sky2), 1e-9);
        assertTrue(floorUs(dws) > 1.9 * floorUs(sky2));
    }

    private static double floorUs(Dataset d) {
        return d.points().stream()
                .filter(p -> p.row().size() < 65536)
                .mapToDouble(p -> p.row().outOfPlace().timeUs())
                .min().orElseThrow();
    }
}
