package dev.collsim.cli.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.cli.CliRun;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Direct AllToAll of 1 GiB per rank on 4 DGX H100 (rail-optimized, 8 x 400 Gb/s NICs per host, nothing shared), in
 * NCCL's p2p rounds (NCCL 2.30.7 {@code src/init.cc ncclP2pSchedule}: 8 rounds in flight are one host's 8 GPUs).
 * By hand, with S/32 = 33,554,432 B per transfer: step 0, the 7 peers on the rank's own host, 7 x S/32 over each
 * GPU's 18 NVLink4 (450 GB/s): 521.96 us; steps 1-3, one remote host each, 8 transfers into every NIC's rail (PXN)
 * at 50 GB/s: 5,368.71 us each; 16,628.09 us in all, busbw 62.56 against the NICs' bound 64.58 (the NVLink step
 * adds 3 %). The rounds in rank-delta order (rank i to i + 1 .. i + 8, then i + 9 ..) put 8, 7, ..., 1 transfers on
 * NICs 0-7 in the first step and 0-7 in the last, 31 NIC units for 24 of data: 20,806.15 us, NICs 77 % busy.
 */
class FlowAllToAllRoundsTest {

    @Test
    void ncclRoundsKeepEveryNicBusy() {
        double unit = 33_554_432;
        double handUs = 7 * unit / 450e9 * 1e6 + 3 * 8 * unit / 50e9 * 1e6;
        assertEquals(16_628.09, handUs, 0.01);
        for (String backend : List.of("links", "flow")) {
            CliRun r = CliRun.run("predict", "alltoall", "-c", "dgx-h100x4", "-b", "1G", "-e", "1G", "--backend",
                    backend, "--format", "csv");
            assertEquals(0, r.code(), r.err());
            List<String> lines = r.out().lines().filter(l -> !l.startsWith("#")).toList();
            int col = Arrays.asList(lines.get(0).split(",")).indexOf("time_us");
            double us = Double.parseDouble(lines.get(1).split(",")[col]);
            assertEquals(handUs, us, handUs * 1e-3, backend);
        }
    }
}
