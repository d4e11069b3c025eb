package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * How every one-host file of the corpus that says how it was launched is read: one process driving G GPUs
 * (nccl-tests {@code -g G}, whose host launch {@code simulator.HostLaunch} charges) or one process per GPU. Each
 * expected shape is read by hand off the line cited.
 */
class SingleHostLaunchTest {

    /** One thread of 1, 2, 4 GPUs, nccl-tests' default 20 timed calls ({@code iters: 20 agg iters: 1}). */
    private static final LaunchShape G1 = new LaunchShape(1, 1, 0, 20);
    private static final LaunchShape G2 = new LaunchShape(1, 2, 0, 20);
    private static final LaunchShape G4 = new LaunchShape(1, 4, 0, 20);

    private static List<LaunchShape> shapes(String file) throws Exception {
        return Corpus.read(file).stream().map(Dataset::launch).toList();
    }

    @Test
    void headerCommandLines() throws Exception {
        // line 8 of each: "... all_reduce_perf -b 8 -e 8G -f 2 -g 8 -n 40", "... -g 4 -n 40",
        // "all_reduce_perf -g 4 -n 500"
        assertEquals(List.of(new LaunchShape(1, 8, 0, 40)),
                shapes("A-allreduce-8xH100-azure-ndv5-nvls-nccl2.18-busbw-table.txt"));
        assertEquals(List.of(new LaunchShape(1, 4, 0, 40)),
                shapes("A-allreduce-4xGB200-azure-ndgb200v6-ring-nccl2.25-busbw-table.txt"));
        LaunchShape n500 = new LaunchShape(1, 4, 0, 500);
        assertEquals(List.of(n500, n500), shapes("A-allreduce-1x4xRTXPRO6000-dual-turin-shm-vs-p2p-nccl2.29-pr2080.txt"));
        // line 8: "custom Python torch.distributed all_reduce timing script (not nccl-tests)": one process per GPU,
        // which the file does not spell out, so nothing is known (compare assumes -g 1)
        assertTrue(shapes("A-allreduce-1x8xRTXPRO6000-wrx90-cpayne-pcie-switches-torchdist-ring-nccl2.27.txt")
                .stream().noneMatch(LaunchShape::known));
    }

    @Test
    void nThreadLinesOfEachRun() throws Exception {
        // "# nThread 1 nGpus 2" at lines 14, 57, 101, 145, 189, 233; "nGpus 4" at lines 14, 59, ..., 333 (8 runs)
        assertEquals(List.of(G2, G2, G2, G2, G2, G2),
                shapes("A-allreduce-1x2xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt"));
        assertEquals(List.of(G4, G4, G4, G4, G4, G4, G4, G4),
                shapes("A-allreduce-1x4xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt"));
        // line 10: "# nThread 1 nGpus 4 ... warmup iters: 30 iters: 100 agg iters: 1"
        assertEquals(List.of(new LaunchShape(1, 4, 0, 100)),
                shapes("A-allreduce-1x4xV100-sxm2-modified-nccltests-nccl2.26-problem.txt"));
        // line 11: "# nThread 1 nGpus 8 ... warmup iters: 5 iters: 2 agg iters: 1"; line 36, under srun's " 0: "
        // prefix, "# nThread 1 nGpus 1 ... iters: 200 agg iters: 1", which runs 2 and 3 share
        LaunchShape n200 = new LaunchShape(1, 1, 0, 200);
        assertEquals(List.of(new LaunchShape(1, 8, 0, 2), n200, n200),
                shapes("A-allreduce-1x8-and-2x8xH100-ndr-issue-nccltests290.txt"));
        // "# nThread 1 nGpus 2" at lines 11, 53, 95, 138, 222; "nGpus 1" at line 180: the single-GPU reduce_perf run
        assertEquals(List.of(G2, G2, G2, G2, G1, G2),
                shapes("A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-autodl.txt"));
    }

    /**
     * OCI's GB200 page, line 11: "### AllReduce single host (4 GPUs): ./build/all_reduce_perf ... -g 4"; line 12
     * "# nThread 1 nGpus 1 minBytes 524288" (the multi-host runs' -b 512K); lines 15-18: Rank 0-3 all "Pid 149822 on
     * node01": one process drove the 4 GPUs. Line 50 titles the AlltoAll run "... alltoall_perf ... -g 4" and has no
     * nThread line; the header's command (line 8) ends with the multi-host "-g 1".
     */
    @Test
    void rankLinesAndSectionTitlesOverruleAPastedLaunchLine() throws Exception {
        List<Dataset> ds = Corpus.read("A-allreduce-alltoall-GB200-NVL72-oci-1to48nodes-mnnvl-nccl2.27.txt");
        Dataset allReduce = ds.get(0);
        assertEquals(21, allReduce.line());
        assertEquals(G4, allReduce.launch());
        assertTrue(allReduce.notes().stream().anyMatch(n -> n.isWarning() && n.line() == 15
                && n.text().contains("nThread 1 nGpus 1") && n.text().contains("-g 4")), allReduce.notes().toString());
        Dataset allToAll = ds.stream().filter(d -> d.line() == 52).findFirst().orElseThrow();
        assertEquals(G4, allToAll.launch());
        assertEquals(new LaunchShape(1, 1, 0, 50), ds.get(1).launch(), "2 hosts: mpirun ... -g 1 -n 50 (header line 8)");
    }

    private static List<RankInfo> ranks(int... pids) {
        return IntStream.range(0, pids.length)
                .mapToObj(r -> new RankInfo(r, 0, pids[r], "h", r % 8, "0x1", "GPU", 20 + r)).toList();
    }

    @Test
    void onlyAUniformLargerCountPerProcessOverrules() {
        List<Note> notes = new ArrayList<>();
        // 2 processes x 4 ranks under "-t 2 -g 1": T x G = 2 < 4, so 2 threads of 2 GPUs (the timed calls kept)
        assertEquals(new LaunchShape(2, 2, 3, 40),
                RanksPerProcess.check(new LaunchShape(2, 1, 3, 40), ranks(7, 7, 7, 7, 9, 9, 9, 9), notes));
        assertEquals(1, notes.size());
        assertEquals(20, notes.get(0).line());
        // a list cut short (3 of a -g 8 process's lines) shows fewer, never more: kept
        LaunchShape g8 = new LaunchShape(1, 8, 0, 20);
        assertSame(g8, RanksPerProcess.check(g8, ranks(5, 5, 5), notes));
        // processes that disagree (4 and 2 lines) say nothing about the split: kept
        assertSame(G1, RanksPerProcess.check(G1, ranks(1, 1, 1, 1, 2, 2), notes));
        // counts that match, or no Rank lines, or no shape: kept
        assertSame(G4, RanksPerProcess.check(G4, ranks(3, 3, 3, 3), notes));
        assertSame(G4, RanksPerProcess.check(G4, List.of(), notes));
        assertFalse(RanksPerProcess.check(LaunchShape.UNKNOWN, ranks(3, 3), notes).known());
        assertEquals(1, notes.size());
    }
}
