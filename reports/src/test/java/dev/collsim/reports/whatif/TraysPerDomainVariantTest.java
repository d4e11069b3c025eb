package dev.collsim.reports.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.reports.cluster.SimulatorResolver;
import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.ReportSpecReader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A report variant's {@code trays-per-domain} (as {@code --trays-per-domain}) and the words of a tray count: the base
 * {@code gb300-nvl72x2} is 2 racks of 18 trays (as {@code -c gb300-nvl72x2}); a variant's {@code hosts} counts trays
 * and its changes say trays.
 */
class TraysPerDomainVariantTest {

    private static final String SPEC = """
            cluster: gb300-nvl72x2
            variants:
              - name: one rack
                hosts: 18
              - name: trays apart
                trays-per-domain: 1
              - name: uneven
                trays-per-domain: 5
            sweeps: [{collective: allreduce, min: 1M, max: 1M}]
            """;

    /** 18 trays fill one NVLink domain of 18; 36 trays one per domain are 36 domains of 4 GPUs (144 GPUs). */
    @Test
    void changesSayTraysAndDomains() throws InputException {
        ReportSpec spec = ReportSpecReader.read("w.yaml", SPEC, Path.of("."));
        SimulatorResolver r = new SimulatorResolver();
        ResolvedVariant base = r.resolve(spec, spec.variants().get(0));
        ResolvedVariant rack = r.resolve(spec, spec.variants().get(1));
        ResolvedVariant apart = r.resolve(spec, spec.variants().get(2));
        assertEquals("18 trays in 1 NVLink domain (up to 18 trays per domain), 72 GPUs",
                VariantChanges.text(spec.variants().get(1), rack, base));
        assertEquals("1 tray per NVLink domain, 36 trays in 36 NVLink domains (1 tray per domain), 144 GPUs",
                VariantChanges.text(spec.variants().get(2), apart, base));
        assertEquals("gb300-nvl72x2 (18 trays)", rack.topology().name());
    }

    /**
     * 5 does not divide 36 trays: the problem names the file, the line and column of the value (line 8, column 23:
     * {@code trays-per-domain: 5} indented by 4), the field as the spec reader names it (the third variant of the list,
     * {@code variants[2]}) and the divisors.
     */
    @Test
    void aValueThatDoesNotDivideTheTraysIsRefusedAtItsKey() throws InputException {
        ReportSpec spec = ReportSpecReader.read("w.yaml", SPEC, Path.of("."));
        InputException e = assertThrows(InputException.class,
                () -> new SimulatorResolver().resolve(spec, spec.variants().get(3)));
        assertTrue(e.getMessage().contains("w.yaml:8:23: variants[2].trays-per-domain: found 5 for 36 trays;"
                + " allowed: a divisor of the tray count (1, 2, 3, 4, 6, 9, 12, 18, 36)"), e.getMessage());
    }

    /** On hosts whose NVLink stays inside them (the default cluster's DGX H100) the key is refused at the key. */
    @Test
    void hostsWithoutTraysRefuseIt() throws InputException {
        ReportSpec spec = ReportSpecReader.read("w.yaml", """
                cluster: default
                variants:
                  - name: apart
                    trays-per-domain: 1
                sweeps: [{collective: allreduce, min: 1M, max: 1M}]
                """, Path.of("."));
        InputException e = assertThrows(InputException.class,
                () -> new SimulatorResolver().resolve(spec, spec.variants().get(1)));
        assertTrue(e.getMessage().contains("w.yaml:4:23: variants[0].trays-per-domain: found 1 for hosts dgx-h100"),
                e.getMessage());
    }
}
