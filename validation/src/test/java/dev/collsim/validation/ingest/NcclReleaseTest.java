package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.PathType;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The NCCL release a file states, from the texts and codes the corpus holds. */
class NcclReleaseTest {

    /** Texts of the corpus' {@code #@ nccl_version} headers and INFO logs (each file's line 6, or its log). */
    @Test
    void theFirstNccl2ReleaseInATextIsTaken() {
        assertEquals(new NcclRelease(20, 5), NcclRelease.parse("2.20.5+cuda12.4"));
        assertEquals(new NcclRelease(27, 3), NcclRelease.parse("likely 2.27.3 (per install instructions in same note)"));
        // a container's 24.06 and a CUDA 12.8 are not NCCL releases
        assertEquals(new NcclRelease(21, 5), NcclRelease.parse("NCCL bundled in NGC TensorFlow 24.06 (~2.21.5)"));
        assertEquals(new NcclRelease(30, 7), NcclRelease.parse("2.30.7 (nccl-headers=23007), nccl-tests 2.18.2"));
        assertEquals(new NcclRelease(26, -1), NcclRelease.parse("nccl 2.26"));
        assertEquals("2.26", NcclRelease.parse("nccl 2.26").text());
        assertEquals(NcclRelease.UNKNOWN, NcclRelease.parse("unknown (aws-do-eks cuda-efa-nccl-tests image)"));
        assertEquals(NcclRelease.UNKNOWN, NcclRelease.parse("cuda12.8, driver 580.105.08"));
        assertEquals(NcclRelease.UNKNOWN, NcclRelease.parse(null));
        assertEquals("", NcclRelease.UNKNOWN.text());
    }

    /**
     * The release current at a date: tag commit dates read from github.com/NVIDIA/nccl ({@code git for-each-ref
     * refs/tags}): v2.21.5-1 2024-04-02, v2.22.3-1 2024-06-19, v2.23.4-1 2024-09-16, v2.24.3-1 2025-01-07,
     * v2.26.6-1 2025-05-20, v2.27.3-1 2025-05-29, v2.27.5-1 2025-06-18, v2.19.3-1 2023-09-26, v2.18.6-1 2023-10-10.
     */
    @Test
    void theReleaseCurrentAtADate() {
        assertEquals("2.22.3", NcclRelease.currentAt("2024").text(), "a year alone is read as 30 June: 2.22.3 (06-19)");
        assertEquals("2.27.5", NcclRelease.currentAt("2025").text(), "2025-06-30: 2.27.5 (06-18), 2.27.6 is 07-11");
        assertEquals("2.21.5", NcclRelease.currentAt("2024-04").text(), "April 2024 ends after 2.21.5 (04-02)");
        assertEquals("2.22.3", NcclRelease.currentAt("2024-08").text(), "August 2024: still 2.22.3");
        assertEquals("2.23.4", NcclRelease.currentAt("2024-09").text(), "2.23.4 was tagged on 2024-09-16");
        assertEquals("2.22.3", NcclRelease.currentAt("2024-09-15").text(), "the day before 2.23.4");
        assertEquals("2.23.4", NcclRelease.currentAt(" 2024-09-16 ").text(), "the day itself");
        assertEquals("2.26.6", NcclRelease.currentAt("2025-05-28").text(), "2.26.6 (05-20), 2.27.3 is 05-29");
        assertEquals("2.19.3", NcclRelease.currentAt("2023-10-10").text(), "2.18.6 (10-10) is older than 2.19.3");
        assertEquals("2.3", NcclRelease.currentAt("2017").text(), "before 2.3.7 (2018-10-24)");
        assertEquals(NcclRelease.UNKNOWN, NcclRelease.currentAt("2024-2025"), "a range is not one date");
        assertEquals(NcclRelease.UNKNOWN, NcclRelease.currentAt("unknown (2024?)"));
        assertEquals(NcclRelease.UNKNOWN, NcclRelease.currentAt("2025-06 (ResourceClaims created 2025-06-12)"));
        assertEquals(NcclRelease.UNKNOWN, NcclRelease.currentAt("2024-13"), "no 13th month");
        assertEquals(NcclRelease.UNKNOWN, NcclRelease.currentAt(null));
    }

    /** NCCL_VERSION_CODE (NCCL src/nccl.h.in): 2.9 on, major*10000 + minor*100 + patch; before, major*1000 + .... */
    /**
     * The #@ date line of A-allreduce-1x2xA100pcie-azure-nc48v4-srun-graph-vs-topo-file.txt and its nc96v4 twin: the
     * leading 2023-07 is read, whose month's end (2023-07-31) follows 2.18.3 (tagged 2023-06-14) and precedes 2.18.5
     * (2023-08-23). Ranges and leading words stay as they are, and so are refused by currentAt.
     */
    @Test
    void leadingDateBeforeARemark() {
        String header = "2023-07 (nvidia-smi on the page: Fri Jul 14 2023)";
        assertEquals("2023-07", NcclRelease.leadingDate(header));
        assertEquals("2.18.3", NcclRelease.currentAt(NcclRelease.leadingDate(header)).text());
        assertEquals("2024-09-24", NcclRelease.leadingDate(" 2024-09-24 (the commits)"));
        assertEquals("2025-06/07 (the commits)", NcclRelease.leadingDate("2025-06/07 (the commits)"));
        assertEquals(NcclRelease.UNKNOWN, NcclRelease.currentAt(NcclRelease.leadingDate("2024-2025 (doc revision)")));
        assertEquals(NcclRelease.UNKNOWN, NcclRelease.currentAt(NcclRelease.leadingDate("unknown (2024?)")));
        assertEquals("", NcclRelease.leadingDate(null));
    }

    @Test
    void versionCodes() {
        assertEquals("2.28.9", NcclRelease.fromCode(22809).text());
        assertEquals("2.30.7", NcclRelease.fromCode(23007).text());
        assertEquals("2.8.4", NcclRelease.fromCode(2804).text());
        assertFalse(NcclRelease.fromCode(0).known());
    }

    /** Only a stated release is before another; an unknown one is before nothing. */
    @Test
    void before() {
        assertTrue(new NcclRelease(22, 3).before(23));
        assertFalse(new NcclRelease(23, 4).before(23));
        assertFalse(NcclRelease.UNKNOWN.before(23));
    }

    /** The readers put the release on the dataset: the OCI header (line 6) and INFO logs say 2.27.3+cuda12.8. */
    @Test
    void theReadersStateItOnTheDataset() {
        Dataset d = Corpus.read("A-allreduce-alltoall-GB200-NVL72-oci-1to48nodes-mnnvl-nccl2.27.txt").get(0);
        assertEquals(new NcclRelease(27, 3), d.ncclRelease());
    }

    /**
     * NCCL's path-type numbers as each release defines them ({@code #define PATH_*} of {@code src/graph/topo.h},
     * {@code src/include/graph.h} from 2.30), read at the tags: v2.16.5-1 PHB 6, SYS 7; v2.26.6-1 C2C 3, PXN 6, PHB 7;
     * v2.27.3-1 PXN 6, P2C 7, PHB 8; v2.27.5-1 and v2.30.7-1 P2C 6, PXN 7, PHB 8, SYS 9; v2.11.4-1 PHB 5 (no PXN).
     * The A100 PCIe file's NCCL 2.16.5 lines {@code (distance 6 > 4)} and {@code (distance 7 <= 7)} are PHB beyond PXB
     * and SYS within SYS.
     */
    @Test
    void pathTypeNumbersFollowTheRelease() {
        NcclRelease r216 = new NcclRelease(16, 5);
        assertEquals(Optional.of(PathType.PHB), r216.pathType(6));
        assertEquals(Optional.of(PathType.PXB), r216.pathType(4));
        assertEquals(Optional.of(PathType.SYS), r216.pathType(7));
        assertEquals(Optional.of(PathType.PXN), new NcclRelease(26, 6).pathType(6));
        assertEquals(Optional.of(PathType.PHB), new NcclRelease(26, 6).pathType(7));
        assertEquals(Optional.of(PathType.P2C), new NcclRelease(27, 3).pathType(7));
        assertEquals(Optional.of(PathType.P2C), new NcclRelease(30, 7).pathType(6));
        assertEquals(Optional.of(PathType.PHB), new NcclRelease(30, 7).pathType(8));
        assertEquals(Optional.of(PathType.PHB), new NcclRelease(11, 4).pathType(5));
        assertEquals(Optional.of(PathType.PHB), new NcclRelease(27, -1).pathType(8), "8 is PHB in every 2.27");
        assertEquals(Optional.empty(), new NcclRelease(27, -1).pathType(6), "6 is PXN in 2.27.3, P2C in 2.27.5");
        assertEquals(Optional.empty(), NcclRelease.UNKNOWN.pathType(6));
        assertEquals(Optional.empty(), r216.pathType(8), "NET and DIS are no GPU-NIC distance");
    }
}
