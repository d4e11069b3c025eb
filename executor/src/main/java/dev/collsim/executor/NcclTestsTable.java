package dev.collsim.executor;

import dev.collsim.nccl.SizeSweep;
import dev.collsim.perf.GpuInfo;
import dev.collsim.perf.PerfResult;
import java.util.List;
import java.util.Locale;

/**
 * The text nccl-tests 2.19.6 prints ({@code src/util.cu writeDeviceReport, writeResultHeader,
 * writeBenchmarkLine*, writeResultFooter, writeErrors}), column for column, so tools that read nccl-tests output
 * read collsim's. Only the first line differs: it names collsim instead of claiming to be nccl-tests. This is
 * collsim's one writer of that table; {@link dev.collsim.perf.NcclTestsRows} is its one reader (the tests read
 * nccl-tests' own output with it and print it back byte for byte).
 */
public final class NcclTestsTable {

    private NcclTestsTable() {
    }

    /**
     * @param toolVersion  collsim's version
     * @param headersCode  NCCL header version code the bindings were made from
     * @param libraryCode  NCCL library version code (ncclGetVersion)
     * @param program      e.g. {@code all_reduce_perf}
     * @param spec         the run settings
     * @param gpus         the ranks of this run (printed as {@code #  Rank ...} lines)
     * @return the header block, up to and including the {@code # Using devices} rank lines
     */
    public static String deviceReport(String toolVersion, int headersCode, int libraryCode, String program,
            RunSpec spec, List<GpuInfo> gpus) {
        StringBuilder sb = new StringBuilder();
        SizeSweep s = spec.sweep();
        sb.append(String.format(Locale.ROOT, "# collsim run %s (nccl-tests 2.19.6 format) nccl-headers=%d nccl-library=%d%n",
                toolVersion, headersCode, libraryCode));
        sb.append("# Collective test starting: ").append(program).append('\n');
        sb.append(String.format(Locale.ROOT,
                "# nThread %d nGpus %d minBytes %d maxBytes %d step: %d(%s) warmup iters: %d iters: %d agg iters: %d"
                + " validation: %d graph: %d unalign: %d%n", 1, spec.nGpus(), s.minBytes(), s.maxBytes(),
                s.stepFactor() > 1 ? s.stepFactor() : s.stepBytes(), s.stepFactor() > 1 ? "factor" : "bytes",
                spec.warmupIters(), spec.iters(), spec.aggIters(), spec.check(), spec.graphLaunches(), 0));
        switch (spec.blocking()) {
            case 1 -> sb.append("# Blocking Enabled: wait and barrier after each inner iteration (-m) \n");
            case 2 -> sb.append("# Blocking Enabled: wait after each inner iteration (-m), no barrier \n");
            case 3 -> sb.append("# Blocking Enabled: wait and barrier after each outer iteration (-n); "
                    + "time excludes barrier \n");
            default -> { }
        }
        spec.notes().forEach(n -> sb.append("# ").append(n).append('\n'));
        sb.append("#\n# Using devices\n");
        for (GpuInfo g : gpus) {
            sb.append(rankLine(g)).append('\n');
        }
        return sb.toString();
    }

    /**
     * @param g a rank's GPU
     * @return {@code #  Rank %2d Group %2d Pid %6d on %10s device %2d [dddd:bb:dd] name}
     */
    public static String rankLine(GpuInfo g) {
        String bus = g.busId() == null ? "" : g.busId();
        // cudaDeviceGetPCIBusId gives dddd:bb:dd.f; nccl-tests prints [%04x:%02x:%02x]
        int dot = bus.lastIndexOf('.');
        String shortBus = dot > 0 ? bus.substring(0, dot).toLowerCase(Locale.ROOT) : bus.toLowerCase(Locale.ROOT);
        return String.format(Locale.ROOT, "#  Rank %2d Group %2d Pid %6d on %10s device %2d [%s] %s", g.rank(), 0,
                g.pid(), g.hostname(), g.device(), shortBus, g.name());
    }

    /**
     * @param maxBytes the reduced maximum
     * @return nccl-tests' notice when the sweep was shrunk for memory
     */
    public static String reducedNotice(long maxBytes) {
        return "#\n# Reducing maxBytes to " + maxBytes + " due to memory limitation\n";
    }

    /**
     * @param cpuTime true with {@code -C}
     * @return the three header lines, preceded by {@code #}
     */
    public static String resultHeader(boolean cpuTime) {
        String time = cpuTime ? "cputime" : "time";
        StringBuilder sb = new StringBuilder("#\n");
        sb.append(String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place          %n",
                "", "", "", "", ""));
        sb.append(String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s %s%n",
                "size", "count", "type", "redop", "root", time, "algbw", "busbw", "#wrong", time, "algbw", "busbw",
                "#wrong", ""));
        sb.append(String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s %s%n",
                "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "", ""));
        return sb.toString();
    }

    /**
     * @param size  the size column, bytes
     * @param count the count column, elements
     * @param type  type name
     * @param redop op name or {@code none}
     * @param root  root or -1
     * @return the start of a row
     */
    public static String rowPreamble(long size, long count, String type, String redop, int root) {
        return String.format(Locale.ROOT, "%12d  %12d  %8s  %6s  %6s", size, count, type, redop,
                String.format(Locale.ROOT, "%6d", root));
    }

    /**
     * @param r one half of a row; {@code r.wrong() == null} prints {@code N/A}
     * @return {@code "  time  algbw  busbw  #wrong"}
     */
    public static String rowBody(PerfResult r) {
        String t = CFormat.floatStr(r.timeUs(), 7);
        String a = CFormat.floatStr(r.algBw(), 6);
        String b = CFormat.floatStr(r.busBw(), 6);
        if (r.wrong() == null) {
            return String.format(Locale.ROOT, "  %7s  %6s  %6s    N/A", t, a, b);
        }
        return String.format(Locale.ROOT, "  %7s  %6s  %6s  %s", t, a, b, CFormat.g(r.wrong(), 6));
    }

    /**
     * @param outOfBounds number of results with errors
     * @param avgBusBw    mean busbw, GB/s
     * @param program     e.g. {@code all_reduce_perf}
     * @param error       ncclGetLastError text, or null/empty
     * @return the footer lines through the final blank (or {@code # error:}) line
     */
    public static String footer(int outOfBounds, double avgBusBw, String program, String error) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "# %-20s : %d %s%n", "Out of bounds values", outOfBounds,
                outOfBounds != 0 ? "FAILED" : "OK"));
        sb.append(String.format(Locale.ROOT, "# %-20s : %s %s%n", "Avg bus bandwidth", CFormat.g(avgBusBw), ""));
        sb.append("#\n");
        sb.append("# Collective test concluded: ").append(program).append('\n');
        sb.append("#\n");
        sb.append(error == null || error.isEmpty() ? "\n" : "# error: " + error + "\n");
        return sb.toString();
    }
}
