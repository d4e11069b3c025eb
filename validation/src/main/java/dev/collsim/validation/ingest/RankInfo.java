package dev.collsim.validation.ingest;

/**
 * One {@code #  Rank r Group g Pid p on HOST device d [BUS] NAME} line of nccl-tests (2.19.6 {@code src/util.cu}
 * {@code writeDeviceReport}), or one entry of the {@code devices} list of its JSON output.
 *
 * @param rank     global rank
 * @param group    NCCL_TESTS_SPLIT group
 * @param pid      process id
 * @param host     host name as printed
 * @param device   CUDA device index on the host
 * @param busId    PCI id as printed inside the brackets, e.g. {@code 0000:1b:00} or {@code 0x1b}
 * @param gpuModel device name, e.g. {@code NVIDIA H100 80GB HBM3}
 * @param line     1-based source line, 0 for JSON
 */
public record RankInfo(int rank, int group, long pid, String host, int device, String busId, String gpuModel,
        int line) {
}
