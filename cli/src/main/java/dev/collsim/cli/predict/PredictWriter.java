package dev.collsim.cli.predict;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.nccl.env.NcclVariable;
import dev.collsim.simulator.Candidate;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.bound.FabricBound;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Writes predictions as an nccl-tests-shaped text table (nccl-tests 2.19.6 {@code src/util.cu} column order and
 * units, {@code #wrong} printed as N/A, then collsim's columns), as CSV or as JSON (snake_case keys as nccl-tests'
 * JSON).
 */
final class PredictWriter {

    private final PrintWriter out;

    PredictWriter(PrintWriter out) {
        this.out = out;
    }

    /** nccl-tests' number style: the widest of 2, 1, 0 decimals that fits the width. */
    static String num(double v, int width) {
        if (Double.isInfinite(v)) {
            return "inf";
        }
        for (int d = 2; d >= 0; d--) {
            String s = String.format(Locale.ROOT, "%." + d + "f", v);
            if (s.length() <= width) {
                return s;
            }
        }
        return String.format(Locale.ROOT, "%.3g", v);
    }

    /** @return true when the rows carry the flow backends' {@code links} column */
    private static boolean hasLinks(List<PredictRow> rows) {
        return rows.stream().anyMatch(r -> !Double.isNaN(r.linksBusBw()));
    }

    /**
     * The text table with the analytical backend's footer.
     *
     * @param boundFor the algorithms the bound is for where NCCL_ALGO restricts them ({@code
     *                 PhysicalBound.algorithmsNote}), else empty
     */
    void text(List<String> header, List<PredictRow> rows, boolean all, Optional<String> boundFor) {
        text(header, rows, all, heldBy(rows).map(l -> l + System.lineSeparator()).orElse("")
                + "# Predicted by collsim, not measured: time/algbw/busbw are collsim's prediction;"
                + " nccl_est is NCCL's own model (-1: none); bound is the physical busbw bound, the best busbw the links"
                + " allow at their physical speeds" + boundFor.map(s -> " " + s).orElse("") + " (N/A: no link limits it,"
                + " as with one rank; the '# Channels:' GB/s are NCCL's graph bandwidth per channel, not a bound)."
                + " Not modelled:"
                + " congestion from other jobs, link sharing above the leaf uplinks (ECMP collisions: --backend flow),"
                + " clocks, CUDA graph launch; oversubscribed leaf uplinks are timed (a '# fabric:' line names the"
                + " sizes they limit).");
    }

    /**
     * @param header settings lines, printed after {@code # }
     * @param rows   the rows; a {@code links} column follows {@code bound} when a row has {@link PredictRow#linksBusBw}
     * @param all    print each row's candidates
     * @param footer the last line (what the columns mean and what is not modelled), with its {@code # }
     */
    void text(List<String> header, List<PredictRow> rows, boolean all, String footer) {
        header.forEach(h -> out.println("# " + h));
        out.println("#");
        int aw = Math.max(9, rows.stream().mapToInt(r -> algo(r.prediction()).length()).max().orElse(0));
        boolean links = hasLinks(rows);
        String algoCol = "%-" + aw + "s";
        String extra = links ? "  %9s" : "%s";
        out.printf(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s  %8s  %7s  %7s  %6s  " + algoCol + " %-6s %4s  %9s  %9s"
                + extra + "%n", "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "algo",
                "proto", "nch", "nccl_est", "bound", links ? "links" : "");
        out.printf(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s  %8s  %7s  %7s  %6s  " + algoCol + " %-6s %4s  %9s  %9s"
                + extra + "%n", "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "", "", "", "(us)",
                "(GB/s)", links ? "(GB/s)" : "");
        double sum = 0;
        for (PredictRow r : rows) {
            Prediction p = r.prediction();
            sum += p.busBw();
            out.printf(Locale.ROOT, "%12d  %12d  %8s  %6s  %6d  %8s  %7s  %7s  %6s  " + algoCol + " %-6s %4d  %9s  %9s"
                    + extra + "%s%n",
                    r.sizeBytes(), r.count(), r.type(), r.redop(), r.root(), num(p.timeUs(), 8), num(p.algBw(), 7), num(p.busBw(), 7),
                    "N/A", algo(p), p.protocol() == null ? "-" : p.protocol().ncclName(), p.nChannels(),
                    p.ncclEstimateUs() < 0 ? "-1" : num(p.ncclEstimateUs(), 9), bound(p.physicalBoundBusBw(), 9),
                    links ? bound(r.linksBusBw(), 9) : "", r.belowLatency() ? "  " + LatencyFloor.MARK : "");
            if (all) {
                for (Candidate c : r.candidates()) {
                    out.printf(Locale.ROOT, "#   %s %-9s %-6s  nccl_est %9s us  predicted %9s us  busbw %7s GB/s  %s%n",
                            c.chosen() ? "*" : " ", c.algorithm().ncclName(), c.protocol().ncclName(),
                            num(c.ncclTimeUs(), 9), num(c.predicted().timeUs(), 9),
                            num(busBw(p, c.predicted().timeUs()), 7), c.predicted().bottleneck());
                }
            }
        }
        out.println("# Out of bounds values : 0 OK");
        out.printf(Locale.ROOT, "# Avg bus bandwidth    : %.4g%n", rows.isEmpty() ? 0 : sum / rows.size());
        out.println("#");
        fabricLine(rows);
        out.println(footer);
    }

    /**
     * What holds the largest size's predicted time ({@link Prediction#bottleneck}: latency, links, per-channel
     * throughput, ...), which the table's columns do not say; csv and json carry it for every size. None when the
     * fabric line names it already, or the row has none (an empty call).
     *
     * @return {@code # at 8589934592 B the predicted time is held by per-channel throughput: ...}, or empty
     */
    static Optional<String> heldBy(List<PredictRow> rows) {
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        Prediction p = rows.get(rows.size() - 1).prediction();
        String b = p.bottleneck();
        if (b == null || b.isBlank() || b.startsWith(FabricBound.BOTTLENECK) || EmptyCollective.isEmptyRow(p)) {
            return Optional.empty();
        }
        return Optional.of("# at " + p.sizeBytes() + " B the predicted time is held by " + b
                + " (every size's: --format csv or json, column bottleneck)");
    }

    /**
     * Names the sizes whose time the fabric's leaf uplinks set ({@link FabricBound#BOTTLENECK}), with the limit of
     * the largest; nothing when none.
     */
    private void fabricLine(List<PredictRow> rows) {
        List<Prediction> set = rows.stream().map(PredictRow::prediction).filter(p -> p.bottleneck() != null
                && p.bottleneck().startsWith(FabricBound.BOTTLENECK)).toList();
        if (!set.isEmpty()) {
            out.printf(Locale.ROOT, "# fabric: %d of %d sizes (from %d B) timed by the %s%n", set.size(), rows.size(),
                    set.get(0).sizeBytes(), set.get(set.size() - 1).bottleneck());
        }
    }

    private static double busBw(Prediction p, double timeUs) {
        return p.timeUs() > 0 ? p.busBw() * p.timeUs() / timeUs : 0;
    }

    private static String algo(Prediction p) {
        if (p.bottleneck() != null && p.bottleneck().startsWith("hier:")) {
            return p.bottleneck().substring(0, p.bottleneck().indexOf(' '));
        }
        return EmptyCollective.isEmptyRow(p) ? "-" : p.algorithm() == null ? "p2p" : p.algorithm().ncclName();
    }

    void csv(List<PredictRow> rows, boolean all) {
        boolean links = hasLinks(rows);
        out.println("size,count,type,redop,root,time_us,alg_bw,bus_bw,algorithm,protocol,channels,nccl_estimate_us,"
                + "physical_bound_bus_bw,chosen,bottleneck" + (links ? ",links_bus_bw,note" : ""));
        for (PredictRow r : rows) {
            Prediction p = r.prediction();
            out.println(String.join(",", common(r), num(p.timeUs()), num(p.algBw()), num(p.busBw()), algo(p),
                    p.protocol() == null ? "" : p.protocol().ncclName(), String.valueOf(p.nChannels()),
                    num(p.ncclEstimateUs()), bound(p.physicalBoundBusBw()), "true", quote(p.bottleneck()))
                    + (links ? "," + bound(r.linksBusBw()) + "," + (r.belowLatency() ? LatencyFloor.MARK : "")
                    : ""));
            if (all) {
                for (Candidate c : r.candidates()) {
                    out.println(String.join(",", common(r), num(c.predicted().timeUs()),
                            num(p.algBw() * p.timeUs() / c.predicted().timeUs()), num(busBw(p, c.predicted().timeUs())),
                            c.algorithm().ncclName(), c.protocol().ncclName(), String.valueOf(c.predicted().channels()),
                            num(c.ncclTimeUs()), bound(p.physicalBoundBusBw()), String.valueOf(c.chosen()),
                            quote(c.predicted().bottleneck())));
                }
            }
        }
    }

    private String common(PredictRow r) {
        return r.sizeBytes() + "," + r.count() + "," + r.type() + "," + r.redop() + "," + r.root();
    }

    /**
     * A bound column (bound, links): N/A (empty in CSV) where no link limits the busbw, as with one rank, whose
     * busbw is 0 by nccl-tests' definition (factor (nranks-1)/nranks or 2(nranks-1)/nranks), never {@code inf}.
     */
    static String bound(double v, int width) {
        return Double.isInfinite(v) ? "N/A" : num(v, width);
    }

    private static String bound(double v) {
        return Double.isInfinite(v) ? "" : num(v);
    }

    private static String num(double v) {
        return Double.isInfinite(v) ? "inf" : String.format(Locale.ROOT, "%.6g", v);
    }

    private static String quote(String s) {
        return "\"" + (s == null ? "" : s.replace("\"", "\"\"")) + "\"";
    }

    /**
     * @param header settings lines (the text table's header)
     * @param nccl   the NCCL settings, written typed under {@code nccl_env}: name to {@code value} (a JSON number or
     *               boolean where NCCL reads one), {@code parsed} (collsim's reading), {@code default} and
     *               {@code source} (NCCL 2.30.7 file that reads it)
     * @param rows   the rows
     * @param all    write each row's candidates
     */
    void json(List<String> header, NcclSettings nccl, List<PredictRow> rows, boolean all) throws IOException {
        ObjectMapper m = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = m.createObjectNode();
        ArrayNode h = root.putArray("settings");
        header.forEach(h::add);
        ObjectNode env = root.putObject("nccl_env");
        nccl.asMap().forEach((name, value) -> {
            NcclVariable v = NcclVariable.of(name);
            Object parsed = v.parse(value);
            ObjectNode e = env.putObject(name);
            if (parsed instanceof Integer i) {
                e.put("value", i);
            } else if (parsed instanceof Long l) {
                e.put("value", l);
            } else if (parsed instanceof Double d) {
                e.put("value", d);
            } else if (parsed instanceof Boolean b) {
                e.put("value", b);
            } else {
                e.put("value", value);
            }
            e.put("parsed", String.valueOf(parsed)).put("default", v.defaultText()).put("source", v.source());
        });
        ArrayNode pts = root.putArray("points");
        for (PredictRow r : rows) {
            Prediction p = r.prediction();
            ObjectNode o = pts.addObject();
            o.put("size", r.sizeBytes()).put("count", r.count()).put("type", r.type())
                    .put("redop", r.redop())
                    .put("root", r.root()).put("time_us", p.timeUs())
                    .put("alg_bw", p.algBw()).put("bus_bw", p.busBw()).put("algorithm", algo(p))
                    .put("protocol", p.protocol() == null ? null : p.protocol().ncclName())
                    .put("channels", p.nChannels()).put("nccl_estimate_us", p.ncclEstimateUs())
                    .put("physical_bound_bus_bw", Double.isInfinite(p.physicalBoundBusBw()) ? null
                            : p.physicalBoundBusBw())
                    .put("bottleneck", p.bottleneck());
            if (!Double.isNaN(r.linksBusBw())) {
                o.put("links_bus_bw", Double.isInfinite(r.linksBusBw()) ? null : r.linksBusBw());
            }
            if (r.belowLatency()) {
                o.put("note", LatencyFloor.MARK);
            }
            if (all) {
                ArrayNode cs = o.putArray("candidates");
                for (Candidate c : r.candidates()) {
                    cs.addObject().put("algorithm", c.algorithm().ncclName()).put("protocol", c.protocol().ncclName())
                            .put("nccl_estimate_us", c.ncclTimeUs()).put("time_us", c.predicted().timeUs())
                            .put("channels", c.predicted().channels()).put("chosen", c.chosen())
                            .put("bottleneck", c.predicted().bottleneck());
                }
            }
        }
        out.println(m.writeValueAsString(root));
    }
}
