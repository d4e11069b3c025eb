package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * nccl-tests' {@code -S 1} ({@code --report_timestamps}, nccl-tests 2.19.6 {@code src/common.cu}) ends each row with
 * the wall-clock time: {@code writeTimestamp()} prints {@code "%21s"} of {@code strftime("%Y-%m-%d %H:%M:%S")} after
 * the in-place half, and {@code writeResultHeader} ends the two header lines with {@code " %*s"} of
 * {@code "timestamp"} and of the format, width 19 ({@code src/util.cu}). No file of the project's data was run with
 * {@code -S}, so the inputs are built here with those format strings: a plain table, and the one real file whose
 * table pieces broke into NCCL INFO lines with the timestamp piece added where {@code -S} prints it.
 */
class TimestampColumnTest {

    private static final String HEADER_TAIL = " " + String.format(Locale.ROOT, "%19s", "timestamp");
    private static final String UNITS_TAIL = " " + String.format(Locale.ROOT, "%19s", "%Y-%m-%d %H:%M:%S");

    private static String stamp(int second) {
        return String.format(Locale.ROOT, "%21s", String.format(Locale.ROOT, "2026-11-29 10:00:%02d", second));
    }

    /** One row as nccl-tests prints it: preamble, two halves ("  %7s  %6s  %6s  %6g"), timestamp. */
    private static String row(long size, String oop, String ip, int second) {
        return String.format(Locale.ROOT, "%12d  %12d  %8s  %6s  %6s", size, size / 4, "float", "sum", "-1")
                + oop + ip + stamp(second);
    }

    private static String half(String time, String alg, String bus) {
        return String.format(Locale.ROOT, "  %7s  %6s  %6s  %6g", time, alg, bus, 0.0);
    }

    @Test
    void aPlainTableWithTimestamps() throws Exception {
        String text = String.join("\n",
                "# nccl-tests version 2.19.6 nccl-headers=22803 nccl-library=22803",
                "# Collective test starting: all_reduce_perf",
                "# nThread 1 nGpus 8 minBytes 1024 maxBytes 4096 step: 2(factor) warmup iters: 1 iters: 20 "
                        + "agg iters: 1 validation: 1 graph: 0 unalign: 0",
                "#",
                String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s",
                        "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw",
                        "busbw", "#wrong") + HEADER_TAIL,
                String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s",
                        "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)",
                        "") + UNITS_TAIL,
                row(1024, half("20.10", "0.05", "0.09"), half("19.80", "0.05", "0.09"), 1),
                row(2048, half("20.30", "0.10", "0.18"), half("20.00", "0.10", "0.18"), 2),
                row(4096, half("21.00", "0.20", "0.34"), half("20.90", "0.20", "0.34"), 3),
                "# Out of bounds values : 0 OK",
                "# Avg bus bandwidth    : 0.203333 ",
                "#",
                "# Collective test concluded: all_reduce_perf", "");
        Dataset d = MeasurementReader.read("ts.txt", text).get(0);
        assertEquals(List.of(1024L, 2048L, 4096L), d.points().stream().map(PerfPoint::sizeBytes).toList());
        assertEquals(20.9, d.points().get(2).row().inPlace().timeUs(), 0);
        assertEquals(0.34, d.points().get(2).row().inPlace().busBw(), 0);
        assertTrue(d.notes().stream().noneMatch(n -> n.text().contains("cut short")), d.notes().toString());
    }

    /**
     * {@code data/device/h200x2-2026-11-29/nccl-info-allreduce.txt} (see {@link InterleavedLogTest}) as {@code -S 1}
     * would have written it: the header lines 283-284 end with the timestamp label and format, and each row's
     * in-place half is followed by its timestamp piece: at the end of lines 12390-12392 (8, 64, 512 B) and
     * 12438-12440 (4096, 32768, 262144 B).
     */
    @Test
    void anInterleavedLogWithTimestamps() throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(
                Path.of("../data/device/h200x2-2026-11-29/nccl-info-allreduce.txt")));
        lines.set(282, lines.get(282).stripTrailing() + HEADER_TAIL);
        lines.set(283, lines.get(283).replaceAll(" $", "") + UNITS_TAIL);
        int second = 0;
        for (int n : new int[] {12390, 12391, 12392, 12438, 12439, 12440}) {
            lines.set(n - 1, lines.get(n - 1) + stamp(second++));
        }
        Dataset d = MeasurementReader.read("ts-interleaved.txt", String.join("\n", lines) + "\n").get(0);
        // the same rows and times as without -S (InterleavedLogTest): 8 B .. 256 KiB by x8
        assertEquals(List.of(8L, 64L, 512L, 4096L, 32768L, 262144L),
                d.points().stream().map(PerfPoint::sizeBytes).toList());
        assertEquals(29.70, d.points().get(3).row().inPlace().timeUs(), 1e-9);
        assertEquals(26.43, d.points().get(5).row().inPlace().timeUs(), 1e-9);
        assertEquals(1.78087, d.avgBusBw(), 1e-9);
    }
}
