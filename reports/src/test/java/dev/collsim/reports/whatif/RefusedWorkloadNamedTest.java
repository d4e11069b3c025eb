package dev.collsim.reports.whatif;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.reports.cluster.SimulatorResolver;
import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.ReportSpecReader;
import java.nio.file.Path;
import java.util.ArrayList;
import org.junit.jupiter.api.Test;

/**
 * A variant whose NCCL settings leave some workload no algorithm names that workload, not only the variant. NCCL
 * runs NVLSTree only across hosts (src/graph/tuning.cc ncclTopoTuneModel disables NVLS_TREE on one node; collsim's
 * NcclTuningModel.algorithmEnabled: {@code nNodes > 1}), so {@code NCCL_ALGO=NVLSTree} refuses an AllReduce inside
 * one DGX H100 (8 ranks) and accepts one over 2 hosts (16 ranks). The report said only "variants[0]: No algorithm/protocol available for AllReduce on 8 ranks" on a spec
 * whose sweep ran on 16 ranks, leaving the user to guess that the plan's tensor-parallel group was meant.
 */
class RefusedWorkloadNamedTest {

    private static final String SPEC = """
            cluster: dgx-h100x2
            variants:
              - name: NVLSTree forced
                env: {NCCL_ALGO: NVLSTree}
            sweeps:
              - {collective: allreduce, min: 1M, max: 1M, gpus: 8}
            plans:
              - {name: llama 8B, model: llama3-8b, tp: 8, dp: 2, global-batch: 16}
            """;

    @Test
    void aRefusedPlanIsNamed() throws InputException {
        ReportSpec spec = ReportSpecReader.read("w.yaml", SPEC, Path.of("."));
        ResolvedVariant v = new SimulatorResolver().resolve(spec, spec.variants().get(1));
        InputException e = assertThrows(InputException.class, () -> PlanRows.plan(spec, v, spec.plans().get(0),
                new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>()));
        assertTrue(e.getMessage().contains("w.yaml:3:5: variants[0]: plan \"llama 8B\": No algorithm/protocol"
                + " available for AllReduce on 8 ranks with {NCCL_ALGO=NVLSTree}"), e.getMessage());
    }

    @Test
    void aRefusedSweepSizeIsNamed() throws InputException {
        ReportSpec spec = ReportSpecReader.read("w.yaml", SPEC, Path.of("."));
        ResolvedVariant v = new SimulatorResolver().resolve(spec, spec.variants().get(1));
        InputException e = assertThrows(InputException.class, () -> SweepRows.of(spec, v, spec.sweeps().get(0)));
        assertTrue(e.getMessage().contains("w.yaml:3:5: variants[0]: sweep all_reduce at 1048576 B on 8 ranks: No"
                + " algorithm/protocol available for AllReduce on 8 ranks"), e.getMessage());
    }
}
