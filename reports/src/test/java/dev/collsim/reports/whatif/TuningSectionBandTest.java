package dev.collsim.reports.whatif;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.collsim.reports.cluster.SimulatorResolver;
import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.ReportSpecReader;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The report's tuning section judges a predicted gain with the band its calibration legend prints: for the default
 * cluster (4x DGX H100 over InfiniBand, class hopper-infiniband) the shipped profile's own band (its file's
 * {@code band}) under the automatic choice where the class ships a profile, else (and under {@code --calibration
 * none}) the bare model's band of that class (the shipped bands file); never the uncalibrated median.
 */
class TuningSectionBandTest {

    @Test
    void bandIsTheClassBandOfTheCalibrationLegend() throws Exception {
        JsonNode bands;
        try (InputStream in = getClass().getResourceAsStream("/configs/calibration/auto/bare-model-bands.yaml")) {
            bands = new ObjectMapper(new YAMLFactory()).readTree(in);
        }
        JsonNode hib = bands.findValue("hopper-infiniband");
        JsonNode profile = hib;
        try (InputStream in = getClass().getResourceAsStream("/configs/calibration/auto/hopper-infiniband.yaml")) {
            if (in != null) {
                profile = new ObjectMapper(new YAMLFactory()).readTree(in).path("band");
            }
        }
        for (String cal : new String[] {null, "none"}) {
            JsonNode band = cal == null ? profile : hib;
            String expected = String.format(Locale.ROOT, "%.1f %% below 1 MiB, %.1f %% at >= 1 MiB",
                    band.path("belowMiBPercent").asDouble(), band.path("atLeastMiBPercent").asDouble());
            ReportSpec spec = ReportSpecReader.read("w.yaml", "cluster: default\n"
                    + "sweeps: [{collective: allreduce, min: 1M, max: 1M}]\n", Path.of("."));
            ResolvedVariant base = new SimulatorResolver().resolve(spec, spec.variants().get(0));
            String note = TuningSection.of(base, base.spec().ncclSettings(), cal).note();
            assertTrue(note.contains("band " + expected), note);
            assertTrue(note.contains("hopper-infiniband"), note);
        }
    }
}
