package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.validation.compare.Comparer;
import dev.collsim.validation.compare.ComparisonText;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Reduced tables and summaries of the corpus, with values read from the cited lines. */
class MarkdownTableReaderTest {

    /** Talos DGX H100 report: two tables; 8 GiB rows at lines 28 and 47. Time = size / algbw. */
    @Test
    void talosReducedTables() throws Exception {
        List<Dataset> ds = Corpus.read("A-allreduce-1x8-2x8xH100-dgx-talos-nccl2.22-table.txt");
        assertEquals(2, ds.size());
        Dataset intra = ds.get(0);
        assertEquals(8, intra.nRanks());
        assertEquals(DatasetKind.REDUCED_TABLE, intra.kind());
        PerfPoint last = intra.points().get(13);
        assertEquals(28, last.line());
        assertEquals(8589934592L, last.sizeBytes());
        assertEquals(476.85, last.peakBusBw(), 0);
        assertEquals(8589934592.0 / 272.49e3, last.primary().timeUs(), 1e-6);
        assertEquals(16, ds.get(1).nRanks());
        assertEquals(437.58, ds.get(1).peakBusBw().getAsDouble(), 0);
    }

    /** Azure ND A100 v4: '65K' is 65536 and '132K' is 131072 (powers of two printed as truncated decimals). */
    @Test
    void azureBusBwTable() throws Exception {
        Dataset d = Corpus.read("A-allreduce-8xA100-azure-ndv4-nccl2.18-busbw-table.txt").get(0);
        assertEquals(24, d.points().size());
        assertEquals(65536L, d.points().get(6).sizeBytes());
        assertEquals(33, d.points().get(6).line());
        assertEquals(131072L, d.points().get(7).sizeBytes());
        assertEquals(231.58, d.peakBusBw().getAsDouble(), 0);
        // algbw = busbw / (2*7/8), time = size / algbw: 8 GiB at 231.58 GB/s busbw
        assertEquals(8589934592.0 / (231.58 / 1.75) / 1e3, d.points().get(23).primary().timeUs(), 1e-6);
    }

    /**
     * Azure ND H100 v5 busbw table: times come from 2-decimal busbw, so the rounding alone bounds each time's error.
     * By hand: line 27 "0.07" stands for [0.065, 0.075), the time up to 0.005 / 0.065 = 7.7 % longer; line 29 "0.27"
     * 0.005 / 0.265 = 1.9 %; line 30 "0.53" 0.005 / 0.525 = 0.95 %, and every later value is larger: under 1 % from
     * 8K = 8192 B.
     */
    @Test
    void printedDecimalsBoundTheDerivedTimes() throws Exception {
        Dataset d = Corpus.read("A-allreduce-8xH100-azure-ndv5-nvls-nccl2.18-busbw-table.txt").get(0);
        String note = d.notes().stream().map(Note::text).filter(s -> s.startsWith("reduced table")).findFirst()
                .orElseThrow();
        assertTrue(note.endsWith("; the printed decimals alone leave the time up to 7.7 % long at 1024 B (line 27), "
                + "under 1 % from 8192 B"), note);
        // the same figures as a field of the dataset: line 27 "0.07" at 1K, quiet from 8K
        assertEquals(0.005 / 0.065, d.rounding().worstFraction(), 1e-12);
        assertEquals(1024L, d.rounding().worstBytes());
        assertEquals(27, d.rounding().worstLine());
        assertEquals(8192L, d.rounding().quietFromBytes());
        assertEquals(0.005, PrintedRounding.halfUnit("**3.44 GB/s**"), 1e-12);
        assertEquals(0.5, PrintedRounding.halfUnit("12"), 0);
        assertTrue(Double.isNaN(PrintedRounding.halfUnit("1.5e3")));
        assertTrue(Double.isNaN(PrintedRounding.timeBound(0.00, 0.005)), "0.00 bounds nothing");
    }

    /**
     * compare prints the rounding from the dataset's field, not from its note: with the notes taken away the line is
     * still there, word for word as the note says it (figures by hand in {@link #printedDecimalsBoundTheDerivedTimes});
     * a table whose times are printed (the Talos report's algbw and time columns) has none.
     */
    @Test
    void compareReadsTheRoundingField() throws Exception {
        Dataset d = Corpus.read("A-allreduce-8xH100-azure-ndv5-nvls-nccl2.18-busbw-table.txt").get(0);
        Dataset noNotes = new Dataset(d.file(), d.label(), d.line(), d.kind(), d.collective(), d.dataType(),
                d.nRanks(), d.nHosts(), d.gpuModel(), d.ncclRelease(), d.env(), d.header(), d.ranks(), d.points(),
                d.avgBusBw(), d.summaryMaxBusBw(), d.log(), List.of(), d.launch(), d.rounding());
        Comparer c = new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS, null);
        String text = ComparisonText.render(List.of(c.compare(noNotes, Optional.empty())), false);
        assertTrue(text.contains("\n  rounding: the printed decimals alone leave the time up to 7.7 % long at 1024 B "
                + "(line 27), under 1 % from 8192 B\n"), text);
        Dataset talos = Corpus.read("A-allreduce-1x8-2x8xH100-dgx-talos-nccl2.22-table.txt").get(0);
        assertFalse(talos.rounding().present());
        assertFalse(ComparisonText.render(List.of(c.compare(talos, Optional.empty())), false).contains("rounding:"));
    }

    /** NCCL PR 2080: two series side by side, SHM and P2P. */
    @Test
    void twoSeries() throws Exception {
        List<Dataset> ds = Corpus.read("A-allreduce-1x4xRTXPRO6000-dual-turin-shm-vs-p2p-nccl2.29-pr2080.txt");
        assertEquals(List.of("Stock (SHM)", "Patched (P2P)"), ds.stream().map(Dataset::label).toList());
        assertEquals(37.60, ds.get(0).peakBusBw().getAsDouble(), 0);
        assertEquals(46.65, ds.get(1).peakBusBw().getAsDouble(), 0);
        assertEquals(32768L, ds.get(0).points().get(0).sizeBytes());
    }

    /** DGX Spark summary: 8 rows, one dataset each. */
    @Test
    void summaryTable() throws Exception {
        List<Dataset> ds = Corpus.read(
                "A-summary-allgather-allreduce-alltoall-reducescatter-2x1-4x1xGB10-dgxspark-roce-multiswitch.txt");
        assertEquals(8, ds.size());
        Dataset ar2 = ds.get(2);
        assertEquals(Collective.ALL_REDUCE, ar2.collective());
        assertEquals(2, ar2.nRanks());
        assertEquals(24.24, ar2.summaryMaxBusBw(), 0);
        assertEquals(24.1, ar2.avgBusBw(), 0);
    }

    @Test
    void sizeLabels() {
        assertEquals(1048576L, SizeLabel.parse("1.00 MiB"));
        assertEquals(1048576L, SizeLabel.parse("1 MB"));
        assertEquals(4096L, SizeLabel.parse("4 KB"));
        assertEquals(33554432L, SizeLabel.parse("33M"));
        assertEquals(524288L, SizeLabel.parse("524K"));
        assertEquals(8589934592L, SizeLabel.parse("8.00 GiB"));
        assertEquals(500000L, SizeLabel.parse("500000"));
    }
}
