package dev.collsim.validation.ingest;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes nccl-tests text output exactly as each release family's printf format strings produce it (widths, column
 * names, which lines exist), so the reader can be tested on every format a user may bring. Every format string is
 * cited by tag, file and line of the nccl-tests repository (github.com/NVIDIA/nccl-tests). Values are synthetic:
 * the tests assert the parse of what this class wrote, not measured numbers.
 */
final class NcclTestsPrinter {

    /** A family of nccl-tests releases that print the same format; {@code tag} is the release cited. */
    enum Family {
        /** v2.0.0-v2.9.0: per-collective headers (src/all_reduce.cu:11-14), type %6s, 'error' column. */
        V2_0("v2.0.0"),
        /** v2.10.0-v2.11.0: per-collective headers (src/all_reduce.cu:11-14), type %8s, alltoall/sendrecv/scatter. */
        V2_10("v2.10.0"),
        /** v2.13.0-v2.13.3: one header with redop and root (src/common.cu:923-926), opName "" when none. */
        V2_13_0("v2.13.0"),
        /** v2.13.4-v2.14.0: rank lines with Group (src/common.cu:893), opName "none". */
        V2_13_4("v2.13.4"),
        /** v2.14.1-v2.16.6: rank lines with the full bus id [%04x:%02x:%02x] (src/common.cu). */
        V2_14_1("v2.14.1"),
        /** v2.16.7-v2.17.2: 'Collective test starting/concluded' lines (src/common.cu:1015, 1273). */
        V2_16_7("v2.16.7"),
        /** v2.17.3: #wrong as %6g; v2.17.4+: the 'nccl-tests version' line (src/common.cu). */
        V2_17_4("v2.17.4"),
        /** v2.19.6, the newest tag: src/util.cu (getFloatStr, writeBenchmarkLineBody, footer %-20s). */
        V2_19_6("v2.19.6");

        final String tag;

        Family(String tag) {
            this.tag = tag;
        }

        boolean atLeast(Family f) {
            return compareTo(f) >= 0;
        }
    }

    /**
     * One run to print.
     *
     * @param family    release family
     * @param coll      nccl-tests collective name (all_reduce, ..., hypercube)
     * @param hosts     hosts
     * @param gpus      GPUs per host
     * @param oneProc   true: one process per host drives all its GPUs (-g N); false: one process per GPU (mpirun)
     * @param types     type names, in nccl-tests' order (-d all prints several)
     * @param ops       op names for reductions (-o all prints several)
     * @param check     -c 1 (default) or -c 0 (N/A)
     * @param blocking  -z 1
     * @param graph     -G 10 (2.13+ print "graph: 10")
     * @param command   print a shell command line first
     */
    record Run(Family family, String coll, int hosts, int gpus, boolean oneProc, List<String> types, List<String> ops,
            boolean check, boolean blocking, int graph, boolean command) {

        int ranks() {
            return hosts * gpus;
        }

        boolean reduction() {
            return List.of("all_reduce", "reduce", "reduce_scatter").contains(coll)
                    || coll.equals("sendrecv") && family.atLeast(Family.V2_13_0);
        }

        boolean rooted() {
            return List.of("broadcast", "reduce", "gather", "scatter").contains(coll);
        }
    }

    /** The requested sizes: -b 1K -e 16M -f 16 (1024, 16384, 262144, 4194304 bytes). */
    static final long[] REQUESTED = {1024, 16384, 262144, 4194304};

    private NcclTestsPrinter() {
    }

    static int wordSize(String type) {
        return switch (type) {
            case "int8", "uint8", "char" -> 1;
            case "half", "bfloat16" -> 2;
            case "int32", "uint32", "int", "float" -> 4;
            default -> 8;
        };
    }

    /**
     * Printed size and count of one requested size: setupArgs and each test's getCollByteCount (v2.10.0
     * src/common.cu:667-678 and src/*.cu:22-28; the same through v2.19.6): size = max(send, recv) x word size,
     * count = paramcount.
     *
     * @return {size bytes, count elements}
     */
    static long[] sizeCount(String coll, long requested, int word, int n) {
        long count = requested / word;
        return switch (coll) {
            case "all_gather", "reduce_scatter", "alltoall", "gather", "scatter" ->
                    new long[] {(count / n) * n * word, count / n};
            // hypercube.cu:24-30 (ALIGN 4): base = (count / (4 n)) x 4, recv = base x n
            case "hypercube" -> new long[] {(count / (4L * n)) * 4 * n * word, (count / (4L * n)) * 4};
            default -> new long[] {count * word, count};
        };
    }

    /** busBw / algBw of each test's GetBw (v2.19.6 src/*.cu): 2(n-1)/n, (n-1)/n or 1. */
    static double busFactor(String coll, int n) {
        return switch (coll) {
            case "all_reduce" -> 2.0 * (n - 1) / n;
            case "all_gather", "reduce_scatter", "alltoall", "gather", "scatter" -> (double) (n - 1) / n;
            default -> 1.0; // broadcast, reduce, sendrecv; hypercube: factor 1 (its algbw is reduced instead)
        };
    }

    /** The time a row of this size took: 20 us + 1 us per 50 KB (a made-up line, not a model). */
    static double timeUs(long size) {
        return 20.0 + size / 50_000.0;
    }

    static String print(Run r) {
        List<String> out = new ArrayList<>();
        Family f = r.family();
        if (r.command()) {
            out.add("$ mpirun -np " + (r.oneProc() ? r.hosts() : r.ranks()) + " ./build/" + r.coll() + "_perf -b 1K -e 16M"
                    + " -f 16 -g " + (r.oneProc() ? r.gpus() : 1) + (r.check() ? "" : " -c 0")
                    + (r.blocking() ? " -z 1" : ""));
        }
        preamble(r, out);
        header(r, out);
        for (String type : r.types()) {
            for (String op : r.reduction() ? r.ops() : List.of("")) {
                for (long req : REQUESTED) {
                    out.add(row(r, type, op, req));
                }
            }
        }
        String avg = "1.234";
        if (f.atLeast(Family.V2_19_6)) { // util.cu:777-780
            out.add(String.format("# %-20s : %d %s", "Out of bounds values", 0, "OK"));
            out.add(String.format("# %-20s : %s %s", "Avg bus bandwidth", avg, ""));
            out.add("#");
        } else { // common.cu:879-881 (v2.0.0) ... 1270-1272 (v2.16.7)
            out.add("# Out of bounds values : 0 OK");
            out.add("# Avg bus bandwidth    : " + avg + " ");
            out.add("#");
        }
        if (f.atLeast(Family.V2_16_7)) { // common.cu:1273, util.cu:780
            out.add("# Collective test concluded: " + r.coll() + "_perf");
        }
        if (f.atLeast(Family.V2_19_6)) { // util.cu:834
            out.add(String.format("# %-20s : %s", "GPU memory usage", "process 0: 1.2 GiB"));
        }
        return String.join("\n", out) + "\n";
    }

    private static void preamble(Run r, List<String> out) {
        Family f = r.family();
        if (f.atLeast(Family.V2_17_4)) { // v2.17.4 src/common.cu, v2.19.6 util.cu:623
            out.add("# nccl-tests version " + f.tag.substring(1) + " nccl-headers=22703 nccl-library=22703");
        }
        if (f.atLeast(Family.V2_16_7)) { // v2.16.7 common.cu:1015
            out.add("# Collective test starting: " + r.coll() + "_perf");
        }
        int nThread = 1;
        int nGpus = r.oneProc() ? r.gpus() : 1;
        String common = String.format("# nThread %d nGpus %d minBytes %d maxBytes %d step: %d(%s) warmup iters: %d "
                + "iters: %d ", nThread, nGpus, 1024, 16777216, 16, "factor", 5, 20);
        if (!f.atLeast(Family.V2_13_0)) { // v2.0.0 common.cu:722
            out.add(common + String.format("validation: %d ", r.check() ? 1 : 0));
        } else if (!f.atLeast(Family.V2_19_6)) { // v2.13.0 common.cu:829
            out.add(common + String.format("agg iters: %d validation: %d graph: %d", 1, r.check() ? 1 : 0, r.graph()));
        } else { // util.cu:625
            out.add(common + String.format("agg iters: %d validation: %d graph: %d unalign: %d", 1,
                    r.check() ? 1 : 0, r.graph(), 0));
        }
        if (r.blocking()) { // v2.0.0 common.cu:724; v2.19.6 util.cu:629
            out.add(f.atLeast(Family.V2_19_6) ? "# Blocking Enabled: wait and barrier after each inner iteration (-m) "
                    : "# Blocking Enabled: wait for completion and barrier after each collective ");
        }
        out.add("#");
        out.add("# Using devices");
        for (int h = 0; h < r.hosts(); h++) {
            for (int g = 0; g < r.gpus(); g++) {
                int rank = h * r.gpus() + g;
                int pid = 4000 + (r.oneProc() ? h : rank);
                String host = "node-" + h;
                int bus = 0x18 + g * 0x10;
                if (!f.atLeast(Family.V2_13_4)) { // v2.0.0 common.cu:737, v2.13.0 common.cu:847
                    out.add(String.format("#   Rank %2d Pid %6d on %10s device %2d [0x%02x] %s", rank, pid, host, g,
                            bus, "NVIDIA H100 80GB HBM3"));
                } else if (!f.atLeast(Family.V2_14_1)) { // v2.13.4 common.cu:893
                    out.add(String.format("#  Rank %2d Group %2d Pid %6d on %10s device %2d [0x%02x] %s", rank, 0,
                            pid, host, g, bus, "NVIDIA H100 80GB HBM3"));
                } else { // v2.16.7 common.cu:1036, v2.19.6 util.cu:687
                    out.add(String.format("#  Rank %2d Group %2d Pid %6d on %10s device %2d [%04x:%02x:%02x] %s",
                            rank, 0, pid, host, g, 0, bus, 0, "NVIDIA H100 80GB HBM3"));
                }
            }
        }
    }

    private static void header(Run r, List<String> out) {
        Family f = r.family();
        out.add("#");
        String t = f == Family.V2_0 ? "%6s" : "%8s";
        if (!f.atLeast(Family.V2_13_0)) {
            // per-collective print_header (v2.0.0/v2.10.0 src/<coll>.cu:11-14): redop for reductions and alltoall,
            // root for broadcast/reduce/scatter/gather, nothing for all_gather/sendrecv/hypercube
            List<String> lead = new ArrayList<>(List.of("size", "count", "type"));
            if (r.reduction() || r.coll().equals("alltoall")) {
                lead.add("redop");
            }
            if (r.rooted()) {
                lead.add("root");
            }
            StringBuilder fmt = new StringBuilder("# %10s  %12s  " + t);
            for (int i = 3; i < lead.size(); i++) {
                fmt.append("  %6s");
            }
            List<Object> args = new ArrayList<>(lead);
            args.addAll(List.of("time", "algbw", "busbw", "error", "time", "algbw", "busbw", "error"));
            out.add(String.format(fmt + "  %7s  %6s  %6s  %5s  %7s  %6s  %6s  %5s", args.toArray()));
            return;
        }
        if (f.atLeast(Family.V2_19_6)) { // util.cu:756-759
            out.add(String.format("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s %s", "size",
                    "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw",
                    "#wrong", ""));
            return;
        }
        // v2.13.0 common.cu:924
        out.add(String.format("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s %6s  %7s  %6s  %6s %6s", "size", "count",
                "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw", "#wrong"));
    }

    private static String row(Run r, String type, String op, long requested) {
        Family f = r.family();
        int n = r.ranks();
        long[] sc = sizeCount(r.coll(), requested, wordSize(type), n);
        StringBuilder s = new StringBuilder();
        String t = f == Family.V2_0 ? "%6s" : "%8s";
        if (!f.atLeast(Family.V2_13_0)) { // print_line_header, v2.10.0 src/<coll>.cu:19
            s.append(String.format("%12d  %12d  " + t, sc[0], sc[1], type));
            if (r.reduction() || r.coll().equals("alltoall")) {
                s.append(String.format("  %6s", r.coll().equals("alltoall") ? "" : op)); // alltoall passes ""
            }
            if (r.rooted()) {
                s.append(String.format("  %6d", 0));
            }
        } else { // v2.13.0 common.cu:577, v2.19.6 util.cu:457
            String opName = r.reduction() ? op : (f.atLeast(Family.V2_13_4) && !r.coll().equals("hypercube") ? "none" : "");
            s.append(String.format("%12d  %12d  %8s  %6s  %6s", sc[0], sc[1], type, opName,
                    String.format("%6d", r.rooted() ? 0 : -1)));
        }
        double time = timeUs(sc[0]);
        // GetBw: algbw = count x typesize (x n for the per-rank tests) / time = size / time; hypercube.cu:40-45
        // counts (n - 1) blocks of base: algbw = size x (n - 1) / n / time
        double alg = sc[0] / 1e3 / time * (r.coll().equals("hypercube") ? (n - 1.0) / n : 1.0);
        double bus = alg * busFactor(r.coll(), n);
        // v2.13.1+ alltoall.cu and sendrecv.cu: args->reportErrors = in_place ? 0 : 1 (in-place #wrong is N/A)
        boolean ownCheck = f.atLeast(Family.V2_13_4) && List.of("alltoall", "sendrecv").contains(r.coll());
        s.append(body(f, time, alg, bus, ownCheck || r.check()));
        s.append(body(f, time, alg, bus, !ownCheck && r.check()));
        return s.toString();
    }

    /** One half (time, algbw, busbw, check) of a row. */
    static String body(Family f, double time, double alg, double bus, boolean check) {
        if (f.atLeast(Family.V2_19_6)) { // util.cu:488-510
            // %6g of 0 wrong elements is "     0" in C
            return check ? String.format("  %7s  %6s  %6s  %6s", fl(time, 7), fl(alg, 6), fl(bus, 6), "0")
                    : String.format("  %7s  %6s  %6s    N/A", fl(time, 7), fl(alg, 6), fl(bus, 6));
        }
        String ts = time > 10000 ? String.format("%7.0f", time) : time >= 100 ? String.format("%7.1f", time)
                : String.format("%7.2f", time); // v2.10.0 common.cu:648-654
        if (!check) {
            return String.format("  %7s  %6.2f  %6.2f  %5s", ts, alg, bus, "N/A");
        }
        if (!f.atLeast(Family.V2_13_0)) { // "%5.0le" of maxDelta 0: C prints 0e+00
            return String.format("  %7s  %6.2f  %6.2f  %5s", ts, alg, bus, "0e+00");
        }
        // %5g of 0 (v2.13.0 common.cu:533); %6g from v2.17.3
        return String.format(f.atLeast(Family.V2_17_4) ? "  %7s  %6.2f  %6.2f  %6s" : "  %7s  %6.2f  %6.2f  %5s", ts,
                alg, bus, "0");
    }

    /** getFloatStr (v2.19.6 util.cu:487-492): %.2f, else %.1f, else %.0f, else %.1e within the width. */
    static String fl(double v, int width) {
        for (String p : new String[] {"%" + width + ".2f", "%" + width + ".1f", "%" + width + ".0f"}) {
            String s = String.format(Locale.ROOT, p, v);
            if (s.length() <= width) {
                return s;
            }
        }
        return String.format(Locale.ROOT, "%" + width + ".1e", v);
    }
}
