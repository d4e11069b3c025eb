package dev.collsim.validation.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.collsim.io.InputProblem;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.perf.NcclTestsLayout;
import dev.collsim.perf.PerfResult;
import dev.collsim.perf.PerfRow;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * nccl-tests {@code -C 1} ({@code report_cputime}, 2.13.9 and later): its time column is headed {@code cputime} in
 * text ({@code src/util.cu writeResultHeader}) and keyed {@code cpu_time} in {@code -J} JSON
 * ({@code writeBenchmarkLineBody}). That time is not the collective's: nccl-tests 2.19.6 {@code src/common.cu
 * BenchTime} takes {@code cputimeSec = tim.elapsed()} once the iterations are enqueued and before
 * {@code completeColl} waits for the GPUs, and prints it ({@code timeUsec = (report_cputime ? cputimeSec :
 * deltaSec)}). But algbw and busbw come from {@code deltaSec}, the time after the GPUs finish (averaged over the
 * ranks and divided by the CUDA graph launches as without {@code -C}): {@code getBw(count, wordSize(type), deltaSec,
 * ...)}, algbw = size / deltaSec. So the readers take each half's time as size / algbw
 * ({@link BusBandwidth#timeUs}), the time nccl-tests would have printed without {@code -C}, to the printed algbw's
 * decimals ({@link PrintedRounding}, said on the dataset as for a reduced table), and say so among compare's
 * assumptions ({@link Note#CPU_TIME}). A half whose algbw is printed as zero ({@code 0.00}: the time is not
 * bounded by it) is dropped, a row with neither half left is dropped (counted in the note), and a table with no
 * row left is refused at its first {@code cputime} column. In {@code -J} JSON nccl-tests writes alg_bw with
 * {@code %lf} (6 decimals). Per table: {@link #start}, {@link #derive} per row, then {@link #note}, {@link #round}.
 */
final class CpuTime {

    private static final String WHY = Note.CPU_TIME + "; each time is taken as size / algbw, nccl-tests' GPU time"
            + " (src/common.cu BenchTime computes algbw and busbw from deltaSec, after completeColl)";

    private final int column;
    private final int headerLine;
    private final Map<Integer, Double> bounds = new HashMap<>();
    /** Rows dropped so far: no half's algbw fixes their time. */
    int dropped;
    private int firstDropped;

    private CpuTime(int column, int headerLine) {
        this.column = column;
        this.headerLine = headerLine;
    }

    /**
     * @param header a table header line, stripped (as {@code NcclTestsLayout.parse} reads it)
     * @param line   its 1-based line
     * @return the table's state when it is headed {@code cputime}, else null
     */
    static CpuTime start(String header, int line) {
        int at = header.indexOf("cputime");
        return at < 0 ? null : new CpuTime(at + 1, line);
    }

    /**
     * @param layout the table's columns
     * @param text   the row as printed (prefix removed)
     * @param row    the row as parsed, times being the host's enqueue times
     * @param line   its 1-based line
     * @return the row with each half's time size / algbw; null when no half's algbw bounds its time (then the row
     *         is counted as dropped)
     */
    PerfRow derive(NcclTestsLayout layout, String text, PerfRow row, int line) {
        String[] tok = text.strip().split("\\s+");
        double[] bound = {Double.NaN};
        PerfResult out = half(row.outOfPlace(), cell(tok, layout.index("algbw", 0)), row.size(), bound);
        PerfResult in = half(row.inPlace(), cell(tok, layout.index("algbw", 1)), row.size(), bound);
        if (out == null && in == null) {
            if (dropped++ == 0) {
                firstDropped = line;
            }
            return null;
        }
        bounds.put(line, bound[0]);
        return new PerfRow(row.collective(), row.type(), row.redop(), row.root(), row.nRanks(), row.size(),
                row.count(), out, in, row.ncclEstimateUs());
    }

    private static String cell(String[] tok, int index) {
        return index >= 0 && index < tok.length ? tok[index] : "";
    }

    private static PerfResult half(PerfResult r, String algCell, long size, double[] bound) {
        if (r == null || !(r.algBw() > 0)) {
            return null;
        }
        double b = PrintedRounding.timeBound(r.algBw(), PrintedRounding.halfUnit(algCell));
        if (Double.isNaN(b)) {
            return null;
        }
        bound[0] = Double.isNaN(bound[0]) ? b : Math.max(bound[0], b);
        return new PerfResult(BusBandwidth.timeUs(size, r.algBw()), r.algBw(), r.busBw(), r.wrong());
    }

    /**
     * @param table a table's state, null when it is timed on the GPU
     * @return the note the table's datasets carry (compare prints it as an assumption); empty for null
     */
    static Optional<Note> note(CpuTime table) {
        if (table == null) {
            return Optional.empty();
        }
        return Optional.of(new Note(table.headerLine, WHY + (table.dropped == 0 ? "" : String.format(Locale.ROOT,
                "; %d row(s) whose algbw is printed as 0 dropped (the first at line %d): their time is not known",
                table.dropped, table.firstDropped))));
    }

    /**
     * @param file name to cite
     * @return the refusal of a table none of whose rows has an algbw that fixes its time
     */
    InputProblem refusal(String file) {
        return new InputProblem(file, headerLine, column, "time", "found 'cputime' (nccl-tests -C 1: the host's time"
                + " to enqueue each call, taken before the GPUs finish) and no row whose algbw fixes the GPU time (every"
                + " algbw printed as 0); allowed: time (run nccl-tests without -C, or with -C 0), or a cputime table"
                + " with algbw above 0");
    }

    /**
     * Puts on each dataset a table became (one per type, op and root) its printed rounding ({@link PrintedRounding})
     * over its rows' derived times.
     *
     * @param table    a table's state, null (nothing done) when it is timed on the GPU
     * @param datasets the table's datasets, replaced in place
     */
    static void round(CpuTime table, List<Dataset> datasets) {
        if (table == null) {
            return;
        }
        datasets.replaceAll(d -> {
            List<PerfPoint> p = d.points();
            double[] b = new double[p.size()];
            long[] sizes = new long[p.size()];
            int[] lines = new int[p.size()];
            for (int i = 0; i < p.size(); i++) {
                b[i] = table.bounds.getOrDefault(p.get(i).line(), Double.NaN);
                sizes[i] = p.get(i).sizeBytes();
                lines[i] = p.get(i).line();
            }
            return new Dataset(d.file(), d.label(), d.line(), d.kind(), d.collective(), d.dataType(), d.nRanks(),
                    d.nHosts(), d.gpuModel(), d.ncclRelease(), d.env(), d.header(), d.ranks(), d.points(),
                    d.avgBusBw(), d.summaryMaxBusBw(), d.log(), d.notes(), d.launch(), PrintedRounding.of(b, sizes,
                    lines));
        });
    }

    /**
     * @param results the {@code results} array of an nccl-tests {@code -J} file (or a collsim run's)
     * @param notes   where the file's note goes when it times with {@code cpu_time}
     * @return true when a result's half times with {@code cpu_time} ({@code results[3].out_of_place.cpu_time})
     */
    static boolean json(JsonNode results, List<Note> notes) {
        for (int i = 0; i < results.size(); i++) {
            for (String half : new String[] {"out_of_place", "in_place"}) {
                if (results.get(i).path(half).has("cpu_time")) {
                    notes.add(new Note(0, WHY + " (-J: the cpu_time key)"));
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * @param oop   a {@code -J} result's out-of-place half as {@link #jsonHalf} left it
     * @param ip    its in-place half
     * @param path  the result's path, e.g. {@code results[0]}
     * @param notes where the warning goes
     * @return true (after a warning) when neither half's alg_bw fixes a time, so the result is dropped
     */
    static boolean jsonDropped(PerfResult oop, PerfResult ip, String path, List<Note> notes) {
        if (oop != null || ip != null) {
            return false;
        }
        notes.add(Note.warning(0, path + ": alg_bw 0 under -C 1: the time is not known; the result is dropped"));
        return true;
    }

    /**
     * @param half one half of a {@code -J} result keyed {@code cpu_time}
     * @param size the result's size, bytes
     * @return the half with its time size / alg_bw; null when alg_bw is not above 0
     */
    static PerfResult jsonHalf(PerfResult half, long size) {
        if (half == null || !(half.algBw() > 0)) {
            return null;
        }
        return new PerfResult(BusBandwidth.timeUs(size, half.algBw()), half.algBw(), half.busBw(), half.wrong());
    }

}
