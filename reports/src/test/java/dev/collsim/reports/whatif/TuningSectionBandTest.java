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
 * cluster (4x DGX H100 over InfiniBand, class hopper-infiniband, no profile shipped) the bare model's band of that
 * class, as recorded in the shipped bands file, not the uncalibrated median.
 */
class TuningSectionBandTest {

    @Test
    void bandIsTheClassBandOfTheCalibrationLegend() throws Exception {
        JsonNode bands;
        try (InputStream in = getClass().getResourceAsStream("/configs/calibration/auto/bare-model-bands.yaml")) {
            bands = new ObjectMapper(new YAMLFactory()).readTree(in);
        }
        JsonNode hib = bands.findValue("hopper-infiniband");
        String expected = String.format(Locale.ROOT, "%.1f %% below 1 MiB, %.1f %% at >= 1 MiB",
                hib.path("belowMiBPercent").asDouble(), hib.path("atLeastMiBPercent").asDouble());
        for (String cal : new String[] {null, "none"}) {
            ReportSpec spec = ReportSpecReader.read("w.yaml", "cluster: default\n"
                    + "sweeps: [{collective: allreduce, min: 1M, max: 1M}]\n", Path.of("."));
            ResolvedVariant base = new SimulatorResolver().resolve(spec, spec.variants().get(0));
            String note = TuningSection.of(base, base.spec().ncclSettings(), cal).note();
            assertTrue(note.contains("band " + expected), note);
            assertTrue(note.contains("hopper-infiniband"), note);
        }
    }
}
