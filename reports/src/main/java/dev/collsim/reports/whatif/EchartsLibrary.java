package dev.collsim.reports.whatif;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The charting library the HTML report inlines: Apache ECharts 5.3.1, read at report time from its Maven Central
 * webjar ({@code org.webjars.npm:echarts:5.3.1}, file {@code dist/echarts.min.js}, about 1 MB) so the page needs no
 * network when viewed. The library is a dependency, not part of collsim's sources. Stateless.
 */
public final class EchartsLibrary {

    /** The webjar version; must match the {@code echarts.version} property of the parent pom. */
    public static final String VERSION = "5.3.1";
    private static final String PATH = "/META-INF/resources/webjars/echarts/" + VERSION + "/dist/echarts.min.js";
    private static final String PAGE_SCRIPT = "report-charts.js";

    private EchartsLibrary() {
    }

    /**
     * @return the minified library's text
     * @throws IllegalStateException when the webjar is not on the class path (a packaging bug)
     */
    public static String script() {
        return read(EchartsLibrary.class, PATH);
    }

    /** @return the report's own script that turns each chart's JSON options into a chart (formatters, tooltips) */
    public static String pageScript() {
        return read(EchartsLibrary.class, PAGE_SCRIPT);
    }

    private static String read(Class<?> anchor, String name) {
        try (InputStream in = anchor.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
