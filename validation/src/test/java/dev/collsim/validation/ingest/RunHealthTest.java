package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The health line read per run. Real files: the expected verdict is what each file's {@code #@ health:} line (line 9
 * of every file below) says of the run, read by hand. Synthetic lines: worked by hand in the comment of each row.
 */
class RunHealthTest {

    @ParameterizedTest(name = "{0} dataset {1}: problem={2}")
    @CsvSource({
        // line 9 "run1 ok (22.5 GB/s busbw), run2 problem (2.8 GB/s busbw, direct cable with FEC disabled)"
        "A-allgather-2x1xGB10-dgxspark-roce200-switch-vs-direct.txt, 0, false",
        "A-allgather-2x1xGB10-dgxspark-roce200-switch-vs-direct.txt, 1, true",
        // line 9 "run1 ok (476 ...); run2 problem-ish (...); run3 ring 2 nodes 89.9 GB/s busbw (= 48 GB/s algbw ~ one
        // NIC's worth ...; maintainer expects 46-48 GB/s per NIC)": run 3 has no verdict of its own -> the file's
        // rule (starts with "run1 ok": healthy)
        "A-allreduce-1x8-and-2x8xH100-ndr-issue-nccltests290.txt, 0, false",
        "A-allreduce-1x8-and-2x8xH100-ndr-issue-nccltests290.txt, 1, true",
        "A-allreduce-1x8-and-2x8xH100-ndr-issue-nccltests290.txt, 2, false",
        // line 9 "1-node ok (...); 2-node (a2) PROBLEM-like 57 GB/s ... vs (b2) ok 225 GB/s ...": (a1) and (b1) are
        // "1 node x 8 GPU" runs, named by "1-node"
        "A-allreduce-1x8-2x8xA100-40GB-oci-bmgpu48-roce-10GiB.txt, 0, false",
        "A-allreduce-1x8-2x8xA100-40GB-oci-bmgpu48-roce-10GiB.txt, 1, true",
        "A-allreduce-1x8-2x8xA100-40GB-oci-bmgpu48-roce-10GiB.txt, 2, false",
        "A-allreduce-1x8-2x8xA100-40GB-oci-bmgpu48-roce-10GiB.txt, 3, false",
        // line 9 "bare metal ok (320 GB/s ...); VM problem (184 GB/s; ...)": runs "bare metal (2 hosts)" and "two
        // full-passthrough VMs (one per host)"
        "A-allreduce-2x8xH200-4nic-baremetal-vs-kvm-vm-issue-nccltests380.txt, 0, false",
        "A-allreduce-2x8xH200-4nic-baremetal-vs-kvm-vm-issue-nccltests380.txt, 1, true",
        // line 9 "stock = problem (SHM fallback ...); patched = ok (...)": columns "Stock (SHM)", "Patched (P2P)"
        "A-allreduce-1x4xRTXPRO6000-dual-turin-shm-vs-p2p-nccl2.29-pr2080.txt, 0, true",
        "A-allreduce-1x4xRTXPRO6000-dual-turin-shm-vs-p2p-nccl2.29-pr2080.txt, 1, false",
        // line 9 "run1 ok-ish (260 GB/s ...); run2 problem (...); run3 problem (...)"
        "A-allgather-2x8xB200-gke-a4-dranet-gib-nccl2.26.txt, 0, false",
        "A-allgather-2x8xB200-gke-a4-dranet-gib-nccl2.26.txt, 1, true",
        // line 9 "problem; ~60% lower busbw ... in BAD build (...); GOOD build ok. ...": BAD gets no verdict of its
        // own ("bad" is its title's word) -> the file's rule (problem); GOOD build ok
        "A-allreduce-2x2xH100NVL-slingshot200-amd-epyc9534-nccl2.30-issue-nccl2441.txt, 0, true",
        "A-allreduce-2x2xH100NVL-slingshot200-amd-epyc9534-nccl2.30-issue-nccl2441.txt, 1, false",
        // line 9 "problem/unknown  run1 TCP 8.1 GB/s busbw; run2 RoCE only 9.6 GB/s ...": no run verdict -> file rule
        "A-allreduce-2x1-2x2xL40S-openshift-sriov-tcp-vs-roce-nccl2.27.txt, 0, true",
        "A-allreduce-2x1-2x2xL40S-openshift-sriov-tcp-vs-roce-nccl2.27.txt, 1, true",
    })
    void realFiles(String file, int index, boolean problem) throws Exception {
        List<Dataset> ds = MeasurementReader.read(Path.of("src/test/resources/data", file));
        Dataset d = ds.get(index);
        assertEquals(problem, RunHealth.problem(d.header().text("health"), d.label()), d.label());
    }

    @ParameterizedTest(name = "\"{0}\" / \"{1}\": problem={2}")
    @CsvSource(delimiter = '|', value = {
        // run number: "runs 2/3" names runs 2 and 3; run 1 ok
        "run1 ok; runs 2/3 degraded (low busbw) | run 3: two nodes | true",
        "run1 ok; runs 2/3 degraded (low busbw) | run 1: one node | false",
        // a range "runs 2-6"
        "runs 2-6 bad, run 1 fine | run 4 | true",
        "runs 2-6 bad, run 1 fine | run 1 | false",
        // "(b1)" marker after a "vs"; the ',' inside the parentheses does not cut
        "(a1) broken (x, y) vs (b1) ok | (b1) tuned | false",
        "(a1) broken (x, y) vs (b1) ok | (a1) default | true",
        // label words, plural title against singular line
        "containers ok; VM failed to reach line rate | two VMs | true",
        "containers ok; VM failed to reach line rate | one container | false",
        // count phrase "2 hosts" = "2-host"
        "1-host ok; 2-host problem-like | 2 hosts x 8 GPUs | true",
        // the line names no run: the file's rule (starts with another run's "ok" -> healthy; "problem" -> problem)
        "ok  peak 100 GB/s; second run slower | run 2: other | false",
        "problem (reporter) | run 2 | true",
        // a run named but without a verdict of its own: file's rule
        "problem; run1 TCP 8 GB/s | run 1: TCP | true",
        // the title's own word is not a verdict: "GOOD build ok" is ok, not "good then ok"; "BAD build" alone: none
        "problem; slow in BAD build; GOOD build ok | GOOD RESULTS | false",
        "problem; slow in BAD build; GOOD build ok | BAD RESULTS | true",
        "ok; slow in BAD build | BAD RESULTS | false",
    })
    void syntheticLines(String health, String title, boolean problem) {
        assertEquals(problem, RunHealth.problem(health, title));
    }
}
