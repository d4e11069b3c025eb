package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The line naming the file's NCCL release when collsim models another. */
class HeaderNcclVersionTest {

    /** The talos header says "2.22.3+cuda12.6": 2.22 is neither 2.28 nor 2.30, so the line says what is modelled. */
    @Test
    void olderReleaseIsNamedWithTheModelledOne() {
        Dataset d = Corpus.read("A-allreduce-1x8-2x8xH100-dgx-talos-nccl2.22-table.txt").get(1);
        assertEquals(Optional.of("NCCL 2.22.3 named in the file: predicted with the NCCL 2.30.7 model (collsim carries"
                + " 2.28 (2.28.9), 2.30 (2.30.7); --nccl-version)"), HeaderNcclVersion.note(d, NcclVersion.V2_30_7));
        assertTrue(new Comparer(NcclVersion.V2_30_7, PerformanceParameters.DEFAULTS,
                c -> 0).compare(d, Optional.empty()).cluster().assumptions().stream()
                .anyMatch(a -> a.startsWith("NCCL 2.22.3 named in the file")));
    }

    /** Olivia's 2.30.4 shares 2.30.7's tables: no line; under --nccl-version 2.28 it gets one. */
    @Test
    void sameMajorMinorPrintsNothing() {
        Dataset d = Corpus.read("A-allreduce-int8-2x4xGH200-sigma2-olivia-slingshot-nccl2.30.txt").get(0);
        assertEquals(Optional.empty(), HeaderNcclVersion.note(d, NcclVersion.V2_30_7));
        assertTrue(HeaderNcclVersion.note(d, NcclVersion.V2_28_9).orElseThrow().startsWith("NCCL 2.30.4 named"));
    }
}
