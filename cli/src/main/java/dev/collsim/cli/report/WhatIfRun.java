package dev.collsim.cli.report;

import dev.collsim.cli.CalibrationOption;
import dev.collsim.io.InputException;
import dev.collsim.reports.cluster.SimulatorResolver;
import dev.collsim.reports.io.AtomicFolder;
import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.whatif.IngestMeasurements;
import dev.collsim.reports.whatif.ProgressListener;
import dev.collsim.reports.whatif.ReportData;
import dev.collsim.reports.whatif.ReportRunner;
import dev.collsim.reports.whatif.ReportSummary;
import dev.collsim.reports.whatif.ReportWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Runs a what-if report end to end for {@code collsim report} and for {@code collsim} with no arguments: predicts,
 * writes the folder atomically, prints the summary table and where the report is. A progress bar is drawn on the
 * terminal (stderr) when there is one.
 */
public final class WhatIfRun {

    /** Default output folder, relative to the working directory. */
    public static final String DEFAULT_OUTPUT = "collsim-report";

    private WhatIfRun() {
    }

    /**
     * @param spec     the spec
     * @param specText its YAML text (copied into the report)
     * @param output   the folder to write
     * @param out      where the summary goes
     * @param err      where the variants' fabric warnings go ({@link SimulatorResolver#fabricWarnings}), as
     *                 {@code collsim: warning: ...} lines
     * @param progressOn whether to draw a progress bar on stderr
     * @param calibration the {@code --calibration} value, null when not given ({@link CalibrationOption})
     * @return the written report
     * @throws InputException when a variant, a file named in the spec or the calibration file is invalid
     * @throws UncheckedIOException when the folder cannot be written (nothing is left half-written)
     */
    public static ReportWriter.Written run(ReportSpec spec, String specText, Path output, PrintWriter out,
            PrintWriter err, boolean progressOn, Path calibration) throws InputException {
        String fallback = CalibrationOption.forReport(calibration, "--calibration");
        try {
            AtomicFolder.checkReplaceable(output.toAbsolutePath().normalize());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report to " + output + ": " + e.getMessage(), e);
        }
        ReportData data;
        try (Bar bar = progressOn ? new Bar(System.err) : null) {
            ProgressListener listener = bar == null ? ProgressListener.NONE : bar;
            SimulatorResolver resolver = SimulatorResolver.withFallback(fallback);
            data = new ReportRunner(resolver, new IngestMeasurements(), listener).run(spec);
            if (bar != null) {
                bar.step("writing charts and HTML");
            }
            ReportWriter.Written w;
            try {
                w = ReportWriter.write(data, output, specText);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the report to " + output + ": " + e.getMessage(), e);
            }
            if (bar != null) {
                bar.close();
            }
            resolver.fabricWarnings().forEach(x -> err.println("collsim: warning: " + x));
            err.flush();
            out.println(data.title());
            CalibrationLines.group(resolver.selections()).forEach(out::println);
            // one line per network note, naming its variants (two EFA variants printed the same note twice)
            Map<String, List<String>> networks = new LinkedHashMap<>();
            data.variants().stream().filter(v -> !v.network().isEmpty())
                    .forEach(v -> networks.computeIfAbsent(v.network(), k -> new ArrayList<>()).add(v.variant()));
            CalibrationLines.grouped("network", networks).forEach(out::println);
            out.println();
            out.print(ReportSummary.text(ReportSummary.table(data)));
            ReportSummary.notes(data).forEach(out::println);
            out.println();
            out.println("Report: " + w.index() + "  (open it in a browser; charts, CSV and JSON are in "
                    + w.folder() + ")");
            return w;
        }
    }

    /** @return true when stderr is likely a terminal (a console is attached) */
    public static boolean terminal() {
        return System.console() != null;
    }

    /** A me.tongfei progress bar as a {@link ProgressListener}. */
    private static final class Bar implements ProgressListener, AutoCloseable {
        private final PrintStream stream;
        private ProgressBar bar;

        Bar(PrintStream stream) {
            this.stream = stream;
        }

        @Override
        public void start(long total) {
            bar = new ProgressBarBuilder().setTaskName("what-if").setInitialMax(total + 1)
                    .setStyle(ProgressBarStyle.ASCII).setConsumer(new ConsoleProgressBarConsumer(stream))
                    .setUpdateIntervalMillis(200).build();
        }

        @Override
        public void step(String what) {
            if (bar != null) {
                bar.step();
                bar.setExtraMessage(what.length() > 40 ? what.substring(0, 40) : what);
            }
        }

        @Override
        public void close() {
            if (bar != null) {
                bar.close();
                bar = null;
            }
        }
    }
}
