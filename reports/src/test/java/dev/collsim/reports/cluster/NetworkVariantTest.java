package dev.collsim.reports.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.ReportSpecReader;
import dev.collsim.reports.whatif.ResolvedVariant;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.topology.NetworkClass;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A report variant's {@code network} key sets the transport between hosts, and a variant that changes something else
 * keeps the base cluster's transport (a YAML {@code fabric.network}), as {@code -c FILE} would give it.
 */
class NetworkVariantTest {

    @TempDir
    Path dir;

    @Test
    void networkKeySetsTheTransportAndOtherEditsKeepTheBasesOne() throws Exception {
        Files.writeString(dir.resolve("roce.yaml"), """
                schema: collsim/v1
                name: two-dgx-h100-roce
                hosts: dgx-h100
                count: 2
                fabric:
                  kind: rail-optimized
                  network: roce
                """);
        ReportSpec spec = ReportSpecReader.read(dir.resolve("w.yaml").toString(), """
                cluster: roce.yaml
                variants:
                  - name: over InfiniBand
                    network: infiniband
                  - name: 4 hosts
                    hosts: 4
                sweeps: [{collective: allreduce, min: 1M, max: 1M}]
                """, dir);
        SimulatorResolver r = new SimulatorResolver();
        ResolvedVariant base = r.resolve(spec, spec.variants().get(0));
        ResolvedVariant ib = r.resolve(spec, spec.variants().get(1));
        ResolvedVariant four = r.resolve(spec, spec.variants().get(2));
        assertEquals(NetworkClass.ROCE, base.topology().networkClass());
        assertEquals(NetworkClass.INFINIBAND, ib.topology().networkClass());
        assertEquals(NetworkClass.ROCE, four.topology().networkClass(), "a host-count edit keeps the base's RoCE");
        assertEquals(NetworkClass.ROCE, base.withHosts().apply(8).networkClass(), "scaling curves keep it too");
        assertTrue(ib.topology().name().contains("over InfiniBand"), ib.topology().name());
        // the transport reaches the model: RoCE's per-hop latency is above InfiniBand's (NetClassDefaults), so the
        // same 2-host cluster predicts a slower 8 KiB AllReduce over RoCE
        double roceUs = base.predictor().predict(request(base)).timeUs();
        double ibUs = ib.predictor().predict(request(ib)).timeUs();
        assertTrue(roceUs > ibUs, "RoCE " + roceUs + " us vs InfiniBand " + ibUs + " us");
    }

    private static PredictionRequest request(ResolvedVariant v) {
        return new PredictionRequest(v.topology(), v.topology().gpus(), Collective.ALL_REDUCE, 8192, DataType.FLOAT,
                RedOp.SUM, null);
    }

    @Test
    void unknownNetworkIsLocatedAndListsTheClasses() {
        InputException e = assertThrows(InputException.class,
                () -> ReportSpecReader.read("w.yaml", "variants:\n  - name: a\n    network: ethernet\n"
                        + "sweeps: [{collective: allreduce}]\n", dir));
        // "    network: ethernet": the value starts in column 14
        assertEquals("w.yaml:3:14: variants[0].network: unknown network 'ethernet'; allowed: infiniband, roce, efa,"
                + " tcpx, tcpxo, socket, slingshot", e.problems().get(0).toString());
    }
}
