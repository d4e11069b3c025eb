package dev.collsim.reports.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.reports.cluster.SimulatorResolver;
import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.ReportSpecReader;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A report states the network assumptions predict prints as its {@code Network:} line: p5.48xlarge hosts are joined
 * by AWS EFA (the catalog's AWS row), which collsim times on InfiniBand's step and hop figures; a socket network also
 * names its TCP stream rate. The default cluster (InfiniBand, the reference class) has no note.
 */
class VariantNetworkTest {

    @Test
    void efaAndSocketVariantsCarryPredictsNote() throws Exception {
        ReportSpec spec = ReportSpecReader.read("w.yaml", """
                cluster: default
                variants:
                  - name: p5
                    host-type: p5.48xlarge
                  - name: sockets
                    network: socket
                sweeps: [{collective: allreduce, min: 1M, max: 1M}]
                """, Path.of("."));
        SimulatorResolver r = new SimulatorResolver();
        assertEquals("", VariantNetwork.note(r.resolve(spec, spec.variants().get(0))));
        String efa = VariantNetwork.note(r.resolve(spec, spec.variants().get(1)));
        assertTrue(efa.startsWith("AWS EFA (aws-ofi-nccl) runs on InfiniBand's step cost"), efa);
        // the same words as predict -c p5.48xlargex4 (PredictCommand: comm.networkNote)
        assertEquals(predictNote("p5.48xlargex4", null), efa);
        String socket = VariantNetwork.note(r.resolve(spec, spec.variants().get(2)));
        assertTrue(socket.startsWith("TCP sockets runs its TCP streams at "), socket);
        assertEquals(predictNote("default", "socket"), socket);
    }

    @Test
    void theHtmlPageShowsIt() {
        ReportData.VariantRow p5 = new ReportData.VariantRow("p5", "c", 4, 32, "-", "", "", "analytical",
                "AWS EFA (aws-ofi-nccl) runs on InfiniBand's figures");
        ReportData d = new ReportData("t", "w.yaml", List.of(p5), List.of(), List.of(),
                List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of());
        String html = HtmlReport.render(d, List.of(), Map.of(), List.of(), "now");
        assertTrue(html.contains("Network of p5: AWS EFA (aws-ofi-nccl) runs on InfiniBand&#39;s figures")
                || html.contains("Network of p5: AWS EFA (aws-ofi-nccl) runs on InfiniBand's figures"), html);
    }

    private static String predictNote(String cluster, String network) throws InputException {
        Topology loaded = ClusterLoader.load(cluster);
        Topology t = network == null ? loaded : loaded.withNetworkClass(NetworkClass.parse(network));
        return new NcclPredictor().prepare(t, t.gpus(), NcclSettings.DEFAULTS)
                .networkNote(new NcclPredictor().parameters()).orElse("");
    }
}
