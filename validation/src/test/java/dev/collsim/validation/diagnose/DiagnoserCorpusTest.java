package dev.collsim.validation.diagnose;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.validation.diagnose.Finding.Kind;
import dev.collsim.validation.ingest.MeasurementReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every file of the corpus (validation/src/test/resources/data) whose header says 'problem' (for a run or the whole file) gets the finding that
 * its header and source describe, on the right run (dataset index in file order); runs the header calls ok get no
 * PROBLEM finding. The expected kinds come from the files' own health/interconnect lines and sources (issue
 * threads), not from this code's output.
 */
class DiagnoserCorpusTest {

    private static List<Diagnoser.Diagnosis> diagnose(String file) throws Exception {
        Path p = Path.of("src/test/resources/data", file);
        return new Diagnoser().diagnose(MeasurementReader.read(p), Files.readAllLines(p));
    }

    private static Set<Kind> kinds(Diagnoser.Diagnosis d) {
        return d.findings().stream().map(Finding::kind).collect(Collectors.toSet());
    }

    @ParameterizedTest(name = "{0} run {1}: {2}")
    @CsvSource({
        // run 2 direct cable: 2.8 GB/s on a 200 GbE link (health: problem), 8x below run 1
        "A-allgather-2x1xGB10-dgxspark-roce200-switch-vs-direct.txt, 1, FAR_BELOW_BOUND",
        "A-allgather-2x1xGB10-dgxspark-roce200-switch-vs-direct.txt, 1, RUNS_DISAGREE",
        // runs 2 and 3: 4 pods x 4 GPUs, avg busbw 22.2 and 11.2 against 59.4 for 2 x 8 (health: problem)
        "A-allgather-2x8xB200-gke-a4-dranet-gib-nccl2.26.txt, 1, RUNS_DISAGREE",
        "A-allgather-2x8xB200-gke-a4-dranet-gib-nccl2.26.txt, 1, SLOW_RANK_OR_HOST",
        "A-allgather-2x8xB200-gke-a4-dranet-gib-nccl2.26.txt, 2, RUNS_DISAGREE",
        // stock NCCL falls back to SHM on AMD PHB paths (NCCL PR 2080)
        "A-allreduce-1x4xRTXPRO6000-dual-turin-shm-vs-p2p-nccl2.29-pr2080.txt, 0, P2P_THROUGH_CPU",
        // 7.2 GB/s on V100 SXM2: NVLink not used
        "A-allreduce-1x4xV100-sxm2-modified-nccltests-nccl2.26-problem.txt, 0, NVLINK_NOT_USED",
        // (a2) 57 GB/s vs (b2) 225 GB/s on 16x100G RoCE; b2 adds NCCL_IB_QPS_PER_CONNECTION and GID index
        "A-allreduce-1x8-2x8xA100-40GB-oci-bmgpu48-roce-10GiB.txt, 1, FAR_BELOW_BOUND",
        "A-allreduce-1x8-2x8xA100-40GB-oci-bmgpu48-roce-10GiB.txt, 1, RUNS_DISAGREE",
        // nccl-tests issue 290: 2 nodes x 8 NDR 400G, 155 GB/s default and 90 GB/s ring
        "A-allreduce-1x8-and-2x8xH100-ndr-issue-nccltests290.txt, 1, FAR_BELOW_BOUND",
        "A-allreduce-1x8-and-2x8xH100-ndr-issue-nccltests290.txt, 2, FAR_BELOW_BOUND",
        // run 1 NCCL_IB_DISABLE=1: TCP sockets
        "A-allreduce-2x1-2x2xL40S-openshift-sriov-tcp-vs-roce-nccl2.27.txt, 0, SOCKET_INSTEAD_OF_IB",
        // NCCL issue 2441: the BAD build is 2.4x slower at 0.7-1.0 MB, where it switches protocol later
        "A-allreduce-2x2xH100NVL-slingshot200-amd-epyc9534-nccl2.30-issue-nccl2441.txt, 0, RUNS_DISAGREE",
        "A-allreduce-2x2xH100NVL-slingshot200-amd-epyc9534-nccl2.30-issue-nccl2441.txt, 0, ALGORITHM_SWITCH",
        // nccl-tests issue 380: KVM guest 184 GB/s vs bare metal 320 GB/s
        "A-allreduce-2x8xH200-4nic-baremetal-vs-kvm-vm-issue-nccltests380.txt, 1, RUNS_DISAGREE",
        // NCCL issue 450: 100 GbE TCP, 5.2 GB/s collapsing to 1.1-1.5 GB/s
        "A-allreduce-4x8xV100-32GB-tcp-100GbE-problem-issue-nccl450.txt, 0, SOCKET_INSTEAD_OF_IB",
        "A-allreduce-4x8xV100-32GB-tcp-100GbE-problem-issue-nccl450.txt, 0, BANDWIDTH_COLLAPSE",
        "A-allreduce-4x8xV100-32GB-tcp-100GbE-problem-issue-nccl450.txt, 0, FAR_BELOW_BOUND",
        // AutoDL 2x RTX 2080 Ti: P2P not supported, SHM through the host; single-GPU in-place reduce busbw absurd
        "A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-autodl.txt, 0, P2P_THROUGH_CPU",
        "A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-autodl.txt, 0, FAR_BELOW_BOUND",
        "A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-autodl.txt, 4, ABOVE_PHYSICAL_BOUND",
        // nccl-tests issue 321: alltoall over RoCE with 2 p2p channels per peer (maintainer: raise NCHANNELS_PER_NET_PEER)
        "D-info-alltoall-2x2xH20-tencent-vm-roce-bond-nccl2.26-issue-nccltests321.txt, 0, TOO_FEW_CHANNELS",
        // nccl-tests issue 194: 116 GB/s over an NVLink bridge that allows about 250
        "D-info-partial-allreduce-1x2xH100-pcie-nvlink-bridge-issue-nccltests194.txt, 0, FAR_BELOW_BOUND",
        // pasted table contradicts its command (unknown health); vendor table with a busbw/algbw ratio of 64 ranks
        "A-allgather-2x8xA100-80GB-roce-bond-ring-inconsistent-paste.txt, 0, INCONSISTENT_DATA",
        "A-allreduce-alltoall-GB200-NVL72-oci-1to48nodes-mnnvl-nccl2.27.txt, 1, INCONSISTENT_DATA",
    })
    void problemRunsGetTheirFinding(String file, int run, Kind expected) throws Exception {
        List<Diagnoser.Diagnosis> d = diagnose(file);
        assertTrue(kinds(d.get(run)).contains(expected), () -> kinds(d.get(run)) + " in " + d.get(run).findings());
    }

    @ParameterizedTest(name = "{0} run {1}")
    @CsvSource({
        "A-allgather-2x1xGB10-dgxspark-roce200-switch-vs-direct.txt, 0",
        "A-allreduce-1x8-2x8xA100-40GB-oci-bmgpu48-roce-10GiB.txt, 3",
        "A-allreduce-1x8-and-2x8xH100-ndr-issue-nccltests290.txt, 0",
        "A-allreduce-2x8xH200-4nic-baremetal-vs-kvm-vm-issue-nccltests380.txt, 0",
        "A-allreduce-1x4xRTXPRO6000-dual-turin-shm-vs-p2p-nccl2.29-pr2080.txt, 1",
        "A-allreduce-8xH100-azure-ndv5-nvls-nccl2.18-busbw-table.txt, 0",
        "A-allreduce-2x8-4x8xH100-xe9680-ndr-nccl2.26-issue-nccltests309.txt, 0",
        "D-info-1x2xA100-sxm4-80gb-nccl2.20.txt, 0",
        "A-allreduce-2x1-2x2xL40S-openshift-sriov-tcp-vs-roce-nccl2.27.txt, 1",
    })
    void okRunsGetNoProblem(String file, int run) throws Exception {
        Diagnoser.Diagnosis d = diagnose(file).get(run);
        assertFalse(d.findings().stream().anyMatch(f -> f.severity() == Finding.Severity.PROBLEM),
                () -> d.findings().toString());
    }

    /**
     * The finding's text starts with what disagrees, not with its own kind again (printed before it: "PROBLEM runs
     * disagree: busbw at ..."). The GB10 file at 4 GiB: run 2's best busbw 2.83 GB/s (line 44, in place), run 1's
     * 22.46 (line 24, in place).
     */
    @ParameterizedTest
    @CsvSource({"A-allgather-2x1xGB10-dgxspark-roce200-switch-vs-direct.txt"})
    void runsDisagreeSaysWhatDisagrees(String file) throws Exception {
        Finding f = diagnose(file).get(1).findings().stream().filter(x -> x.kind() == Kind.RUNS_DISAGREE)
                .findFirst().orElseThrow();
        assertTrue(f.message().startsWith("busbw at 4294967296 bytes is 2.83 GB/s here but 22.46 GB/s in 'run 1: via"
                + " QSFP switch"), f.message());
    }

    /** Evidence cites real lines: the GB10 run-2 finding points at a row of run 2 (lines 42-44). */
    @ParameterizedTest
    @CsvSource({"A-allgather-2x1xGB10-dgxspark-roce200-switch-vs-direct.txt"})
    void evidenceCitesTheRow(String file) throws Exception {
        Finding f = diagnose(file).get(1).findings().stream().filter(x -> x.kind() == Kind.FAR_BELOW_BOUND)
                .findFirst().orElseThrow();
        int line = f.evidence().get(0).line();
        assertTrue(line >= 42 && line <= 44, "line " + line);
        assertTrue(f.evidence().get(0).text().startsWith("4294967296") || f.evidence().get(0).text().startsWith("1073741824")
                || f.evidence().get(0).text().startsWith("2147483648"));
    }
}
