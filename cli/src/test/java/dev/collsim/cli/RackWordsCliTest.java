package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * One set of words for a rack-scale system in every command: {@code -c gb300-nvl72x2} is 2 racks of 18 trays of 4
 * GB300 (NVIDIA's GB300 NVL72 reference architecture: 72 GPUs, 18 compute trays per rack), so every count of its
 * hosts says trays, and {@code --trays-per-domain} changes what topo show, topo paths and predict's System line say.
 */
class RackWordsCliTest {

    /** 144 ranks, one per GPU, on 36 trays: the Ranks line counts trays, as the Cluster line does. */
    @Test
    void predictCountsTrays() {
        CliRun r = CliRun.run("predict", "all_reduce", "-c", "gb300-nvl72x2", "-b", "1M", "-e", "1M");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("(36 trays in 2 NVLink domains (up to 18 trays per domain), 144 GPUs)"), r.out());
        assertTrue(r.out().contains("all_reduce_perf -g 1) on 36 trays"), r.out());
        assertFalse(r.out().contains("36 hosts"), r.out());
    }

    /**
     * The flow backend's Fabric line counts the GB200 NVL72 rack's 18 compute trays (NVIDIA's GB200 NVL72 reference
     * architecture) as trays, as the Ranks line does.
     */
    @Test
    void flowFabricLineCountsTrays() {
        CliRun r = CliRun.run("predict", "--backend", "flow", "-c", "bm.gpu.gb200.4", "alltoall", "-b", "1M", "-e",
                "1M");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("# Fabric: BM.GPU.GB200.4 (18 trays, 72 GPUs, "), r.out());
        assertTrue(r.out().contains("alltoall_perf -g 1) on 18 trays"), r.out());
        assertFalse(r.out().contains("18 hosts"), r.out());
    }

    /** One tray per domain: 4 GPUs share NVLink, not 72, and the System line says so instead of the rack's domain. */
    @Test
    void theSystemLineNamesTheDomainInUse() {
        CliRun r = CliRun.run("predict", "all_reduce", "-c", "gb300-nvl72", "--trays-per-domain", "1", "-b", "1M",
                "-e", "1M");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("# System: NVIDIA gb300-nvl72: 4x GB300, NVL72 tray, in an NVLink domain of 1 tray"
                + " (4 GPUs; the rack's is 72),"), r.out());
        assertFalse(r.out().contains("72-GPU NVLink domain"), r.out());
        CliRun rack = CliRun.run("predict", "all_reduce", "-c", "gb300-nvl72", "-b", "1M", "-e", "1M");
        assertTrue(rack.out().contains("NVL72 tray (72-GPU NVLink domain)"), rack.out());
    }

    /** topo show and topo paths honour --trays-per-domain: 18 trays, 1 per domain, are 18 NVLink domains. */
    @Test
    void topoShowAndPathsSayTheDomains() {
        CliRun apart = CliRun.run("topo", "show", "-c", "gb300-nvl72", "--trays-per-domain", "1");
        assertEquals(0, apart.code(), apart.err());
        assertTrue(apart.out().contains("hosts      18 trays in 18 NVLink domains (1 tray per domain), 72 GPUs"),
                apart.out());
        assertTrue(apart.out().contains("; 4 per tray"), apart.out());
        assertTrue(apart.out().contains("in an NVLink domain of 1 tray"), apart.out());
        CliRun rack = CliRun.run("topo", "show", "-c", "gb300-nvl72");
        assertTrue(rack.out().contains("hosts      18 trays in 1 NVLink domain (up to 18 trays per domain), 72 GPUs"),
                rack.out());
        CliRun paths = CliRun.run("topo", "paths", "-c", "gb300-nvl72", "--trays-per-domain", "2");
        assertEquals(0, paths.code(), paths.err());
        assertTrue(paths.out().startsWith("cluster: 18 trays in 9 NVLink domains (up to 2 trays per domain), 72 GPUs;"),
                paths.out());
        CliRun dgx = CliRun.run("topo", "show", "-c", "dgx-h100x2");
        assertTrue(dgx.out().contains("hosts      2\n"), dgx.out());
    }

    /** plan names trays in its cluster line and its group column. */
    @Test
    void planCountsTrays() {
        CliRun r = CliRun.run("plan", "-c", "gb300-nvl72x2", "--params", "8B", "--tp", "4", "--dp", "36");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("# cluster: gb300-nvl72x2 (36 trays in 2 NVLink domains (up to 18 trays per"
                + " domain), 144 GPUs);"), r.out());
        assertTrue(r.out().contains(" ranks trays "), r.out());
    }

    /**
     * The --target search on trays in NVLink domains of 2 trays skips a size the domains do not hold evenly: dp=1 on
     * tp4 is 4 GPUs = 1 tray (not a multiple of 2), so the first size tried that can be built is dp=2, 8 GPUs = 2
     * trays, and a target of 1 token/s is met there.
     */
    @Test
    void theTargetSearchSkipsSizesTheDomainsDoNotHold() {
        CliRun r = CliRun.run("plan", "-c", "gb300-nvl72", "--trays-per-domain", "2", "--params", "8B", "--tp", "4",
                "--dp", "2", "--global-batch", "64", "--target-tokens-per-s", "1");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("target 1 tokens/s: reached with 8 GPUs (2 trays, dp=2)"), r.out());
    }
}
