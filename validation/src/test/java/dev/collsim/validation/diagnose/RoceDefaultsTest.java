package dev.collsim.validation.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.validation.diagnose.Finding.Kind;
import dev.collsim.validation.ingest.MeasurementReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The two-host OCI BM.GPU4.8 runs over RoCE (16 x 100 Gb/s a host, 200 GB/s NCCL ring bound, under half of it is far
 * below): the slow runs, which leave NCCL_IB_QPS_PER_CONNECTION unset, get NCCL's RoCE defaults as candidate causes;
 * the runs with NCCL_IB_QPS_PER_CONNECTION=4 NCCL_IB_GID_INDEX=3 do not. Figures read from the files' lines.
 */
class RoceDefaultsTest {

    private static List<Diagnoser.Diagnosis> diagnose(String file) throws Exception {
        Path p = Path.of("src/test/resources/data", file);
        return new Diagnoser().diagnose(MeasurementReader.read(p), Files.readAllLines(p));
    }

    private static Optional<Finding> roce(Diagnoser.Diagnosis d) {
        return d.findings().stream().filter(f -> f.kind() == Kind.ROCE_DEFAULTS).findFirst();
    }

    private static List<Integer> lines(Finding f) {
        return f.evidence().stream().map(Finding.Evidence::line).toList();
    }

    /**
     * Run (a2): 57.04 GB/s busbw at 10 GiB (line 59), 29 % of 200; the header's env for it (line 7) sets neither
     * setting; its release, 2.26.5 (line 6), picks the GID itself (2.21 and later), so only the QP count is named.
     * Run (b2) sets both (line 84's title) and reaches 225.05 (line 108).
     */
    @Test
    void theSlowRunOf2265GetsTheQpCountOnly() throws Exception {
        List<Diagnoser.Diagnosis> ds = diagnose("A-allreduce-1x8-2x8xA100-40GB-oci-bmgpu48-roce-10GiB.txt");
        Finding f = roce(ds.get(1)).orElseThrow(() -> new AssertionError(ds.get(1).findings().toString()));
        assertTrue(f.message().contains("NCCL_IB_QPS_PER_CONNECTION is not set"), f.message());
        assertFalse(f.message().contains("NCCL_IB_GID_INDEX"), f.message());
        assertEquals(List.of(5, 7, 59), lines(f)); // interconnect 'RoCEv2', env, the peak
        assertTrue(roce(ds.get(3)).isEmpty());
        assertTrue(roce(ds.get(0)).isEmpty()); // one host
    }

    /**
     * Horovod run 2: 71.56 GB/s at 8 GiB (line 110), 36 % of 200; NCCL 2.9.9 (line 6) has no QP setting and uses GID
     * index 0 (v2.9.9-1 net_ib.cc line 56); the env (line 7) sets no GID index.
     */
    @Test
    void nccl299HasOneQpAndGidZero() throws Exception {
        Finding f = roce(diagnose("A-allreduce-1x8-2x8xA100-40GB-oci-bmgpu48-horovod-container-sweep.txt").get(1))
                .orElseThrow();
        assertTrue(f.message().contains("NCCL 2.9.9 has one queue pair (QP) per connection"), f.message());
        assertTrue(f.message().contains("NCCL_IB_GID_INDEX is not set and NCCL 2.9.9 predates 2.21"), f.message());
        assertEquals(List.of(5, 7, 6, 110), lines(f));
    }

    /**
     * The ocitutorials run: 87.18 GB/s at 1 GiB (line 58), 44 % of 200; "nccl_version: unknown" and "date: unknown
     * (2022?: ...)" (lines 6, 2), so the GID index is named for a release before 2.21.
     */
    @Test
    void anUnstatedReleaseGetsBoth() throws Exception {
        Finding f = roce(diagnose("A-allreduce-2x8xA100-40GB-oci-bmgpu48-cluster-network-roce-ocitutorials-64B-1G.txt")
                .get(0)).orElseThrow();
        assertTrue(f.message().contains("NCCL_IB_QPS_PER_CONNECTION is not set"), f.message());
        assertTrue(f.message().contains("the file states no NCCL release"), f.message());
        assertEquals(List.of(5, 7, 6, 58), lines(f));
    }

    /** OKE over SR-IOV: NCCL_IB_GID_INDEX=3 NCCL_IB_QPS_PER_CONNECTION=4 (env, line 7), 237.94 GB/s (line 63). */
    @Test
    void theTunedRunGetsNone() throws Exception {
        for (Diagnoser.Diagnosis d : diagnose("A-allreduce-2x8xA100-40GB-oci-oke-sriov-roce-nccl2.26.txt")) {
            assertTrue(roce(d).isEmpty(), d.findings().toString());
        }
    }

    /**
     * DGX Spark run 2, "direct QSFP cable" (title, line 30): 2.83 GB/s busbw of 25 (line 43), far below, over RoCE, but
     * no switch and so no ECMP; NCCL 2.28.9 picks the GID: nothing to name.
     */
    @Test
    void aDirectCableHasNoPathsToSpread() throws Exception {
        for (Diagnoser.Diagnosis d : diagnose("A-allgather-2x1xGB10-dgxspark-roce200-switch-vs-direct.txt")) {
            assertTrue(roce(d).isEmpty(), d.findings().toString());
        }
    }

    /** An InfiniBand run far below its bound (CoreWeave, 8 x 200 Gb/s HDR) is not RoCE. */
    @Test
    void infinibandIsNotRoce() throws Exception {
        Diagnoser.Diagnosis d = diagnose("A-allreduce-16x8xA100-80GB-coreweave-ib-mpi-operator-nccl2.12.txt").get(0);
        assertTrue(d.findings().stream().anyMatch(f -> f.kind() == Kind.FAR_BELOW_BOUND));
        assertTrue(roce(d).isEmpty());
    }
}
