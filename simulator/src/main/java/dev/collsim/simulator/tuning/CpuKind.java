package dev.collsim.simulator.tuning;

import java.util.Locale;

/**
 * The CPU facts NCCL's tuning model reads (NCCL 2.30 {@code src/graph/tuning.cc}): vendor for the multi-host
 * LL bandwidth row and the network overhead, architecture for the POWER PCI latency rule and the NVLSTree
 * correction (x86 only).
 */
public enum CpuKind {
    /** Intel x86-64. */
    INTEL_X86,
    /** AMD x86-64. */
    AMD_X86,
    /** Other x86-64 (e.g. Zhaoxin). */
    OTHER_X86,
    /** Arm (e.g. Grace). */
    ARM,
    /** IBM POWER. */
    POWER;

    /**
     * Maps a CPU's architecture and vendor strings (as in NCCL's topology XML: {@code arch} x86_64/arm64/ppc64,
     * {@code vendor} GenuineIntel/AuthenticAMD/...) to a kind.
     *
     * @param arch   architecture text, may be null (x86_64 assumed)
     * @param vendor vendor text, may be null
     * @return the kind
     */
    public static CpuKind of(String arch, String vendor) {
        String a = arch == null ? "x86_64" : arch.toLowerCase(Locale.ROOT);
        String v = vendor == null ? "" : vendor.toLowerCase(Locale.ROOT);
        if (a.startsWith("ppc") || a.contains("power")) {
            return POWER;
        }
        if (a.startsWith("arm") || a.startsWith("aarch")) {
            return ARM;
        }
        if (v.contains("intel")) {
            return INTEL_X86;
        }
        if (v.contains("amd")) {
            return AMD_X86;
        }
        return v.isEmpty() ? INTEL_X86 : OTHER_X86;
    }

    /** @return true for the x86 kinds */
    public boolean isX86() {
        return this == INTEL_X86 || this == AMD_X86 || this == OTHER_X86;
    }
}
