package dev.collsim.validation.diagnose;

import java.util.List;
import java.util.Objects;

/**
 * One explanation, in plain words, with the lines that show it.
 *
 * @param kind     what was found
 * @param severity how much it matters
 * @param dataset  the dataset id ({@code file:line (label)}) it concerns
 * @param message  plain-words explanation with numbers and units
 * @param evidence the source lines that show it (at least one)
 */
public record Finding(Kind kind, Severity severity, String dataset, String message, List<Evidence> evidence) {

    /** Validates and copies. */
    public Finding {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(message, "message");
        evidence = List.copyOf(evidence);
    }

    /** What a finding is about. */
    public enum Kind {
        /** Fewer channels (or p2p channels per peer) than the hardware needs. */
        TOO_FEW_CHANNELS,
        /** Inter-host traffic over TCP sockets (NET/Socket) instead of InfiniBand/RoCE verbs. */
        SOCKET_INSTEAD_OF_IB,
        /**
         * A run across hosts over RoCE far below its bound with NCCL's RoCE defaults left in place: one queue pair
         * per connection (NCCL_IB_QPS_PER_CONNECTION unset), and before NCCL 2.21 GID index 0 (NCCL_IB_GID_INDEX
         * unset). Candidate causes, not shown by the file.
         */
        ROCE_DEFAULTS,
        /** Network transfers staged through host memory: GPUDirect RDMA not used. */
        GDR_OFF,
        /** GPU-to-GPU traffic inside a host goes through the CPU (SHM transport, P2P disabled, SYS/PHB path). */
        P2P_THROUGH_CPU,
        /** A GPU with NVLink reaches less than one PCIe link would give: NVLink is not being used. */
        NVLINK_NOT_USED,
        /** A PCIe link trained below its width or speed. */
        PCIE_DOWNGRADED,
        /** One rank or host is slower than the others, or ranks are placed unevenly. */
        SLOW_RANK_OR_HOST,
        /** Per-iteration times (nccl-tests -I) vary widely: the average hides jitter or interference. */
        ITERATION_SPREAD,
        /** NVLS (NVLink SHARP) is off on hardware that supports it. */
        NVLS_OFF,
        /** LL128 forced with NCCL_PROTO on a path where NCCL would not enable it. */
        LL128_FORCED,
        /** A measured bandwidth above what the hardware can physically carry. */
        ABOVE_PHYSICAL_BOUND,
        /** Achieved bus bandwidth far below the bound of the hardware. */
        FAR_BELOW_BOUND,
        /** The bandwidth could not be judged: no bound is known (GPU not in the database, hosts' NICs not stated). */
        BOUND_UNKNOWN,
        /** Runs of the same collective on the same GPUs disagree. */
        RUNS_DISAGREE,
        /** Time drops as size grows: NCCL switches algorithm or protocol, and the choice below is slower. */
        ALGORITHM_SWITCH,
        /** Bus bandwidth falls as size grows (congestion, drops, retransmits). */
        BANDWIDTH_COLLAPSE,
        /** A single point far off its neighbours (noise, a hiccup). */
        OUTLIER,
        /**
         * Across hosts, the bytes added between two sizes move faster than the hosts' NICs allow: the smaller size's
         * time is off the steady line (noise, or a slower algorithm or protocol there).
         */
        STEP_ABOVE_NIC_BOUND,
        /** NCCL printed a WARN line inside the results table: the run met an error (Cuda failure, timeout) there. */
        NCCL_WARN,
        /** The numbers of the file contradict each other or its claims (busbw/algbw ratio, count, collective). */
        INCONSISTENT_DATA
    }

    /** How much a finding matters. */
    public enum Severity {
        /** Explains lost performance. */
        PROBLEM,
        /** The data cannot be fully trusted. */
        WARNING,
        /** Worth knowing. */
        INFO
    }

    /**
     * A source line.
     *
     * @param file file name
     * @param line 1-based line (0 = whole file)
     * @param text the line's text (trimmed), or a description of the value
     */
    public record Evidence(String file, int line, String text) {
        /** @return {@code file:line: text}, or {@code file: text} for line 0 (a JSON file's value has no line) */
        @Override
        public String toString() {
            return file + (line > 0 ? ":" + line : "") + ": " + text;
        }
    }
}
