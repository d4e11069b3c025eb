package dev.collsim.reports.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.io.InputException;
import dev.collsim.reports.cluster.SimulatorResolver;
import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.ReportSpecReader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A variant whose host type brings another network says so in its changes: the default cluster is 4 DGX H100 over
 * InfiniBand; p5.48xlarge hosts are joined by AWS EFA (the catalog's provider row), so that variant's cell names EFA;
 * an explicit {@code network} key is named once, by the edits.
 */
class VariantChangesTest {

    @Test
    void aHostTypeThatBringsAnotherNetworkSaysSo() throws InputException {
        ReportSpec spec = ReportSpecReader.read("w.yaml", """
                cluster: default
                variants:
                  - name: p5
                    host-type: p5.48xlarge
                  - name: roce
                    network: roce
                sweeps: [{collective: allreduce, min: 1M, max: 1M}]
                """, Path.of("."));
        SimulatorResolver r = new SimulatorResolver();
        ResolvedVariant base = r.resolve(spec, spec.variants().get(0));
        ResolvedVariant p5 = r.resolve(spec, spec.variants().get(1));
        ResolvedVariant roce = r.resolve(spec, spec.variants().get(2));
        assertEquals("-", VariantChanges.text(spec.variants().get(0), base, base));
        assertEquals("p5.48xlarge, over AWS EFA (aws-ofi-nccl) (the host type's network)",
                VariantChanges.text(spec.variants().get(1), p5, base));
        assertEquals("over RoCE", VariantChanges.text(spec.variants().get(2), roce, base));
    }
}
