package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A {@code #@ nccl_version} header that states a release per run applies each statement to its own runs only
 * ({@link RunEnv#statementForRun}); a run whose statement is "unknown" or "not printed" takes what a run that states
 * none takes.
 */
class PerRunReleaseTest {

    /**
     * The OCI 10 GiB file, line 6: "(a) 2.26.5 (NVIDIA HPC SDK 25.5, OpenMPI 5.0.6); (b) unknown (NGC TensorFlow
     * container)". Its runs are titled (a1) line 10, (a2) line 33, (b1) line 64, (b2) line 84: (a1) and (a2) ran
     * 2.26.5, (b1) and (b2) state none. Its date, line 2, "(a) 2025 (...); (b) ~2023", is no one date, so (b2) takes
     * no dated release either.
     */
    @Test
    void aLetterLabelAppliesToThatLettersRunsOnly() throws Exception {
        List<Dataset> ds = Corpus.read("A-allreduce-1x8-2x8xA100-40GB-oci-bmgpu48-roce-10GiB.txt");
        assertEquals(4, ds.size());
        assertEquals("2.26.5", ds.get(0).ncclRelease().text());
        assertEquals("2.26.5", ds.get(1).ncclRelease().text());
        assertFalse(ds.get(2).ncclRelease().known());
        assertFalse(ds.get(3).ncclRelease().known());
        assertFalse(ds.get(3).runRelease().known());
    }

    /**
     * awsome-distributed-training's scatter file, line 6: "run 2 2.18.3+cuda12.2 (printed); run 1 not printed (the
     * test case's Dockerfile of 5437d3d6 names NCCL_VERSION v2.12.7-1, ...)". Run 1 (line 11) states none: neither run
     * 2's release nor the Dockerfile's named in the remark. Run 2 (line 45) prints 2.18.3 (line 65).
     */
    @Test
    void aRunNotPrintedTakesNeitherTheOtherRunsReleaseNorItsRemarks() throws Exception {
        List<Dataset> ds = Corpus.read(
                "A-scatter-2x8xA100-40GB-aws-p4d-efa-slurm-awsome-distributed-training-nccl2.18.txt");
        assertFalse(ds.get(0).ncclRelease().known());
        assertEquals("2.18.3", ds.get(1).ncclRelease().text());
    }

    /** The statement alone: a letter label covers its numbered runs, a numbered one its own, remarks dropped. */
    @Test
    void statementForRunKeepsTheRunsOwnSegmentWithoutRemarks() {
        String text = "(a) 2.26.5 (NVIDIA HPC SDK 25.5, OpenMPI 5.0.6); (b) unknown (NGC TensorFlow 2.12 image)";
        assertEquals("2.26.5", NcclRelease.parse(RunEnv.statementForRun(text, "(a2) 2 nodes x 8 GPU")).text());
        assertFalse(NcclRelease.parse(RunEnv.statementForRun(text, "(b1) 1 node")).known());
        assertEquals("2.16.2", NcclRelease.parse(RunEnv.statementForRun("run 1 2.16.2+cuda11.6; run 2 2.12.12",
                "run 1: one node")).text());
        assertEquals("2.20.5", NcclRelease.parse(RunEnv.statementForRun("2.20.5 (printed)", "run 3: x")).text());
    }
}
