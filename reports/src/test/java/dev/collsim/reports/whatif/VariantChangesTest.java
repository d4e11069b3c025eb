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

    /**
     * NVL72 trays on the 4-host default: 4 trays of 4 GB300 share one NVLink domain of up to 18 trays (GB300 NVL72: 72
     * GPUs in 18 trays), which the hosts column alone hides; 36 hosts are two such domains.
     */
    @Test
    void traysSayWhichNvlinkDomainsTheyFill() throws InputException {
        ReportSpec spec = ReportSpecReader.read("w.yaml", """
                cluster: default
                variants:
                  - name: a4x
                    host-type: a4x-maxgpu-4g-metal
                  - name: a4x 36
                    host-type: a4x-maxgpu-4g-metal
                    hosts: 36
                sweeps: [{collective: allreduce, min: 1M, max: 1M}]
                """, Path.of("."));
        SimulatorResolver r = new SimulatorResolver();
        ResolvedVariant base = r.resolve(spec, spec.variants().get(0));
        ResolvedVariant a4x = r.resolve(spec, spec.variants().get(1));
        assertEquals("a4x-maxgpu-4g-metal, over RoCE (the host type's network), 4 trays in 1 NVLink domain (up to 18"
                + " trays per domain), 16 GPUs", VariantChanges.text(spec.variants().get(1), a4x, base));
        ResolvedVariant big = r.resolve(spec, spec.variants().get(2));
        assertEquals("36 trays in 2 NVLink domains (up to 18 trays per domain), 144 GPUs", big.trays());
    }
}
