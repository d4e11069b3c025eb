package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Reads files of the corpus (../shared/data, copied to src/test/resources/data) and checks values read by hand
 * from the files: the cited line of each file holds the number asserted.
 */
class NcclTestsTextReaderTest {

    /** Two runs in one file (A-allgather-2x1xGB10...): line 22 (run 1) and line 42 (run 2), nccl-tests 2.18.3. */
    @Test
    void twoRunsInOneFileAreTwoDatasets() throws Exception {
        List<Dataset> ds = Corpus.read("A-allgather-2x1xGB10-dgxspark-roce200-switch-vs-direct.txt");
        assertEquals(2, ds.size());
        Dataset run1 = ds.get(0);
        assertEquals(Collective.ALL_GATHER, run1.collective());
        assertEquals(2, run1.nRanks());
        assertEquals(2, run1.nHosts());
        assertEquals("NVIDIA GB10", run1.gpuModel());
        assertEquals("2.28.9", run1.ncclRelease().text(), "nccl-library=22809 decodes to 2.28.9");
        assertEquals(DataType.FLOAT, run1.dataType());
        PerfPoint first = run1.points().get(0);
        assertEquals(22, first.line());
        assertEquals(1073741824L, first.sizeBytes());
        assertEquals(134217728L, first.count());
        assertEquals(27211.0, first.outOfPlace().timeUs(), 0);
        assertEquals(20.80, first.inPlace().busBw(), 0);
        assertEquals(0, first.outOfPlace().wrong());
        assertEquals(21.4033, run1.avgBusBw(), 0);
        assertEquals(191408, ds.get(1).points().get(0).outOfPlace().timeUs(), 0);
        assertEquals(42, ds.get(1).points().get(0).line());
    }

    /** Old format without root and with an 'error' column (nccl issue 450, line 15). */
    @Test
    void oldFormatWithoutRootColumn() throws Exception {
        Dataset d = Corpus.read("A-allreduce-4x8xV100-32GB-tcp-100GbE-problem-issue-nccl450.txt").get(0);
        assertEquals(Collective.ALL_REDUCE, d.collective());
        assertEquals(32, d.nRanks(), "header nodes_x_gpus 4x8");
        assertEquals(5, d.points().size());
        PerfPoint p = d.points().get(0);
        assertEquals(15, p.line());
        assertEquals(3597.6, p.outOfPlace().timeUs(), 0);
        assertEquals(4.52, p.outOfPlace().busBw(), 0);
        assertNull(p.outOfPlace().wrong(), "'error' 1e-06 is a max error, not a count");
        assertEquals("4", d.env().get("NCCL_MIN_NCHANNELS"));
    }

    /** srun -l prefixes (" 0: ") and N/A checks: nccl-tests issue 290, run 2 first row at line 59. */
    @Test
    void srunPrefixesAndNotChecked() throws Exception {
        List<Dataset> ds = Corpus.read("A-allreduce-1x8-and-2x8xH100-ndr-issue-nccltests290.txt");
        assertEquals(3, ds.size());
        Dataset run2 = ds.get(1);
        assertEquals(16, run2.nRanks());
        assertEquals(2, run2.nHosts());
        assertEquals(11, run2.points().size());
        PerfPoint p = run2.points().get(0);
        assertEquals(59, p.line());
        assertEquals(215.3, p.outOfPlace().timeUs(), 0);
        assertEquals(180.0, p.inPlace().timeUs(), 0);
        assertNull(p.outOfPlace().wrong());
        assertEquals("RING", ds.get(2).env().get("NCCL_ALGO"), "run 3 env from the header's 'run3:' segment");
        assertNull(ds.get(0).env().get("NCCL_ALGO"), "run 1 does not get run 3's settings");
    }

    /**
     * A run with no rank lines and five 0-byte rows before its first size (Cluster Toolkit's A3 Mega GKE output):
     * lines 15-19 are the 0-byte rows, line 20 the 256 B row (count 4 floats = 256 B / 4 B / 16 ranks), line 45 the
     * 8 GiB row; 2x8 from the header's nodes_x_gpus (line 4).
     */
    @Test
    void zeroByteRowsAndNoRankLines() throws Exception {
        Dataset d = Corpus.read("A-allgather-2x8xH100-gcp-a3mega-gke-tcpxo-cluster-toolkit.txt").get(0);
        assertEquals(Collective.ALL_GATHER, d.collective());
        assertEquals(16, d.nRanks());
        assertEquals(2, d.nHosts());
        List<PerfPoint> sized = d.points().stream().filter(p -> p.sizeBytes() > 0).toList();
        assertEquals(26, sized.size(), "256 B to 8 GiB, doubling");
        assertEquals(20, sized.get(0).line());
        assertEquals(256L, sized.get(0).sizeBytes());
        assertEquals(4L, sized.get(0).count());
        assertEquals(86.95, sized.get(0).outOfPlace().timeUs(), 0);
        assertEquals(88.21, sized.get(0).inPlace().timeUs(), 0);
        PerfPoint last = sized.get(25);
        assertEquals(45, last.line());
        assertEquals(8589934592L, last.sizeBytes());
        assertEquals(42668.7, last.outOfPlace().timeUs(), 0);
        assertEquals(188.90, last.inPlace().busBw(), 0);
    }

    /**
     * srun -l's '0: ' prefixes on a 32-size table from 8 B to 16 GiB (awsome-distributed-training's p5 Slurm output):
     * line 14 the 8 B row, line 45 the 16 GiB row; NCCL release from the header's container default (line 6).
     */
    @Test
    void srunPrefixedSweepFrom8Bytes() throws Exception {
        Dataset d = Corpus.read("A-allreduce-2x8xH100-aws-p5-efa-slurm-awsome-distributed-training.txt").get(0);
        assertEquals(Collective.ALL_REDUCE, d.collective());
        assertEquals(16, d.nRanks());
        assertEquals(2, d.nHosts());
        assertEquals(32, d.points().size());
        PerfPoint first = d.points().get(0);
        assertEquals(14, first.line());
        assertEquals(8L, first.sizeBytes());
        assertEquals(69.12, first.outOfPlace().timeUs(), 0);
        assertEquals(72.43, first.inPlace().timeUs(), 0);
        PerfPoint last = d.points().get(31);
        assertEquals(45, last.line());
        assertEquals(17179869184L, last.sizeBytes());
        assertEquals(66132, last.outOfPlace().timeUs(), 0);
        assertEquals(487.26, last.inPlace().busBw(), 0);
        assertEquals("2.20.3", d.ncclRelease().text());
    }

    /** mpirun --tag-output prefixes and an elided block ('...'): AWS p5 partial file. */
    @Test
    void mpirunPrefixesAndElision() throws Exception {
        Dataset d = Corpus.read("A-allreduce-2x8xH100-aws-p5-eks-efa-nccl2.18-partial.txt").get(0);
        assertEquals(7, d.points().size());
        assertEquals(0L, d.points().get(0).sizeBytes());
        assertEquals(437.89, d.peakBusBw().getAsDouble(), 0);
        assertTrue(d.notes().stream().anyMatch(n -> n.text().contains("elided")));
    }

    /**
     * The same file with its header lines under mpirun --tag-output's prefix too ("[1,0]<stdout>:#@ hardware: ..."):
     * the header is read as without it (line 3 names AWS p5.48xlarge, line 4 the 2x8 shape).
     */
    @Test
    void headerLinesUnderALauncherPrefixAreRead() throws Exception {
        String file = "A-allreduce-2x8xH100-aws-p5-eks-efa-nccl2.18-partial.txt";
        String tagged = Files.readString(Path.of("src/test/resources/data", file))
                .replaceAll("(?m)^#@", "[1,0]<stdout>:#@");
        Dataset d = NcclTestsTextReader.read(file, tagged).get(0);
        assertTrue(d.header().text("hardware").startsWith("AWS p5.48xlarge"), d.header().values().toString());
        assertEquals(3, d.header().line("hardware"));
        assertEquals(16, d.nRanks());
    }

    /** Truncated last row: the in-place half of line 21 is cut ("[truncated in source copy]"). */
    @Test
    void truncatedLastRowKeepsOutOfPlace() throws Exception {
        Dataset d = Corpus.read("D-info-partial-allreduce-1x2xH100-pcie-nvlink-bridge-issue-nccltests194.txt").get(0);
        assertEquals(3, d.points().size());
        PerfPoint last = d.points().get(2);
        assertEquals(21, last.line());
        assertEquals(36943, last.outOfPlace().timeUs(), 0);
        assertNull(last.inPlace());
        assertEquals(2, d.nRanks());
        assertTrue(d.notes().stream().anyMatch(n -> n.line() == 21 && n.text().contains("cut short")));
    }

    /** CRLF line ends give the same datasets as LF. */
    @Test
    void crlfIsRead() throws Exception {
        String lf = Corpus.text("A-allreduce-2x1xGH200-cscs-alps-slingshot-nccl2.30.txt");
        Dataset a = NcclTestsTextReader.read("x", lf).get(0);
        Dataset b = NcclTestsTextReader.read("x", lf.replace("\n", "\r\n")).get(0);
        assertEquals(a.points(), b.points());
        assertEquals(8, b.points().size());
        assertEquals(5871.07, b.points().get(7).outOfPlace().timeUs(), 0);
    }

    /** Six collectives in one file (RTX 2080 Ti): per-collective peaks read from the file's busbw columns. */
    @Test
    void sixRunsOfDifferentCollectives() throws Exception {
        List<Dataset> ds = Corpus.read("A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-autodl.txt");
        assertEquals(List.of(Collective.ALL_REDUCE, Collective.ALL_GATHER, Collective.BROADCAST, Collective.REDUCE,
                Collective.REDUCE, Collective.ALL_TO_ALL), ds.stream().map(Dataset::collective).toList());
        assertEquals(4.00, ds.get(0).peakBusBw().getAsDouble(), 0);
        // INDEX.md lists 7.7 for all_gather, which is the algbw (7.69); the busbw column peaks at 3.84.
        assertEquals(3.84, ds.get(1).peakBusBw().getAsDouble(), 0);
        assertEquals(11.09, ds.get(2).peakBusBw().getAsDouble(), 0);
        assertEquals(11.14, ds.get(3).peakBusBw().getAsDouble(), 0);
        assertEquals(1, ds.get(4).nRanks(), "the single-GPU reduce_perf run");
        assertEquals(4.73, ds.get(5).peakBusBw().getAsDouble(), 0);
    }

    /** A paste whose header says all_reduce but whose rows are those of a 16-rank alltoall: read with a note. */
    @Test
    void contradictedHeaderClaimIsNoted() throws Exception {
        Dataset d = Corpus.read("A-allgather-2x8xA100-80GB-roce-bond-ring-inconsistent-paste.txt").get(0);
        assertEquals(16, d.nRanks());
        assertEquals(Collective.ALL_TO_ALL, d.collective());
        assertTrue(d.notes().stream().anyMatch(n -> n.text().contains("claims all_reduce")));
        assertEquals(38.01, d.peakBusBw().getAsDouble(), 0);
    }

    /** GB200 NVL72 vendor file: the hand-typed count column (107374124 for 4 GiB) is flagged, not trusted. */
    @Test
    void wrongCountColumnIsNoted() throws Exception {
        List<Dataset> ds = Corpus.read("A-allreduce-alltoall-GB200-NVL72-oci-1to48nodes-mnnvl-nccl2.27.txt");
        assertEquals(9, ds.size());
        assertEquals(Collective.ALL_REDUCE, ds.get(1).collective());
        assertEquals(64, ds.get(1).nRanks(),
                "title says 8 GPUs, nccl-tests' busbw/algbw 1.96875 = 2 x 63 / 64 (FactorRanks)");
        assertEquals(4, ds.get(0).nRanks(), "title says 4 GPUs, busbw/algbw 1.5 = 2 x 3 / 4");
        assertEquals(Collective.ALL_TO_ALL, ds.get(5).collective());
        assertTrue(ds.get(0).notes().stream().anyMatch(n -> n.line() == 24 && n.text().contains("107374124")));
    }

    /** Footer-only runs (table elided by the author) keep their 'Avg bus bandwidth' (B200 file, runs 2 and 3). */
    @Test
    void footerOnlyRuns() throws Exception {
        List<Dataset> ds = Corpus.read("A-allgather-2x8xB200-gke-a4-dranet-gib-nccl2.26.txt");
        assertEquals(3, ds.size());
        assertEquals(DatasetKind.FOOTER_ONLY, ds.get(1).kind());
        assertEquals(22.2173, ds.get(1).avgBusBw(), 0);
        assertEquals(4, ds.get(1).nHosts(), "ranks on pod0..pod3");
        assertEquals(16, ds.get(2).nRanks(), "title: 4 pods x 4 GPUs");
        assertEquals(11.2291, ds.get(2).avgBusBw(), 0);
    }

    @Test
    void perRunEnvFromLabelledHeader() throws Exception {
        List<Dataset> ds = Corpus.read("A-allreduce-1x8-2x8xA100-40GB-oci-bmgpu48-roce-10GiB.txt");
        assertEquals(Map.of(), ds.get(0).env());
        assertEquals("1", ds.get(1).env().get("NCCL_IGNORE_CPU_AFFINITY"));
        assertEquals("4", ds.get(3).env().get("NCCL_IB_QPS_PER_CONNECTION"));
        assertNull(ds.get(1).env().get("NCCL_IB_QPS_PER_CONNECTION"));
    }

    /**
     * collsim run's own table states the NCCL library it loaded as nccl-tests does, in its first line
     * ({@code data/device/h100x1-2026-12-06/all_reduce.txt} line 1: {@code nccl-library=22803}, 2.28.3 by NCCL's code
     * major x 10000 + minor x 100 + patch).
     */
    @Test
    void collsimRunLineStatesTheLibraryRelease() throws Exception {
        Dataset d = MeasurementReader.read(Path.of("../data/device/h100x1-2026-12-06/all_reduce.txt"))
                .get(0);
        assertEquals("2.28.3", d.ncclRelease().text());
        assertEquals(1, d.nRanks());
    }

    /**
     * A machine file given where a measurement goes (diagnose FILE, compare -m FILE) is named as what it is and sent
     * to -c: the DGX A100's nvidia-smi topo -m text and Azure's ND H100 v5 topology XML (public files of the project).
     */
    @Test
    void aMachineFileIsNamedAsOne() throws Exception {
        Path dir = Path.of("../topology-model/src/test/resources/dev/collsim/topology/io");
        for (String f : List.of("B-topo-dgx-a100.txt", "C-topo-azure-ndv5-8xH100.xml")) {
            InputException e = assertThrows(InputException.class,
                    () -> NcclTestsTextReader.read(f, Files.readString(dir.resolve(f))));
            String what = f.endsWith(".xml") ? "NCCL topology XML" : "nvidia-smi topo -m text";
            assertTrue(e.getMessage().contains(f + ": holds " + what + ", which describes a machine, not a"
                    + " measurement; give it to -c/--cluster"), e.getMessage());
        }
    }
}
