package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /** NCCL_VERSION_CODE (NCCL src/nccl.h.in): 2.9 on, major*10000 + minor*100 + patch; before, major*1000 + .... */
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
}
