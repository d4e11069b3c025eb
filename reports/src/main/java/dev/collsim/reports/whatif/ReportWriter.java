package dev.collsim.reports.whatif;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.collsim.reports.chart.ChartFiles;
import dev.collsim.reports.io.AtomicFolder;
import dev.collsim.reports.io.CsvTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a report folder atomically ({@link AtomicFolder}): {@code index.html} (self-contained), {@code charts/*.png}
 * and {@code charts/*.svg}, one CSV per table under {@code data/}, {@code report.json} with every number, and a copy
 * of the spec. Stateless.
 */
public final class ReportWriter {

    /** Chart size in pixels. */
    static final int WIDTH = 1000;
    /** Chart size in pixels. */
    static final int HEIGHT = 600;

    private ReportWriter() {
    }

    /**
     * The files written.
     *
     * @param folder the report folder
     * @param index  the HTML page
     * @param files  every file, relative to the folder
     */
    public record Written(Path folder, Path index, List<String> files) {
    }

    /**
     * @param data     the numbers
     * @param target   the folder to create or replace
     * @param specText the spec's text (copied as {@code spec.yaml}), or null
     * @return what was written
     * @throws IOException on a write failure (nothing is left behind: the temporary folder is deleted)
     */
    public static Written write(ReportData data, Path target, String specText) throws IOException {
        List<String> files = new ArrayList<>();
        try (AtomicFolder out = new AtomicFolder(target)) {
            List<ReportCharts.Named> charts = ReportCharts.build(data);
            List<byte[][]> drawn = draw(charts);
            Map<String, byte[]> pngs = new LinkedHashMap<>();
            for (int i = 0; i < charts.size(); i++) {
                ReportCharts.Named c = charts.get(i);
                pngs.put(c.stem(), drawn.get(i)[0]);
                out.write("charts/" + c.stem() + ".png", drawn.get(i)[0]);
                out.write("charts/" + c.stem() + ".svg", drawn.get(i)[1]);
                files.add("charts/" + c.stem() + ".png");
                files.add("charts/" + c.stem() + ".svg");
            }
            List<String> dataFiles = new ArrayList<>();
            csv(out, dataFiles, "variants", ReportData.VariantRow.class, data.variants());
            csv(out, dataFiles, "sweeps", ReportData.SweepRow.class, data.sweeps());
            csv(out, dataFiles, "measured", ReportData.MeasuredRow.class, data.measured());
            csv(out, dataFiles, "plans", ReportData.PlanRow.class, data.plans());
            csv(out, dataFiles, "plan-collectives", ReportData.PlanCommRow.class, data.planComms());
            csv(out, dataFiles, "scaling", ReportData.ScalingRow.class, data.scaling());
            csv(out, dataFiles, "targets", ReportData.TargetRow.class, data.targets());
            csv(out, dataFiles, "algorithm-map", ReportData.AlgoCellRow.class, data.algorithmMap());
            out.write("report.json", reportJson().writeValueAsBytes(data));
            dataFiles.add(0, "report.json");
            if (specText != null) {
                out.write("spec.yaml", utf8(specText));
                dataFiles.add("spec.yaml");
            }
            files.addAll(dataFiles);
            String created = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
            Path index = out.write("index.html", utf8(HtmlReport.render(data, charts, pngs, dataFiles, created)));
            files.add(0, "index.html");
            out.commit();
            return new Written(index.getParent(), index, files);
        }
    }

    /** report.json's numbers that are not numbers as null ({@link #reportJson}). */
    private static final SimpleModule NOT_A_NUMBER_AS_NULL = new SimpleModule("not-a-number-as-null")
            .addSerializer(Double.class, new NumberOrNull()).addSerializer(Double.TYPE, new NumberOrNull());

    /**
     * report.json writes a number that is not one (NaN, infinite: MFU of a plan that does not fit, an unknown memory)
     * as JSON {@code null}, as the CSV leaves its cell empty ({@link CsvTable}); Jackson's default is the string
     * {@code "NaN"}, which a JSON reader takes for text.
     *
     * @return the mapper report.json is written with (indented)
     */
    static ObjectMapper reportJson() {
        return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).registerModule(NOT_A_NUMBER_AS_NULL);
    }

    /** A double as a JSON number, or null when it is NaN or infinite. */
    private static final class NumberOrNull extends StdSerializer<Double> {
        NumberOrNull() {
            super(Double.class);
        }

        @Override
        public void serialize(Double v, JsonGenerator g, SerializerProvider p) throws IOException {
            if (v.isNaN() || v.isInfinite()) {
                g.writeNull();
            } else {
                g.writeNumber(v);
            }
        }
    }

    /**
     * @return each chart's PNG bytes and SVG text (UTF-8), in order; the charts are drawn on a few threads (each chart
     *         by one thread, its PNG then its SVG), as many as {@link ReportRunner} uses
     */
    private static List<byte[][]> draw(List<ReportCharts.Named> charts) {
        int threads = Math.min(ReportRunner.MAX_THREADS, Runtime.getRuntime().availableProcessors());
        try (OrderedTasks<byte[][]> tasks = new OrderedTasks<>(threads)) {
            for (ReportCharts.Named c : charts) {
                tasks.submit(() -> new byte[][] {ChartFiles.png(c.chart(), WIDTH, HEIGHT),
                    utf8(ChartFiles.svg(c.chart(), WIDTH, HEIGHT))});
            }
            return tasks.results(RuntimeException.class);
        }
    }

    private static <R extends Record> void csv(AtomicFolder out, List<String> files, String name, Class<R> type,
            List<R> rows) throws IOException {
        if (rows.isEmpty()) {
            return;
        }
        out.write("data/" + name + ".csv", utf8(CsvTable.of(type, rows)));
        files.add("data/" + name + ".csv");
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
